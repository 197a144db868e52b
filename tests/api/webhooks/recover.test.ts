import { startApp, type TestApp } from '../../helpers/app';
import { startReceiver, type ReceivedRequest, type Receiver } from '../../helpers/receiver';
import { adminSession, makeAdministrator, registerUser, type TestUser } from '../../helpers/users';
import { posts, subscribe, verify, waitForPosts } from '../../helpers/webhooks';
import { eventually, quietFor, timePasses } from '../../helpers/wait';

/**
 * Recover (Svix's "recover failed messages since"): a receiver that was down catches up on a
 * time range's failed and cancelled deliveries, each sent again with its own webhook-id.
 */
let app: TestApp;
let receiver: Receiver;
let alice: TestUser;
let bob: TestUser;
let admin: TestUser;
/** The receiver answers 500 while this is true. */
let down = true;

const as = (user: TestUser) => ({ Authorization: `Bearer ${user.jwt}` });
const order = (n: number) => ({
  id: `c0a8012e-7d1f-4f5e-9a3b-2e4d6f8a1b${String(n).padStart(2, '0')}`,
  status: 'pending',
  total: 25 + n,
  created_at: '2026-11-22T10:00:00.000Z',
});
const publish = (count: number, from = 0) =>
  app
    .request()
    .post('/api/webhooks/events')
    .set(as(admin))
    .send({ events: Array.from({ length: count }, (_, n) => ({ type: 'order.created', payload: order(from + n) })) });
const recover = (id: string, body: unknown, user = alice) =>
  app
    .request()
    .post(`/api/webhooks/subscriptions/${id}/recover`)
    .set(as(user))
    .send(body as object);
const orders = (request: ReceivedRequest) => request.headers['x-webhook-event'] === 'order.created';
const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();

async function deliveriesOf(id: string, status: string): Promise<Array<{ id: string; attempts: number; status: string }>> {
  const response = await app.request().get(`/api/webhooks/subscriptions/${id}/deliveries?limit=100&status=${status}`).set(as(alice));
  expect(response.status).toBe(200);
  return response.body.data;
}

/** Wait until `count` deliveries of the subscription have the status. */
function settled(id: string, status: string, count: number) {
  return eventually(
    async () => {
      const rows = await deliveriesOf(id, status);
      return rows.length === count ? rows : undefined;
    },
    20_000,
    `${count} ${status} deliveries`
  );
}

/** A subscription of alice's whose test event was delivered while the receiver was up. */
async function upSubscription(path: string) {
  down = false;
  const created = await subscribe(app, alice, { endpoint_url: `${receiver.url}${path}`, events: ['order.created'] });
  await settled(created.id, 'succeeded', 1);
  return created;
}

beforeAll(async () => {
  receiver = await startReceiver(() => (down ? { status: 500, body: 'down' } : { status: 200 }));
  app = await startApp({ env: { WEBHOOK_RETRY_SCHEDULE: '1' } });
  alice = await registerUser(app, { plan: 'enterprise' });
  bob = await registerUser(app, { plan: 'enterprise' });
  admin = await makeAdministrator(app, await registerUser(app));
});

afterAll(async () => {
  await app?.close();
  await receiver?.close();
});

describe('POST /api/webhooks/subscriptions/{id}/recover', () => {
  it("sends a range's failed deliveries again with their own webhook-id, and only that range", async () => {
    const created = await upSubscription('/range');
    down = true;
    expect((await publish(1)).status).toBe(202);
    await settled(created.id, 'failed', 1);
    // Created timestamps are stored to the millisecond: a moment between the first event and the next two,
    // a little clock time away from either.
    await timePasses(20);
    const between = new Date().toISOString();
    await timePasses(20);
    expect((await publish(2, 1)).status).toBe(202);
    const failed = await settled(created.id, 'failed', 3);
    expect(failed.every((row) => row.attempts === 2)).toBe(true);
    const firstTries = posts(receiver).filter(orders);
    expect(firstTries).toHaveLength(6);

    down = false;
    const before = posts(receiver).filter(orders).length;
    const early = await recover(created.id, { since: minutesAgo(5), until: between });
    expect(early.status).toBe(202);
    expect(early.body).toEqual({ deliveries: 1 });
    const [first] = await waitForPosts(receiver, before + 1, orders).then((all) => all.slice(before));
    const oldest = failed[failed.length - 1];
    expect(first.headers['webhook-id']).toBe(oldest.id);
    expect(verify(created.secret, first)).toMatchObject({ type: 'order.created', data: order(0) });

    const rest = await recover(created.id, { since: between });
    expect(rest.body).toEqual({ deliveries: 2 });
    const again = await waitForPosts(receiver, before + 3, orders).then((all) => all.slice(before + 1));
    expect(new Set(again.map((request) => request.headers['webhook-id']))).toEqual(new Set([failed[0].id, failed[1].id]));
    const succeeded = (await settled(created.id, 'succeeded', 4)).filter((row) => row.attempts > 1);
    // The attempt count continues from the failed ones.
    expect(succeeded.map((row) => row.attempts)).toEqual([3, 3, 3]);

    // Nothing failed is left: a second recovery queues nothing and sends nothing.
    expect((await recover(created.id, { since: minutesAgo(5) })).body).toEqual({ deliveries: 0 });
    // A recovered delivery goes out at once: one would arrive within this.
    expect(await quietFor(300, () => posts(receiver).filter(orders).length, 'order deliveries')).toBe(before + 3);
  });

  it('takes up deliveries cancelled by disabling the subscription, once it is enabled again', async () => {
    const created = await upSubscription('/paused');
    down = true;
    app.strapi.config.set('plugin::api-suite.webhooks.retryScheduleSeconds', [3]);
    try {
      expect((await publish(1, 10)).status).toBe(202);
      await settled(created.id, 'retrying', 1);
      expect(
        (await app.request().patch(`/api/webhooks/subscriptions/${created.id}`).set(as(alice)).send({ is_active: false })).status
      ).toBe(200);

      const refused = await recover(created.id, { since: minutesAgo(5) });
      expect(refused.status).toBe(409);
      expect(refused.body).toEqual({
        error: 'The subscription is disabled: re-enable it (is_active: true) before recovering its deliveries',
        code: 'subscription_disabled',
      });

      await settled(created.id, 'cancelled', 1);
      down = false;
      expect((await app.request().patch(`/api/webhooks/subscriptions/${created.id}`).set(as(alice)).send({ is_active: true })).status).toBe(
        200
      );
      const before = posts(receiver).filter((request) => request.path === '/paused' && orders(request)).length;
      expect((await recover(created.id, { since: minutesAgo(5) })).body).toEqual({ deliveries: 1 });
      await waitForPosts(receiver, before + 1, (request) => request.path === '/paused' && orders(request));
      await settled(created.id, 'succeeded', 2);
    } finally {
      app.strapi.config.set('plugin::api-suite.webhooks.retryScheduleSeconds', [1]);
    }
  });

  it("answers 400 for a bad range, 404 for another consumer's subscription, 401 without credentials", async () => {
    const created = await subscribe(app, alice, { endpoint_url: `${receiver.url}/checks`, events: ['order.created'] });
    const tooOld = await recover(created.id, { since: minutesAgo(15 * 24 * 60) });
    expect(tooOld.status).toBe(400);
    expect(tooOld.body).toEqual({
      error: 'since: must be within the last 14 days',
      code: 'validation_error',
      details: [{ field: 'since', message: 'must be within the last 14 days' }],
    });
    const backwards = await recover(created.id, { since: minutesAgo(1), until: minutesAgo(2) });
    expect(backwards.status).toBe(400);
    expect(backwards.body.details).toEqual([{ field: 'until', message: 'must not be before since' }]);
    const notADate = await recover(created.id, { since: 'yesterday' });
    expect(notADate.status).toBe(400);
    expect(notADate.body.details).toEqual([{ field: 'since', message: 'must be an ISO 8601 date-time, e.g. 2026-01-01T12:00:00Z' }]);
    const missing = await recover(created.id, {});
    expect(missing.status).toBe(400);
    expect(missing.body.details[0].field).toBe('since');
    const extra = await recover(created.id, { since: minutesAgo(1), status: 'failed' });
    expect(extra.status).toBe(400);

    const stranger = await recover(created.id, { since: minutesAgo(1) }, bob);
    expect(stranger.status).toBe(404);
    expect(stranger.body).toEqual({ error: 'Subscription not found', code: 'not_found' });
    expect(
      (
        await app
          .request()
          .post(`/api/webhooks/subscriptions/${created.id}/recover`)
          .send({ since: minutesAgo(1) })
      ).status
    ).toBe(401);
  });

  it('is offered to the admin panel, behind the webhooks management permission', async () => {
    down = true;
    const created = await subscribe(app, bob, { endpoint_url: `${receiver.url}/admin`, events: ['order.created'] });
    expect((await publish(1, 20)).status).toBe(202);
    await eventually(
      async () => {
        const response = await app.request().get(`/api/webhooks/subscriptions/${created.id}/deliveries?status=failed`).set(as(bob));
        return response.body.meta.total === 1 ? true : undefined;
      },
      20_000,
      'a failed delivery'
    );
    down = false;
    const { token } = await adminSession(app);
    const response = await app
      .request()
      .post(`/api-suite/webhooks/subscriptions/${created.id}/recover`)
      .set('Authorization', `Bearer ${token}`)
      .send({ since: minutesAgo(5) });
    expect(response.status).toBe(202);
    expect(response.body).toEqual({ data: { deliveries: 1 } });
    await waitForPosts(receiver, 1, (request) => request.path === '/admin' && orders(request) && !down);
    expect(
      (
        await app
          .request()
          .post(`/api-suite/webhooks/subscriptions/${created.id}/recover`)
          .send({ since: minutesAgo(5) })
      ).status
    ).toBe(401);
  });
});
