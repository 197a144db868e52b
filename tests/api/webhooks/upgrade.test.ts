import fs from 'node:fs';
import { startApp, type TestApp } from '../../helpers/app';
import { startReceiver, type Receiver } from '../../helpers/receiver';
import { usingPostgres } from '../../helpers/services';
import { eventOf, orderData, verify, waitForPosts } from '../../helpers/webhooks';
import { eventually } from '../../helpers/wait';
import { expectationsFile, FIXTURE_ENV, FIXTURE_FILES, FIXTURE_USER, type FixtureExpectations } from '../../fixtures/upgrade/release';

/**
 * An upgrade: the app boots on a database the previous release left behind (deliveries and
 * attempts in Strapi content-type tables) and answers for its deliveries exactly as that release
 * did, then delivers new events into the same history.
 */
let app: TestApp;
let receiver: Receiver;
let jwt: string;
const expected = JSON.parse(fs.readFileSync(expectationsFile(usingPostgres ? 'postgres' : 'sqlite'), 'utf8')) as FixtureExpectations;
const as = () => ({ Authorization: `Bearer ${jwt}` });

beforeAll(async () => {
  receiver = await startReceiver();
  // The fixture's deliveries keep the dates they were made on: kept forever here, or the purge at boot
  // would delete them once they are older than the default 30 days.
  app = await startApp({ env: { ...FIXTURE_ENV, RETENTION_DELIVERIES_DAYS: '0' }, restore: FIXTURE_FILES });
  const login = await app.request().post('/api/auth/local').send({ identifier: FIXTURE_USER.email, password: FIXTURE_USER.password });
  expect(login.status).toBe(200);
  jwt = login.body.jwt as string;
});

afterAll(async () => {
  await app?.close();
  await receiver?.close();
});

it('lists every delivery and attempt the release recorded, as the release answered them', async () => {
  expect(expected.subscriptions).toHaveLength(2);
  for (const subscription of expected.subscriptions) {
    const listed = await app.request().get(`/api/webhooks/subscriptions/${subscription.id}/deliveries`).set(as());
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual(subscription.deliveries);
    for (const [id, detail] of Object.entries(subscription.details)) {
      const answered = await app.request().get(`/api/webhooks/deliveries/${id}`).set(as());
      expect(answered.status).toBe(200);
      expect(answered.body).toEqual(detail);
    }
  }
});

it('delivers new events after the upgrade, listed before the old ones', async () => {
  const [up] = expected.subscriptions;
  const moved = await app
    .request()
    .patch(`/api/webhooks/subscriptions/${up.id}`)
    .set(as())
    .send({ endpoint_url: `${receiver.url}/after-upgrade` });
  expect(moved.status).toBe(200);
  const published = await app
    .request()
    .post('/api/webhooks/events')
    .set(as())
    .send({ type: 'order.paid', payload: orderData('o-2', { status: 'paid', total: 99 }) });
  expect(published.status).toBe(202);

  const [received] = await waitForPosts(
    receiver,
    1,
    (request) => request.path === '/after-upgrade' && request.headers['x-webhook-event'] === 'order.paid'
  );
  expect(eventOf(received).data).toEqual(orderData('o-2', { status: 'paid', total: 99 }));
  // Signed with the secret the release sealed in its database.
  expect(() => verify(up.secret, received)).not.toThrow();

  // The receipt can come a moment before the worker has the answer and records it.
  const listed = await eventually(
    async () => {
      const response = await app.request().get(`/api/webhooks/subscriptions/${up.id}/deliveries`).set(as());
      return response.body.data[0]?.status === 'succeeded' ? response : undefined;
    },
    10_000,
    'the new delivery recorded as succeeded'
  );
  const previous = (up.deliveries as { data: unknown[] }).data;
  expect(listed.body.data).toHaveLength(previous.length + 1);
  expect(listed.body.data[0]).toMatchObject({
    id: received.headers['webhook-id'],
    event_type: 'order.paid',
    status: 'succeeded',
    attempts: 1,
  });
  expect(listed.body.data.slice(1)).toEqual(previous);
});

it("leaves the engine's tables with their own columns only, the release's rows kept", async () => {
  const knex = app.strapi.db.connection;
  const columns = async (table: string) => Object.keys(await knex(table).columnInfo()).sort();
  expect(await columns('api_suite_webhook_deliveries')).toEqual(
    [
      'attempts',
      'created_at',
      'delivered_at',
      'event_id',
      'event_type',
      'id',
      'next_attempt_at',
      'payload',
      'response_status',
      'status',
      'subscription_id',
      // Added since that release (the publish's trace context); the sync adds it, empty for the old rows.
      'trace_context',
      'updated_at',
      'uuid',
    ].sort()
  );
  expect(await columns('api_suite_webhook_attempts')).toEqual(
    ['at', 'attempt', 'created_at', 'delivery_uuid', 'duration_ms', 'error', 'id', 'response_body', 'status_code', 'updated_at'].sort()
  );
  const released = expected.subscriptions.flatMap((subscription) => Object.keys(subscription.details));
  expect(await knex('api_suite_webhook_deliveries').whereIn('uuid', released).count({ count: '*' }).first()).toEqual({
    count: usingPostgres ? String(released.length) : released.length,
  });
});
