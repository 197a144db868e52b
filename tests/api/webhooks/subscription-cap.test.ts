import { startApp, type TestApp } from '../../helpers/app';
import { startInstance } from '../../helpers/instance';
import { usingServer } from '../../helpers/services';
import { expectResponseToMatchSpec, useOpenApiDocument } from '../../helpers/openapi';
import { startReceiver, type Receiver } from '../../helpers/receiver';
import { makeAdministrator, registerUser, type TestUser } from '../../helpers/users';
import { UIDS } from '../../../src/plugins/api-suite/server/src/constants';
import type { OpenApiDocument } from '../../../src/plugins/api-suite/server/src/contract/openapi';

/**
 * The cap on each consumer's webhook subscriptions (docs/webhooks.md#creating-and-changing-a-subscription):
 * pro is capped at 3 here, any plan not named at 5 (WEBHOOK_MAX_SUBSCRIPTIONS), administrators
 * not at all; a create beyond the cap is 409 too_many_subscriptions and writes nothing, on both
 * creating routes and under concurrency.
 */
let app: TestApp;
let receiver: Receiver;
let alice: TestUser;
let bob: TestUser;
let admin: TestUser;

const PRO_CAP = 3;
const DEFAULT_CAP = 5;

beforeAll(async () => {
  app = await startApp({ env: { WEBHOOK_MAX_SUBSCRIPTIONS_BY_PLAN: `pro:${PRO_CAP}`, WEBHOOK_MAX_SUBSCRIPTIONS: String(DEFAULT_CAP) } });
  useOpenApiDocument((await app.request().get('/api/v1/openapi.json')).body as OpenApiDocument);
  receiver = await startReceiver();
  alice = await registerUser(app, { plan: 'pro' });
  bob = await registerUser(app, { plan: 'pro' });
  admin = await makeAdministrator(app, await registerUser(app));
});

afterAll(async () => {
  await app?.close();
  await receiver?.close();
});

const as = (user: TestUser) => ({ Authorization: `Bearer ${user.jwt}` });

const create = (user: TestUser, name: string) =>
  app
    .request()
    .post('/api/webhooks/subscriptions')
    .set(as(user))
    .send({ endpoint_url: `${receiver.url}/cap/${name}`, events: ['order.created', 'order.paid'] });

const tableOf = (uid: string) => app.strapi.db.metadata.get(uid as never).tableName;

/** The consumer's subscription rows, their topics, and the deliveries made to them (the test events). */
async function stored(user: TestUser): Promise<{ subscriptions: number; topics: number; deliveries: number }> {
  const knex = app.strapi.db.connection;
  const ids = knex(tableOf(UIDS.webhookSubscription)).select('id').where({ consumer_id: user.consumer_id });
  const count = async (query: ReturnType<typeof knex>) =>
    Number(((await query.count({ count: '*' })) as Array<{ count: number | string }>)[0].count);
  return {
    subscriptions: await count(knex(tableOf(UIDS.webhookSubscription)).where({ consumer_id: user.consumer_id })),
    topics: await count(knex(tableOf(UIDS.webhookTopic)).whereIn('subscription_id', ids)),
    deliveries: await count(knex(tableOf(UIDS.webhookDelivery)).whereIn('subscription_id', ids)),
  };
}

const refusal = (plan: string, limit: number, held = limit) => ({
  error: `The ${plan} plan allows ${limit} webhook subscriptions and you have ${held}: delete one you no longer need (DELETE /api/webhooks/subscriptions/{id}) or move to a plan that allows more`,
  code: 'too_many_subscriptions',
  limit,
});

describe('the cap of a consumer on the pro plan', () => {
  const ids: string[] = [];

  it(`creates ${PRO_CAP}, then refuses the next with 409 too_many_subscriptions and writes nothing`, async () => {
    for (let n = 1; n <= PRO_CAP; n += 1) {
      const response = await create(alice, `a${n}`);
      expect(response.status).toBe(201);
      ids.push(response.body.id as string);
    }
    expect(await stored(alice)).toEqual({ subscriptions: PRO_CAP, topics: PRO_CAP * 2, deliveries: PRO_CAP });

    const refused = await create(alice, 'a-over');
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual(refusal('pro', PRO_CAP));
    expectResponseToMatchSpec(refused, 'POST', '/api/webhooks/subscriptions');
    // No row, no topics, no test event.
    expect(await stored(alice)).toEqual({ subscriptions: PRO_CAP, topics: PRO_CAP * 2, deliveries: PRO_CAP });
    const rows = await app.strapi.db.connection(tableOf(UIDS.webhookSubscription)).where({ endpoint_url: `${receiver.url}/cap/a-over` });
    expect(rows).toEqual([]);
  });

  it("refuses on the scrapers' POST /api/v1/webhooks too, in the /api/v1 shape", async () => {
    const refused = await app
      .request()
      .post('/api/v1/webhooks')
      .set(as(alice))
      .send({ url: `${receiver.url}/cap/runs` });
    expect(refused.status).toBe(409);
    const { error, code, limit } = refusal('pro', PRO_CAP);
    expect(refused.body).toEqual({ error: { code, message: error, details: { limit } } });
    expectResponseToMatchSpec(refused, 'POST', '/api/v1/webhooks');
    expect((await stored(alice)).subscriptions).toBe(PRO_CAP);
  });

  it('counts paused subscriptions as well', async () => {
    const paused = await app.request().patch(`/api/webhooks/subscriptions/${ids[0]}`).set(as(alice)).send({ is_active: false });
    expect(paused.status).toBe(200);
    expect((await create(alice, 'a-paused')).status).toBe(409);
  });

  it('allows one more once one is deleted, and no more than that', async () => {
    expect((await app.request().delete(`/api/webhooks/subscriptions/${ids[1]}`).set(as(alice))).status).toBe(204);
    const again = await create(alice, 'a-again');
    expect(again.status).toBe(201);
    const over = await create(alice, 'a-over-again');
    expect(over.status).toBe(409);
    expect(over.body).toEqual(refusal('pro', PRO_CAP));
    expect((await stored(alice)).subscriptions).toBe(PRO_CAP);
  });

  it("leaves another consumer's subscriptions to their own cap", async () => {
    for (let n = 1; n <= PRO_CAP; n += 1) expect((await create(bob, `b${n}`)).status).toBe(201);
    expect((await create(bob, 'b-over')).body).toEqual(refusal('pro', PRO_CAP));
  });
});

describe('other plans and administrators', () => {
  it(`holds a plan the list does not name to WEBHOOK_MAX_SUBSCRIPTIONS (${DEFAULT_CAP})`, async () => {
    const carol = await registerUser(app, { plan: 'enterprise' });
    for (let n = 1; n <= DEFAULT_CAP; n += 1) expect((await create(carol, `c${n}`)).status).toBe(201);
    const refused = await create(carol, 'c-over');
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual(refusal('enterprise', DEFAULT_CAP));
  });

  it('does not cap administrators', async () => {
    for (let n = 1; n <= DEFAULT_CAP + 2; n += 1) expect((await create(admin, `admin${n}`)).status).toBe(201);
    expect((await stored(admin)).subscriptions).toBe(DEFAULT_CAP + 2);
  });
});

describe('under concurrency', () => {
  it('lets exactly the cap through of 20 creates sent at once by a fresh consumer', async () => {
    // What makes count-then-insert safe: PostgreSQL and MySQL take a per-consumer lock first
    // (db/locks.ts); SQLite has one connection, which a transaction holds until it ends (knex's pool for SQLite).
    if (!usingServer) expect(app.strapi.db.connection.client.pool?.max).toBe(1);
    const dave = await registerUser(app, { plan: 'pro' });
    const responses = await Promise.all(Array.from({ length: 20 }, (_, n) => create(dave, `d${n}`)));
    const statuses = responses.map((response) => response.status).sort();
    expect(statuses).toEqual([...Array(PRO_CAP).fill(201), ...Array(20 - PRO_CAP).fill(409)]);
    for (const response of responses.filter((candidate) => candidate.status === 409)) {
      expect(response.body).toEqual(refusal('pro', PRO_CAP));
    }
    expect(await stored(dave)).toEqual({ subscriptions: PRO_CAP, topics: PRO_CAP * 2, deliveries: PRO_CAP });
  });
});

describe('configuration', () => {
  it('refuses to boot with a WEBHOOK_MAX_SUBSCRIPTIONS_BY_PLAN it cannot read, saying why', async () => {
    // In a process of its own: Strapi is one per process.
    await expect(startInstance(app, { WEBHOOK_MAX_SUBSCRIPTIONS_BY_PLAN: 'pro=3' })).rejects.toThrow(
      'WEBHOOK_MAX_SUBSCRIPTIONS_BY_PLAN must read like "pro:25,enterprise:250" (a plan\'s name, a colon, a whole number); "pro=3" does not'
    );
  });
});
