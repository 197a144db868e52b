import { startApp, type TestApp } from '../../helpers/app';
import { startInstance, type Instance } from '../../helpers/instance';
import { startReceiver, type ReceivedRequest, type Receiver } from '../../helpers/receiver';
import { redisUrl } from '../../helpers/services';
import { makeAdministrator, registerUser, type TestUser } from '../../helpers/users';
import { posts, subscribe, waitForPosts } from '../../helpers/webhooks';
import { eventually } from '../../helpers/wait';

/**
 * Per-subscription throttle: `rate_limit` deliveries a second at most. Deliveries beyond it wait
 * (never failed, never counted as failures). With Redis two worker processes share the limit.
 */
let app: TestApp;
let other: Instance | undefined;
let receiver: Receiver;
let alice: TestUser;
let admin: TestUser;

const as = (user: TestUser) => ({ Authorization: `Bearer ${user.jwt}` });
const order = (n: number) => ({
  id: `9d1c2b3a-4e5f-4a6b-8c7d-0e1f2a3b4c${String(n).padStart(2, '0')}`,
  status: 'pending',
  total: n,
  created_at: '2026-11-22T10:00:00.000Z',
});
const onPath = (path: string) => (request: ReceivedRequest) =>
  request.path === path && request.headers['x-webhook-event'] === 'order.created';

/**
 * How far the earliest receipts ran ahead of a limiter's schedule: the n-th receipt (from 0) may
 * not arrive before `since + n * intervalMs`. A late send never makes a later one early, so a load
 * that delays some deliveries cannot break this; a limiter that lets more out than its slots does.
 */
function aheadOfSchedule(requests: ReceivedRequest[], since: number, intervalMs: number): number {
  const times = requests.map((request) => request.receivedAt).sort((a, b) => a - b);
  return Math.max(...times.map((at, n) => since + n * intervalMs - at));
}

beforeAll(async () => {
  receiver = await startReceiver(() => ({ status: 200 }));
  app = await startApp();
  // With Redis a second worker process takes jobs from the same queue: the limit must hold across both.
  if (redisUrl) other = await startInstance(app);
  alice = await registerUser(app, { plan: 'enterprise' });
  admin = await makeAdministrator(app, await registerUser(app));
}, 120_000);

afterAll(async () => {
  await other?.stop();
  await app?.close();
  await receiver?.close();
});

describe('rate_limit', () => {
  it('is set on create and PATCH, shown on the subscription, and checked', async () => {
    const created = await subscribe(app, alice, { endpoint_url: `${receiver.url}/settings`, events: ['order.created'], rate_limit: 20 });
    const shown = await app.request().get(`/api/webhooks/subscriptions/${created.id}`).set(as(alice));
    expect(shown.body.rate_limit).toBe(20);
    const cleared = await app.request().patch(`/api/webhooks/subscriptions/${created.id}`).set(as(alice)).send({ rate_limit: null });
    expect(cleared.status).toBe(200);
    expect(cleared.body.rate_limit).toBeNull();
    const unlimited = await subscribe(app, alice, { endpoint_url: `${receiver.url}/settings`, events: ['order.created'] });
    expect((await app.request().get(`/api/webhooks/subscriptions/${unlimited.id}`).set(as(alice))).body.rate_limit).toBeNull();

    for (const bad of [0, 1001, 2.5, '5']) {
      const refused = await app.request().patch(`/api/webhooks/subscriptions/${created.id}`).set(as(alice)).send({ rate_limit: bad });
      expect(refused.status).toBe(400);
      expect(refused.body.code).toBe('validation_error');
      expect(refused.body.details[0].field).toBe('rate_limit');
    }
    const refused = await app
      .request()
      .post('/api/webhooks/subscriptions')
      .set(as(alice))
      .send({ endpoint_url: `${receiver.url}/x`, events: ['order.created'], rate_limit: 0 });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({
      error: 'rate_limit: must be between 1 and 1000, or null for no limit',
      code: 'validation_error',
      details: [{ field: 'rate_limit', message: 'must be between 1 and 1000, or null for no limit' }],
    });
  });

  it(`holds deliveries to the limit; the excess waits and is never failed (${redisUrl ? 'two worker processes sharing Redis' : 'one process'})`, async () => {
    const created = await subscribe(app, alice, { endpoint_url: `${receiver.url}/paced`, events: ['order.created'], rate_limit: 5 });
    const publishedAt = Date.now();
    const published = await app
      .request()
      .post('/api/webhooks/events')
      .set(as(admin))
      .send({ events: Array.from({ length: 20 }, (_, n) => ({ type: 'order.created', payload: order(n) })) });
    expect(published.status).toBe(202);

    // Part-way through, the rest are waiting: pending, not failed, not counted.
    await waitForPosts(receiver, 6, onPath('/paced'), 10_000);
    const meanwhile = await app
      .request()
      .get(`/api/webhooks/subscriptions/${created.id}/deliveries?limit=100&status=pending`)
      .set(as(alice));
    expect(meanwhile.body.meta.total).toBeGreaterThan(5);
    expect(meanwhile.body.data.every((delivery: { attempts: number }) => delivery.attempts === 0)).toBe(true);

    const received = await waitForPosts(receiver, 20, onPath('/paced'), 20_000);
    expect(new Set(received.map((request) => request.headers['webhook-id'])).size).toBe(20);
    // 20 deliveries at 5 a second: the n-th slot opens n × 200 ms after the first, which opens no earlier
    // than the publish, and no delivery leaves before its slot. So however a loaded machine delays some
    // sends (a busy second of a bunched backlog was seen in CI), none arrives ahead of that schedule (a
    // few ms allowed for rounding between Redis's clock and the process's). Let out together, the last
    // would arrive about 3.8 s ahead of it.
    expect(aheadOfSchedule(received, publishedAt, 200)).toBeLessThanOrEqual(25);

    const subscription = await eventually(
      async () => {
        const response = await app
          .request()
          .get(`/api/webhooks/subscriptions/${created.id}/deliveries?limit=100&status=succeeded`)
          .set(as(alice));
        return response.body.meta.total === 21 ? response : undefined;
      },
      10_000,
      'every delivery succeeded'
    );
    expect(subscription.body.data.every((delivery: { attempts: number }) => delivery.attempts === 1)).toBe(true);
    expect((await app.request().get(`/api/webhooks/subscriptions/${created.id}`).set(as(alice))).body.failure_count).toBe(0);

    // Lifting the limit lets the next lot through at once.
    expect((await app.request().patch(`/api/webhooks/subscriptions/${created.id}`).set(as(alice)).send({ rate_limit: null })).status).toBe(
      200
    );
    const before = posts(receiver).filter(onPath('/paced')).length;
    await app
      .request()
      .post('/api/webhooks/events')
      .set(as(admin))
      .send({ events: Array.from({ length: 20 }, (_, n) => ({ type: 'order.created', payload: order(20 + n) })) });
    const unthrottled = (await waitForPosts(receiver, before + 20, onPath('/paced'), 10_000)).slice(before);
    // Still held to 5 a second, they would take at least 3.8 s; let out, they take a fraction of one
    // (a loaded CI machine spread them over more than a second once, so the bound is the limit's).
    const times = unthrottled.map((request) => request.receivedAt);
    expect(Math.max(...times) - Math.min(...times)).toBeLessThan(3_000);
  }, 60_000);
});
