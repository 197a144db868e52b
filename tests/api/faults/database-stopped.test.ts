import type { Response } from 'supertest';
import { startApp, type TestApp } from '../../helpers/app';
import { createPlan, issueKey, type IssuedKey } from '../../helpers/keys';
import { startOwnPostgres, type OwnPostgres } from '../../helpers/own-services';
import { startReceiver, type Receiver } from '../../helpers/receiver';
import { redisUrl } from '../../helpers/services';
import { administratorOf, registerUser } from '../../helpers/users';
import { eventOf, orderData, posts, subscribe } from '../../helpers/webhooks';
import { eventually, timePasses } from '../../helpers/wait';
import { UIDS } from '../../../src/plugins/api-suite/server/src/constants';

/**
 * PostgreSQL stopped for a few seconds mid-burst (docs/operations.md#when-redis-or-the-database-goes-away):
 * the app runs on a cluster of its own (`initdb`, `pg_ctl` on another port), stopped with
 * `pg_ctl stop -m fast` (open connections cut, new ones refused) while events are published and
 * keys used, and started again 4 s later. Requests that need it answer 503, never 500; every event
 * answered 202 arrives, and every key request answered has its usage record.
 */
let postgres: OwnPostgres;
let app: TestApp;
let receiver: Receiver;
const OUTAGE_MS = 4_000;
const BATCH = 20;

beforeAll(async () => {
  postgres = await startOwnPostgres();
  receiver = await startReceiver(() => ({ status: 200 }));
  app = await startApp({ postgres: postgres.url });
}, 120_000);

afterAll(async () => {
  await app?.close();
  await receiver?.close();
  await postgres?.close();
});

interface Answer {
  what: 'publish' | 'key';
  status: number;
  at: number;
  body: unknown;
  retryAfter?: string;
}

it('answers 503 rather than 500 while PostgreSQL is stopped, and loses nothing it accepted', async () => {
  const admin = await administratorOf(app);
  await subscribe(app, admin, { endpoint_url: `${receiver.url}/orders`, events: ['order.created'] });
  await createPlan(app, { name: 'metered', requests_per_month: 1_000_000, requests_per_minute: 100_000, endpoints: ['* *'] });
  const consumer = await registerUser(app, { plan: 'metered' });
  const key = await issueKey(app, consumer);
  expect((await callWith(key)).status).toBe(200);

  const answers: Answer[] = [];
  const accepted = new Set<string>();
  let stopped = false;
  let sequence = 0;
  const record = (what: Answer['what'], response: Response) =>
    answers.push({
      what,
      status: response.status,
      at: Date.now(),
      body: response.body as unknown,
      retryAfter: response.headers['retry-after'],
    });
  const publisher = async () => {
    while (!stopped) {
      const ids = Array.from({ length: BATCH }, () => `d${(sequence += 1)}`);
      const response = await app
        .request()
        .post('/api/webhooks/events')
        .set('Authorization', `Bearer ${admin.jwt}`)
        .send({ events: ids.map((id) => ({ type: 'order.created', payload: orderData(id) })) });
      record('publish', response);
      if (response.status === 202) for (const id of ids) accepted.add(id);
    }
  };
  const caller = async () => {
    while (!stopped) record('key', await callWith(key));
  };
  const burst = Promise.all([publisher(), caller()]);

  await timePasses(1_000); // a second of burst before the fault
  await postgres.stop();
  const stoppedAt = Date.now();
  const ready = await eventually(
    async () => {
      const response = await app.request().get('/_ready');
      return response.status === 503 ? response : undefined;
    },
    5_000,
    '/_ready to say the database is down'
  );
  expect(ready.body).toEqual({ status: 'unavailable', database: 'down', redis: redisUrl ? 'up' : 'not_configured' });
  await timePasses(Math.max(0, OUTAGE_MS - (Date.now() - stoppedAt))); // the outage lasts its 4 s
  await postgres.start();
  const backAt = Date.now();
  await timePasses(1_000); // the burst goes on for a second once it is back
  stopped = true;
  await burst;

  // No 500: what met the database away was told so, in its route's shape, with Retry-After.
  expect(answers.filter((answer) => answer.status >= 500 && answer.status !== 503)).toEqual([]);
  const refusals = answers.filter((answer) => answer.status === 503);
  expect(refusals.length).toBeGreaterThan(0);
  for (const refusal of refusals) {
    expect(refusal.retryAfter).toBe('5');
    expect(refusal.body).toEqual(
      refusal.what === 'publish'
        ? { error: 'The database is unavailable for a moment: try again shortly', code: 'dependency_unavailable' }
        : { error: { code: 'dependency_unavailable', message: 'The database is unavailable for a moment: try again shortly' } }
    );
  }
  expect(answers.every((answer) => answer.status === 503 || answer.status === (answer.what === 'publish' ? 202 : 200))).toBe(true);
  await eventually(async () => ((await app.request().get('/_ready')).status === 200 ? true : undefined), 10_000, '/_ready 200 again');

  // Every event answered 202 arrives.
  const received = () => new Set(posts(receiver).map((request) => String(eventOf(request).data.id)));
  await eventually(
    () => ([...accepted].every((id) => received().has(id)) ? true : undefined),
    30_000,
    () => `every accepted event delivered (${[...accepted].filter((id) => !received().has(id)).length} of ${accepted.size} missing)`
  );
  const lastDelivery = Math.max(
    ...posts(receiver)
      .filter((request) => accepted.has(String(eventOf(request).data.id)))
      .map((request) => request.receivedAt)
  );

  // Every key request answered has its usage record (the warm-up included), those made while the database was away too.
  const keyAnswers = answers.filter((answer) => answer.what === 'key');
  const usage = app.strapi.db.metadata.get(UIDS.usageRecord as never).tableName;
  const recorded = async () =>
    Number(((await app.strapi.db.connection(usage).where({ api_key_id: key.id }).count({ n: '*' })) as Array<{ n: unknown }>)[0].n);
  await eventually(
    async () => ((await recorded()) === keyAnswers.length + 1 ? true : undefined),
    10_000,
    () => `a usage record for each of the ${keyAnswers.length + 1} key requests`
  );

  const during = answers.filter((answer) => answer.at > stoppedAt && answer.at < backAt);
  console.info(
    `database stopped ${backAt - stoppedAt} ms: ${accepted.size} events accepted, ${refusals.length} answers 503 (${during.length} answers while it was down), ` +
      `last delivery ${lastDelivery - backAt} ms after it came back`
  );
}, 120_000);

async function callWith(key: IssuedKey): Promise<Response> {
  return app.request().get('/api/v1/articles?limit=1').set('X-API-Key', key.key);
}
