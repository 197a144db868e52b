import fs from 'node:fs';
import { startApp, type TestApp } from '../../helpers/app';
import { startReceiver, type Receiver } from '../../helpers/receiver';
import { usingPostgres } from '../../helpers/services';
import { eventOf, verify, waitForPosts } from '../../helpers/webhooks';
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
  app = await startApp({ env: FIXTURE_ENV, restore: FIXTURE_FILES });
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
  const moved = await app.request().patch(`/api/webhooks/subscriptions/${up.id}`).set(as()).send({ endpoint_url: `${receiver.url}/after-upgrade` });
  expect(moved.status).toBe(200);
  const published = await app.request().post('/api/webhooks/events').set(as()).send({ type: 'order.paid', payload: { id: 'o-2', total: 99 } });
  expect(published.status).toBe(202);

  const [received] = await waitForPosts(receiver, 1, (request) => request.path === '/after-upgrade' && request.headers['x-webhook-event'] === 'order.paid');
  expect(eventOf(received).data).toEqual({ id: 'o-2', total: 99 });
  // Signed with the secret the release sealed in its database.
  expect(() => verify(up.secret, received)).not.toThrow();

  const listed = await app.request().get(`/api/webhooks/subscriptions/${up.id}/deliveries`).set(as());
  const previous = (up.deliveries as { data: unknown[] }).data;
  expect(listed.body.data).toHaveLength(previous.length + 1);
  expect(listed.body.data[0]).toMatchObject({ id: received.headers['webhook-id'], event_type: 'order.paid', status: 'succeeded', attempts: 1 });
  expect(listed.body.data.slice(1)).toEqual(previous);
});
