import type { Response } from 'supertest';
import { startApp, type TestApp } from '../../helpers/app';
import { createPlan, issueKey, type IssuedKey } from '../../helpers/keys';
import { startOwnRedis, type OwnRedis } from '../../helpers/own-services';
import { startReceiver, type Receiver } from '../../helpers/receiver';
import { administratorOf, registerUser } from '../../helpers/users';
import { eventOf, orderData, posts, subscribe } from '../../helpers/webhooks';
import { eventually, timePasses } from '../../helpers/wait';
import { UIDS } from '../../../src/plugins/api-suite/server/src/constants';

/**
 * Redis lost mid-burst and back empty (docs/operations.md#when-redis-or-the-database-goes-away),
 * as an operator would meet it: the app runs on this run's database with a Redis of its own
 * (`redis-server` without persistence), which is killed with SIGKILL while events are published
 * and keys used, and started again empty 6 s later. Every event answered 202 must arrive, no
 * answer may be a 500, and the API keeps answering meanwhile: 503 only where a shared counter it
 * never read would have to be guessed. The time from Redis's return to the last delivery is printed.
 *
 * The receiver answers slowly until Redis is back (100 ms, fast enough not to be held to its fair
 * share), so that deliveries are waiting in Redis's queue when it goes: only the database still
 * knows them afterwards.
 */
let redis: OwnRedis;
let app: TestApp;
let receiver: Receiver;
const OUTAGE_MS = 6_000;
const BATCH = 10;
/** Between batches: at most 50 events a second, so that the backlog stays a few seconds' delivering. */
const PUBLISH_EVERY_MS = 200;

beforeAll(async () => {
  redis = await startOwnRedis();
  // Three requests at once, each answered in 100 ms: about 30 deliveries a second, below the rate of publishing.
  receiver = await startReceiver(() => ({ status: 200, delayMs: 100 }));
  app = await startApp({ env: { REDIS_URL: redis.url, WEBHOOK_CONCURRENCY: '3' } });
}, 120_000);

afterAll(async () => {
  await app?.close();
  await receiver?.close();
  await redis?.close();
});

interface Answer {
  what: 'publish' | 'key';
  status: number;
  at: number;
  body: unknown;
}

it('delivers every event answered 202 and answers no 500 while Redis is lost mid-burst and comes back empty', async () => {
  const admin = await administratorOf(app);
  await subscribe(app, admin, { endpoint_url: `${receiver.url}/orders`, events: ['order.created'] });
  await createPlan(app, { name: 'metered', requests_per_month: 1_000_000, requests_per_minute: 100_000, endpoints: ['* *'] });
  const consumer = await registerUser(app, { plan: 'metered' });
  const consumerKey = await issueKey(app, consumer);
  // Makes no request on the plan before Redis goes (its key is issued while Redis is away): this
  // instance never read its month count, which only the lost Redis had.
  const stranger = await registerUser(app, { plan: 'metered' });
  // On a plan without a monthly quota: nothing to guess.
  const unmetered = await registerUser(app, { plan: 'enterprise' });
  const unmeteredKey = await issueKey(app, unmetered);
  // Revokes a key while Redis is away: the key is cached by then.
  const leaving = await registerUser(app, { plan: 'metered' });
  const leavingKey = await issueKey(app, leaving);
  expect((await callWith(consumerKey)).status).toBe(200);
  expect((await callWith(leavingKey)).status).toBe(200);

  const answers: Answer[] = [];
  const accepted = new Set<string>();
  let stopped = false;
  let sequence = 0;
  const record = (what: Answer['what'], response: Response) =>
    answers.push({ what, status: response.status, at: Date.now(), body: response.body as unknown });
  const publisher = async () => {
    while (!stopped) {
      const ids = Array.from({ length: BATCH }, () => `r${(sequence += 1)}`);
      const response = await app
        .request()
        .post('/api/webhooks/events')
        .set('Authorization', `Bearer ${admin.jwt}`)
        .send({ events: ids.map((id) => ({ type: 'order.created', payload: orderData(id) })) });
      record('publish', response);
      if (response.status === 202) for (const id of ids) accepted.add(id);
      await new Promise((resolve) => setTimeout(resolve, PUBLISH_EVERY_MS));
    }
  };
  const caller = async () => {
    while (!stopped) {
      record('key', await callWith(consumerKey));
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  };
  const burst = Promise.all([publisher(), caller()]);

  // The burst is under way, with deliveries waiting behind the slow receiver, when Redis goes.
  await timePasses(1_500); // a second and a half of burst before the fault
  const deliveries = app.strapi.db.metadata.get(UIDS.webhookDelivery as never).tableName;
  const pendingAtKill = Number(
    ((await app.strapi.db.connection(deliveries).whereIn('status', ['pending', 'retrying']).count({ n: '*' })) as Array<{ n: unknown }>)[0]
      .n
  );
  expect(pendingAtKill).toBeGreaterThan(0);
  await redis.kill();
  const killedAt = Date.now();

  // While it is away: readiness names it, and each use of Redis answers as docs/operations.md says.
  const ready = await eventually(
    async () => {
      const response = await app.request().get('/_ready');
      return response.status === 503 ? response : undefined;
    },
    5_000,
    '/_ready to say Redis is down'
  );
  expect(ready.body).toEqual({ status: 'unavailable', database: 'up', redis: 'down' });
  // The consumer's own account answers (not counted): a key is issued.
  const strangerKey = await issueKey(app, stranger);
  await eventually(
    async () => ((await callWith(strangerKey)).status === 503 ? true : undefined),
    5_000,
    'a pool never read refused while Redis is away'
  );
  const refused = await callWith(strangerKey);
  expect(refused.status).toBe(503);
  expect(refused.headers['retry-after']).toBe('5');
  expect(refused.body).toEqual({
    error: { code: 'dependency_unavailable', message: 'A shared counter is unavailable for a moment (Redis): try again shortly' },
  });
  const free = await callWith(unmeteredKey);
  expect(free.status).toBe(200);
  expect(free.headers['x-ratelimit-monthly-limit']).toBe('unlimited');
  const revoked = await app.request().delete(`/api/v1/keys/${leavingKey.id}`).set('Authorization', `Bearer ${leaving.jwt}`);
  expect(revoked.status).toBe(204);
  // Refused at once, although the revocation could not be broadcast (instances that cannot hear of one read keys from the database).
  const afterRevoke = await callWith(leavingKey);
  expect(afterRevoke.status).toBe(403);
  expect(afterRevoke.body.error.code).toBe('key_revoked');

  await timePasses(Math.max(0, OUTAGE_MS - (Date.now() - killedAt))); // the outage lasts its 6 s
  const acceptedWhileAway = accepted.size;
  await redis.start();
  const backAt = Date.now();
  receiver.setReply(() => ({ status: 200 }));
  await timePasses(1_000); // the burst goes on for a second once Redis is back
  stopped = true;
  await burst;

  const received = () => new Set(posts(receiver).map((request) => String(eventOf(request).data.id)));
  await eventually(
    () => ([...accepted].every((id) => received().has(id)) ? true : undefined),
    90_000,
    () => `every accepted event delivered (${[...accepted].filter((id) => !received().has(id)).length} of ${accepted.size} missing)`
  );
  const firstArrival = new Map<string, number>();
  for (const request of posts(receiver)) {
    const id = String(eventOf(request).data.id);
    if (!firstArrival.has(id)) firstArrival.set(id, request.receivedAt);
  }
  const lastDelivery = Math.max(...[...accepted].map((id) => firstArrival.get(id) as number));

  // No answer was a 500; every publish was accepted, during the outage too; the consumer was served throughout.
  expect(answers.filter((answer) => answer.status >= 500)).toEqual([]);
  const publishes = answers.filter((answer) => answer.what === 'publish');
  expect(publishes.every((answer) => answer.status === 202)).toBe(true);
  const keyCalls = answers.filter((answer) => answer.what === 'key');
  expect(keyCalls.every((answer) => answer.status === 200)).toBe(true);
  const during = (answer: Answer) => answer.at > killedAt && answer.at < backAt;
  expect(publishes.filter(during).length).toBeGreaterThan(10);
  expect(keyCalls.filter(during).length).toBeGreaterThan(10);

  // Once it is back: ready again, the stranger's pool is read again, and the month Redis holds counts what was served while it was away.
  await eventually(async () => ((await app.request().get('/_ready')).status === 200 ? true : undefined), 10_000, '/_ready 200 again');
  expect((await callWith(strangerKey)).status).toBe(200);
  const usage = await app.request().get('/api/v1/usage').set('Authorization', `Bearer ${consumer.jwt}`);
  expect(usage.status).toBe(200);
  expect(usage.body.data.month.used).toBeGreaterThanOrEqual(keyCalls.filter(during).length);

  const perSecond = (from: number, to: number) =>
    Math.round((publishes.filter((answer) => answer.at > from && answer.at <= to).length * BATCH * 1000) / Math.max(1, to - from));
  console.info(
    `redis lost: ${pendingAtKill} deliveries pending when Redis was killed; ${accepted.size} events accepted (${acceptedWhileAway} by its return), ` +
      `${perSecond(killedAt - 1_500, killedAt)} events/s accepted before the fault, ${perSecond(killedAt, backAt)} during it; ` +
      `${keyCalls.filter(during).length} key requests served while away; last delivery ${lastDelivery - backAt} ms after Redis came back`
  );
}, 180_000);

async function callWith(key: IssuedKey): Promise<Response> {
  return app.request().get('/api/v1/articles?limit=1').set('X-API-Key', key.key);
}
