import { randomUUID } from 'node:crypto';
import { startApp, type TestApp } from '../../helpers/app';
import { issueKey, type IssuedKey } from '../../helpers/keys';
import { metricsOf, seriesValue } from '../../helpers/metrics';
import { startReceiver, type Receiver } from '../../helpers/receiver';
import { adminSession, administratorOf, registerUser, type TestUser } from '../../helpers/users';
import { orderData, subscribe } from '../../helpers/webhooks';
import { eventually } from '../../helpers/wait';
import { insertReturningId, insertRows, type Column } from '../../../src/plugins/api-suite/server/src/db';

/**
 * The retention purge with tiny limits (fractions of a day): what is older than its limit goes, in
 * batches, and nothing else: not a retrying delivery however old, not a record younger than its
 * limit, not the results of a scraper's newest runs, not overage billing has yet to report. Every
 * reader of usage answers the same totals before and after.
 */
const LIMIT_DAYS = 0.002; // 172.8 s
const OLD_MS = 10 * 60_000; // well past the limit
const RECENT_MS = 2 * 60_000; // just inside it

let app: TestApp;
let receiver: Receiver;
let failing: Receiver;
let alice: TestUser;
let admin: TestUser;
let aliceKey: IssuedKey;

const service = <T>(name: string) => app.strapi.plugin('api-suite').service(name) as T;
const knex = () => app.strapi.db.connection;
const ago = (ms: number) => new Date(Date.now() - ms);
const as = (user: TestUser) => ({ Authorization: `Bearer ${user.jwt}` });
const flush = () => service<{ flush(): Promise<void> }>('usage').flush();
const purge = () =>
  service<{ purge(): Promise<{ ran: boolean; interrupted: boolean; purged: Record<string, number> }> }>('retention').purge();
const count = async (table: string, where: (query: ReturnType<ReturnType<typeof knex>>) => unknown = () => undefined) => {
  const query = knex()(table);
  where(query);
  return Number(((await query.count({ n: '*' }).first()) as { n: unknown }).n);
};

beforeAll(async () => {
  receiver = await startReceiver(() => ({ status: 200 }));
  failing = await startReceiver(() => ({ status: 500 }));
  app = await startApp({
    env: {
      RETENTION_DELIVERIES_DAYS: String(LIMIT_DAYS),
      RETENTION_USAGE_DAYS: String(LIMIT_DAYS),
      RETENTION_STRIPE_EVENTS_DAYS: String(LIMIT_DAYS),
      RETENTION_SCRAPER_RUNS: '2',
      // The purge at boot finds nothing; the tests purge when they choose.
      RETENTION_PURGE_SECONDS: '86400',
      METRICS_TOKEN: 'retention-metrics-token',
      // A failed attempt is retried in an hour: the delivery stays `retrying` through the test.
      WEBHOOK_RETRY_SCHEDULE: '3600',
    },
  });
  alice = await registerUser(app, { plan: 'enterprise' });
  admin = await administratorOf(app);
  aliceKey = await issueKey(app, alice, { scopes: ['read', 'write'] });
}, 120_000);

afterAll(async () => {
  await app?.close();
  await receiver?.close();
  await failing?.close();
});

describe('webhook deliveries', () => {
  it('purges final deliveries and their attempts past the limit, and keeps retrying, recent and lately changed ones', async () => {
    const ok = await subscribe(app, alice, { endpoint_url: `${receiver.url}/ok`, events: ['order.updated'] });
    const broken = await subscribe(app, alice, { endpoint_url: `${failing.url}/broken`, events: ['order.created'] });
    // After the test event each subscription is sent once it is created.
    const firstId = await eventually(async () => {
      const stored = (await knex()('api_suite_webhook_deliveries').count({ n: '*' }).max({ id: 'id' }).first()) as {
        n: unknown;
        id: unknown;
      };
      return Number(stored.n) === 2 ? Number(stored.id) : undefined;
    });
    for (let i = 0; i < 4; i += 1) {
      const published = await app
        .request()
        .post('/api/webhooks/events')
        .set(as(admin))
        .send({ type: 'order.updated', payload: orderData(`u${i}`) });
      expect(published.status).toBe(202);
    }
    const created = await app
      .request()
      .post('/api/webhooks/events')
      .set(as(admin))
      .send({ type: 'order.created', payload: orderData('c1') });
    expect(created.status).toBe(202);

    const deliveries = 'api_suite_webhook_deliveries';
    const subscriptionIdOf = async (uuid: string) =>
      Number(((await knex()('api_suite_webhook_subscriptions').where({ uuid }).first('id')) as { id: number }).id);
    const okId = await subscriptionIdOf(ok.id);
    const brokenId = await subscriptionIdOf(broken.id);
    let last: Array<{ subscription_id: number; status: string }> = [];
    const rows = await eventually(
      async () => {
        // Not the test event each subscription was sent at its creation.
        const found = (await knex()(deliveries).whereIn('event_type', ['order.updated', 'order.created']).orderBy('id')) as Array<{
          id: number;
          uuid: string;
          subscription_id: number;
          status: string;
        }>;
        const done = found.filter((row) => row.subscription_id === okId && row.status === 'succeeded').length === 4;
        const retrying = found.some((row) => row.subscription_id === brokenId && row.status === 'retrying');
        last = found;
        return done && retrying ? found : undefined;
      },
      15_000,
      () => `4 succeeded and 1 retrying delivery (there are ${JSON.stringify(last.map((row) => [row.subscription_id, row.status]))})`
    );
    const [old1, old2, recent, changed] = rows.filter((row) => row.subscription_id === okId && row.id > firstId);
    const retrying = rows.find((row) => row.subscription_id === brokenId && row.id > firstId) as (typeof rows)[number];
    await knex()(deliveries)
      .whereIn('id', [old1.id, old2.id, retrying.id])
      .update({ created_at: ago(OLD_MS), updated_at: ago(OLD_MS) });
    await knex()(deliveries)
      .where({ id: recent.id })
      .update({ created_at: ago(RECENT_MS), updated_at: ago(RECENT_MS) });
    // Created long ago, settled a moment ago (a failed delivery recovered and sent again, say): its limit counts from the change.
    await knex()(deliveries)
      .where({ id: changed.id })
      .update({ created_at: ago(OLD_MS) });
    const attemptsOf = (uuid: string) => count('api_suite_webhook_attempts', (query) => query.where({ delivery_uuid: uuid }));
    expect(await attemptsOf(old1.uuid)).toBe(1);
    expect(await attemptsOf(retrying.uuid)).toBe(1);

    const summary = await purge();
    expect(summary.ran).toBe(true);
    expect(summary.purged.webhook_deliveries).toBe(2);
    expect(summary.purged.webhook_attempts).toBe(2);
    // The test events sent at creation are recent: they stay, and are left out here.
    const left = (await knex()(deliveries).where('id', '>', firstId).orderBy('id')) as Array<{
      id: number;
      status: string;
    }>;
    expect(left.map((row) => [row.id, row.status])).toEqual(
      [
        [recent.id, 'succeeded'],
        [changed.id, 'succeeded'],
        [retrying.id, 'retrying'],
      ].sort((a, b) => Number(a[0]) - Number(b[0]))
    );
    expect([await attemptsOf(old1.uuid), await attemptsOf(old2.uuid)]).toEqual([0, 0]);
    expect([await attemptsOf(recent.uuid), await attemptsOf(changed.uuid), await attemptsOf(retrying.uuid)]).toEqual([1, 1, 1]);

    // The API answers for what is left (with the test event sent at creation, which is recent).
    const listed = await app.request().get(`/api/webhooks/subscriptions/${ok.id}/deliveries`).set(as(alice));
    expect(listed.status).toBe(200);
    expect(listed.body.data).toHaveLength(3);
  }, 60_000);
});

describe('usage', () => {
  const usage = 'api_suite_usage_records';
  const rollups = 'api_suite_usage_rollups';
  let carol: TestUser;
  let dave: TestUser;
  let carolKey: IssuedKey;

  /** Every reader of usage, as each one's caller sees it. */
  const readers = async () => {
    const session = await adminSession(app);
    const minuteFrom = ago(3_600_000).toISOString();
    const [report, byKey, byMinute, adminPanel, adminPanelKey, stream, adminMonth, overage] = await Promise.all([
      app.request().get('/api/v1/usage').query({ granularity: 'hour' }).set(as(alice)),
      app.request().get('/api/v1/usage').query({ key_id: aliceKey.id, granularity: 'day' }).set(as(alice)),
      app.request().get('/api/v1/usage').query({ from: minuteFrom, granularity: 'minute' }).set(as(alice)),
      app.request().get('/api-suite/access/usage').set('Authorization', `Bearer ${session.token}`),
      app.request().get(`/api-suite/access/usage?key_id=${aliceKey.id}`).set('Authorization', `Bearer ${session.token}`),
      firstStreamEvent(`${app.url}/api/v1/usage/stream?granularity=day`, alice.jwt),
      app.request().get('/api/v1/usage').set(as(admin)),
      service<{ overageOf(consumerId: string, row: unknown): Promise<{ requests_this_period: number }> }>('billing-metering').overageOf(
        carol.consumer_id,
        { user_id: carol.id, current_period_start: ago(86_400_000) }
      ),
    ]);
    for (const response of [report, byKey, byMinute, adminPanel, adminPanelKey, adminMonth]) expect(response.status).toBe(200);
    const sum = (series: Array<{ count: number }>) => series.reduce((total, point) => total + point.count, 0);
    const shape = (data: { total: number; by_status: Record<string, number>; series: Array<{ count: number }> }) => ({
      total: data.total,
      by_status: data.by_status,
      series_sum: sum(data.series),
    });
    return {
      report: shape(report.body.data),
      byKey: shape(byKey.body.data),
      byMinute: shape(byMinute.body.data),
      adminPanel: shape(adminPanel.body.data),
      adminPanelKey: shape(adminPanelKey.body.data),
      stream: shape(stream),
      adminMonth: adminMonth.body.data.month,
      overage: overage.requests_this_period,
    };
  };

  beforeAll(async () => {
    carol = await registerUser(app, { plan: 'enterprise' });
    dave = await registerUser(app, { plan: 'enterprise' });
    carolKey = await issueKey(app, carol);
    for (let i = 0; i < 5; i += 1) await app.request().get('/api/v1/articles').set('X-API-Key', aliceKey.key).expect(200);
    await app
      .request()
      .post('/api/v1/keys')
      .set('X-API-Key', aliceKey.key)
      .send({ scopes: ['nope'] })
      .expect(400);
    await app.request().get('/api/v1/articles').set(as(alice)).expect(200);
    // An administrator's own month counts the requests of their keys.
    const adminKey = await issueKey(app, admin);
    await app.request().get('/api/v1/articles').set('X-API-Key', adminKey.key).expect(200);
    await flush();
    // All of those are old now, but for alice's request with her JWT: recent.
    await knex()(usage).update({ created_at: ago(OLD_MS) });
    await knex()(usage)
      .where({ user_id: alice.id })
      .whereNull('api_key_id')
      .update({ created_at: ago(RECENT_MS) });

    // Overage: carol's subscription is live and billing reported her first two records; dave has none live.
    const overage = (user: TestUser, key: IssuedKey | null) => ({
      user_id: user.id,
      api_key_id: key?.id ?? null,
      endpoint: '/api/v1/articles',
      method: 'GET',
      status_code: 200,
      response_ms: 3,
      overage: true,
      created_at: ago(OLD_MS),
    });
    await knex()(usage).insert([1, 2, 3, 4].map(() => overage(carol, carolKey)));
    await knex()(usage).insert([1, 2].map(() => overage(dave, null)));
    const carolIds = ((await knex()(usage).where({ user_id: carol.id }).orderBy('id').select('id')) as Array<{ id: number }>).map(
      (row) => row.id
    );
    await knex()('api_suite_billing_subscriptions').insert({
      consumer_id: carol.consumer_id,
      user_id: carol.id,
      stripe_customer_id: 'cus_retention',
      stripe_subscription_id: 'sub_retention',
      status: 'active',
      current_period_start: ago(86_400_000),
      created_at: new Date(),
    });
    await knex()('api_suite_billing_reports').insert({
      consumer_id: carol.consumer_id,
      stripe_customer_id: 'cus_retention',
      identifier: `api-suite-${carol.consumer_id}-${carolIds[1]}`,
      value: 2,
      up_to_usage_id: carolIds[1],
      status: 'sent',
      created_at: new Date(),
    });
  });

  it('rolls old records up before deleting them, and every reader answers the same totals', async () => {
    const before = await readers();
    const rawOf = (userId?: number) => count(usage, (query) => (userId === undefined ? query : query.where({ user_id: userId })));
    // Her subscriptions and the deliveries listed above were requests too (plan-governed routes, her JWT).
    const alices = await rawOf(alice.id);
    const statuses = (await knex()(usage)
      .where({ user_id: alice.id })
      .select('status_code')
      .count({ n: '*' })
      .groupBy('status_code')) as Array<{
      status_code: number;
      n: unknown;
    }>;
    expect(before.report).toEqual({
      total: alices,
      by_status: Object.fromEntries(statuses.map((row) => [String(row.status_code), Number(row.n)])),
      series_sum: alices,
    });
    expect(before.report.by_status['400']).toBe(1);
    expect(before.byKey).toEqual({ total: 6, by_status: { 200: 5, 400: 1 }, series_sum: 6 });
    expect(before.byMinute).toEqual(before.report);
    expect(before.stream).toEqual(before.report);
    expect(before.adminPanelKey).toEqual(before.byKey);
    expect(before.adminPanel.total).toBe(await rawOf());
    expect(before.adminMonth.used).toBe(await rawOf(admin.id));
    expect(before.adminMonth.used).toBeGreaterThan(0);
    expect(before.overage).toBe(4);
    const raw = await rawOf();
    const recent = alices - 6;

    const summary = await purge();
    expect(summary.ran).toBe(true);
    // Everything old but carol's two unreported overage records; alice's recent ones stay too.
    expect(summary.purged.usage_records).toBe(raw - recent - 2);
    expect(await rawOf()).toBe(recent + 2);
    const carolLeft = (await knex()(usage).where({ user_id: carol.id }).orderBy('id')) as Array<{ overage: unknown }>;
    expect(carolLeft).toHaveLength(2);
    const rolled = (await knex()(rollups).sum({ n: 'requests' }).first()) as { n: unknown };
    expect(Number(rolled.n)).toBe(raw - recent - 2);

    expect(await readers()).toEqual(before);
  });

  it('keeps rollups per day, consumer, key, route, method and status, with overage counted', async () => {
    const rows = (await knex()(rollups)
      .where({ user_id: alice.id, api_key_id: aliceKey.id })
      .orderBy(['endpoint', 'status_code'])) as Array<{
      day: unknown;
      api_key_id: number;
      endpoint: string;
      method: string;
      status_code: number;
      requests: unknown;
      overage: unknown;
    }>;
    const dayOf = (value: unknown) =>
      new Date(typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : (value as string)).toISOString();
    const oldDay = new Date(Math.floor((Date.now() - OLD_MS) / 86_400_000) * 86_400_000).toISOString();
    const shape = (row: (typeof rows)[number]) => [
      dayOf(row.day),
      row.api_key_id,
      row.method,
      row.endpoint,
      row.status_code,
      Number(row.requests),
      Number(row.overage),
    ];
    expect(rows.map(shape)).toEqual([
      [oldDay, aliceKey.id, 'GET', '/api/v1/articles', 200, 5, 0],
      [oldDay, aliceKey.id, 'POST', '/api/v1/keys', 400, 1, 0],
    ]);
    const others = (await knex()(rollups).whereIn('user_id', [carol.id, dave.id]).orderBy('user_id')) as typeof rows;
    // Carol's two reported overage records (the two she has yet to be billed for stay raw); dave's, made with his JWT (key 0).
    expect(others.map(shape)).toEqual([
      [oldDay, carolKey.id, 'GET', '/api/v1/articles', 200, 2, 2],
      [oldDay, 0, 'GET', '/api/v1/articles', 200, 2, 2],
    ]);
  });

  it('adds to the same rollup when a later purge meets more of its day', async () => {
    const before = (await knex()(rollups).where({ user_id: alice.id, api_key_id: aliceKey.id, status_code: 200 }).first()) as {
      id: number;
      requests: unknown;
    };
    await app.request().get('/api/v1/articles').set('X-API-Key', aliceKey.key).expect(200);
    await flush();
    // Time passes: alice's recent records and the new one are past the limit too (in the order they were written).
    await knex()(usage)
      .where({ user_id: alice.id })
      .update({ created_at: ago(OLD_MS) });
    const reports = await readers();
    await purge();
    const after = (await knex()(rollups).where({ user_id: alice.id, api_key_id: aliceKey.id, status_code: 200 })) as Array<{
      id: number;
      requests: unknown;
    }>;
    expect(after).toEqual([{ ...after[0], id: before.id, requests: expect.anything() }]);
    expect(Number(after[0].requests)).toBe(Number(before.requests) + 1);
    expect(await readers()).toEqual(reports);
  });
});

describe('scraper results', () => {
  it('keeps the results of the newest completed runs (and of runs not ended) and purges older ones, runs kept', async () => {
    const now = new Date();
    const client = app.strapi.db.dialect.client as string;
    const scraper = (name: string) =>
      insertReturningId(knex(), client, 'api_suite_scrapers', {
        document_id: randomUUID(),
        consumer_id: alice.consumer_id,
        name,
        url: 'https://example.com/',
        status: 'idle',
        created_at: now,
        updated_at: now,
        published_at: now,
      });
    const run = async (scraperId: number, status: string) => {
      const id = await insertReturningId(knex(), client, 'api_suite_scraper_runs', {
        document_id: randomUUID(),
        scraper_id: scraperId,
        status,
        trigger: 'manual',
        created_at: now,
        updated_at: now,
        published_at: now,
      });
      await knex()('api_suite_scraper_results').insert(
        [1, 2, 3].map((item) => ({
          document_id: randomUUID(),
          scraper_id: scraperId,
          run_id: id,
          url: `https://example.com/${item}`,
          data: '{}',
          created_at: now,
          updated_at: now,
          published_at: now,
        }))
      );
      return id;
    };
    const busy = await scraper('busy');
    const statuses = ['completed', 'failed', 'completed', 'completed', 'completed', 'running'];
    const runs: number[] = [];
    for (const status of statuses) runs.push(await run(busy, status));
    const young = await scraper('young');
    const youngRuns = [await run(young, 'completed'), await run(young, 'completed')];

    const summary = await purge();
    expect(summary.purged.scraper_results).toBe(9);
    const resultsOf = async (runId: number) => count('api_suite_scraper_results', (query) => query.where({ run_id: runId }));
    // Kept: the 2nd newest completed run (runs[3]) and everything after it.
    expect(await Promise.all(runs.map(resultsOf))).toEqual([0, 0, 0, 3, 3, 3]);
    expect(await Promise.all(youngRuns.map(resultsOf))).toEqual([3, 3]);
    expect(await count('api_suite_scraper_runs', (query) => query.whereIn('scraper_id', [busy, young]))).toBe(8);
  });
});

describe('the Stripe event ledger', () => {
  it('forgets events applied longer ago than its limit, and only those', async () => {
    const event = (at: Date) => ({
      document_id: randomUUID(),
      event_id: `evt_${randomUUID()}`,
      event_type: 'checkout.session.completed',
      created_at: at,
      updated_at: at,
      published_at: at,
    });
    await knex()('api_suite_stripe_events').insert([event(ago(OLD_MS)), event(ago(OLD_MS)), event(ago(RECENT_MS)), event(new Date())]);
    const summary = await purge();
    expect(summary.purged.stripe_events).toBe(2);
    expect(await count('api_suite_stripe_events')).toBe(2);
  });
});

describe('many rows', () => {
  it('purges them all in batches of at most 5,000, deliveries with their attempts, and counts them in the metric', async () => {
    const metricsBefore = await metricsOf(app);
    const client = app.strapi.db.dialect.client as string;
    const at = ago(OLD_MS);
    const usageColumns: Column[] = [
      { name: 'user_id', kind: 'integer' },
      { name: 'api_key_id', kind: 'integer' },
      { name: 'endpoint', kind: 'text' },
      { name: 'method', kind: 'text' },
      { name: 'status_code', kind: 'integer' },
      { name: 'response_ms', kind: 'integer' },
      { name: 'created_at', kind: 'timestamp' },
    ];
    const manyUsers = Array.from({ length: 12_001 }, (_, index) => ({
      user_id: alice.id,
      api_key_id: aliceKey.id,
      endpoint: index % 2 ? '/api/v1/articles' : '/api/v1/articles/:id',
      method: 'GET',
      status_code: index % 3 ? 200 : 429,
      response_ms: 2,
      created_at: at,
    }));
    await insertRows(knex(), client, 'api_suite_usage_records', usageColumns, manyUsers);
    const uuids = Array.from({ length: 6_000 }, () => randomUUID());
    await insertRows(
      knex(),
      client,
      'api_suite_webhook_deliveries',
      [
        { name: 'uuid', kind: 'text' },
        { name: 'subscription_id', kind: 'integer' },
        { name: 'event_type', kind: 'text' },
        { name: 'status', kind: 'text' },
        { name: 'attempts', kind: 'integer' },
        { name: 'created_at', kind: 'timestamp' },
        { name: 'updated_at', kind: 'timestamp' },
      ],
      uuids.map((uuid) => ({
        uuid,
        subscription_id: 999_999,
        event_type: 'order.updated',
        status: 'succeeded',
        attempts: 1,
        created_at: at,
        updated_at: at,
      }))
    );
    await insertRows(
      knex(),
      client,
      'api_suite_webhook_attempts',
      [
        { name: 'delivery_uuid', kind: 'text' },
        { name: 'attempt', kind: 'integer' },
        { name: 'status_code', kind: 'integer' },
        { name: 'created_at', kind: 'timestamp' },
      ],
      uuids.map((uuid) => ({ delivery_uuid: uuid, attempt: 1, status_code: 200, created_at: at }))
    );
    const reportBefore = await app.request().get('/api/v1/usage').query({ key_id: aliceKey.id, granularity: 'day' }).set(as(alice));
    const rawBefore = await count('api_suite_usage_records');

    const summary = await purge();
    expect(summary).toMatchObject({ ran: true, interrupted: false });
    // All of them; what stays is carol's overage, still to be reported.
    expect(summary.purged).toMatchObject({ usage_records: 12_001 });
    // The 6,000 made here (all gone: below), and a delivery an earlier test of this file left to age
    // past the window, which a loaded run purges here rather than in its own purge (6,001 seen in CI).
    expect(summary.purged.webhook_deliveries).toBeGreaterThanOrEqual(6_000);
    expect(summary.purged.webhook_deliveries).toBeLessThanOrEqual(6_005);
    expect(summary.purged.webhook_attempts).toBeGreaterThanOrEqual(6_000);
    expect(summary.purged.webhook_attempts).toBeLessThanOrEqual(6_010);
    expect(await count('api_suite_usage_records')).toBe(2);
    expect(rawBefore).toBe(12_003);
    expect(await count('api_suite_webhook_deliveries', (query) => query.where({ subscription_id: 999_999 }))).toBe(0);
    expect(await count('api_suite_webhook_attempts', (query) => query.whereIn('delivery_uuid', uuids.slice(0, 500)))).toBe(0);
    const reportAfter = await app.request().get('/api/v1/usage').query({ key_id: aliceKey.id, granularity: 'day' }).set(as(alice));
    expect(reportAfter.body.data.total).toBe(reportBefore.body.data.total);
    expect(reportAfter.body.data.by_status).toEqual(reportBefore.body.data.by_status);

    const metricsAfter = await metricsOf(app);
    const moved = (kind: string) =>
      seriesValue(metricsAfter, `api_suite_purged_rows_total{kind="${kind}"}`) -
      seriesValue(metricsBefore, `api_suite_purged_rows_total{kind="${kind}"}`);
    expect([
      moved('usage_records'),
      moved('webhook_deliveries'),
      moved('webhook_attempts'),
      moved('scraper_results'),
      moved('stripe_events'),
    ]).toEqual([12_001, 6_000, 6_000, 0, 0]);
    // The first purges of this file are counted too: the counter is the process's total.
    expect(seriesValue(metricsAfter, 'api_suite_purged_rows_total{kind="stripe_events"}')).toBe(2);
  }, 120_000);
});

describe('the account export', () => {
  const usage = 'api_suite_usage_records';
  type Month = { month: string; total: number; by_status: Record<string, number> };

  /** A consumer with four requests made with their key, all past the limit now. */
  const consumerWithOldUsage = async () => {
    const user = await registerUser(app, { plan: 'enterprise' });
    const key = await issueKey(app, user);
    for (let i = 0; i < 3; i += 1) await app.request().get('/api/v1/articles').set('X-API-Key', key.key).expect(200);
    await app.request().get('/api/v1/articles/not-a-number').set('X-API-Key', key.key);
    await flush();
    const at = ago(OLD_MS);
    await knex()(usage).where({ user_id: user.id }).update({ created_at: at });
    // What their records say, counted here: one month.
    const statuses = (await knex()(usage)
      .where({ user_id: user.id })
      .select('status_code')
      .count({ n: '*' })
      .groupBy('status_code')) as Array<{ status_code: number; n: unknown }>;
    const month: Month = { month: at.toISOString().slice(0, 7), total: 0, by_status: {} };
    for (const row of statuses) {
      month.by_status[String(row.status_code)] = Number(row.n);
      month.total += Number(row.n);
    }
    return { user, key, month };
  };
  const exported = async (user: TestUser) => {
    const response = await app.request().get('/api/v1/account/export').set(as(user));
    expect(response.status).toBe(200);
    return response.body.usage as Month[];
  };

  it('lists the same usage months after the purge has rolled the records up and deleted them', async () => {
    const { user, month } = await consumerWithOldUsage();
    expect(month.total).toBeGreaterThanOrEqual(4);
    expect(await exported(user)).toEqual([month]);

    expect((await purge()).ran).toBe(true);
    expect(await count(usage, (query) => query.where({ user_id: user.id }))).toBe(0);
    expect(await exported(user)).toEqual([month]);
  });

  it('counts the records a closing that stopped part-way detached under the consumer id, before the purge and after', async () => {
    const { user, key, month } = await consumerWithOldUsage();
    // The account still stands; last month's records were detached from it (and another former consumer's, not theirs).
    const now = new Date();
    const lastMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 15, 12));
    const detached = (consumerId: string, status: number) => ({
      user_id: null,
      consumer_id: consumerId,
      api_key_id: key.id,
      endpoint: '/api/v1/articles',
      method: 'GET',
      status_code: status,
      response_ms: 4,
      overage: false,
      created_at: lastMonth,
    });
    await knex()(usage).insert([detached(user.consumer_id, 200), detached(user.consumer_id, 429), detached('someone-else', 200)]);
    const detachedMonth: Month = { month: lastMonth.toISOString().slice(0, 7), total: 2, by_status: { 200: 1, 429: 1 } };
    // (In a month's first ten minutes, "ten minutes ago" was last month too.)
    const months =
      detachedMonth.month === month.month
        ? [
            {
              month: month.month,
              total: month.total + 2,
              by_status: { ...month.by_status, 200: (month.by_status['200'] ?? 0) + 1, 429: (month.by_status['429'] ?? 0) + 1 },
            },
          ]
        : [detachedMonth, month];
    expect(await exported(user)).toEqual(months);

    expect((await purge()).ran).toBe(true);
    expect(await count(usage, (query) => query.whereIn('consumer_id', [user.consumer_id, 'someone-else']))).toBe(0);
    // Rolled up under the consumer id, as they were kept raw.
    const rolled = (await knex()('api_suite_usage_rollups')
      .whereIn('consumer_id', [user.consumer_id, 'someone-else'])
      .select('user_id', 'consumer_id', 'status_code')
      .sum({ n: 'requests' })
      .groupBy('user_id', 'consumer_id', 'status_code')) as Array<{
      user_id: number;
      consumer_id: string;
      status_code: number;
      n: unknown;
    }>;
    const rolledUp = rolled.map((row) => [Number(row.user_id), row.consumer_id, Number(row.status_code), Number(row.n)]);
    expect(rolledUp.sort()).toEqual(
      [
        [0, user.consumer_id, 200, 1],
        [0, user.consumer_id, 429, 1],
        [0, 'someone-else', 200, 1],
      ].sort()
    );
    expect(await exported(user)).toEqual(months);
  });
});

/** The first `usage` event of a usage stream, read as a browser's EventSource would. */
async function firstStreamEvent(
  url: string,
  jwt: string
): Promise<{ total: number; by_status: Record<string, number>; series: Array<{ count: number }> }> {
  const controller = new AbortController();
  const response = await fetch(url, { headers: { Authorization: `Bearer ${jwt}` }, signal: controller.signal });
  if (response.status !== 200 || !response.body) throw new Error(`usage stream answered ${response.status}`);
  const reader = response.body.getReader();
  let text = '';
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`usage stream ended before its first event: ${text}`);
      text += Buffer.from(value).toString('utf8');
      const match = /event: usage\ndata: (.*)\n\n/.exec(text);
      if (match) return JSON.parse(match[1]) as { total: number; by_status: Record<string, number>; series: Array<{ count: number }> };
    }
  } finally {
    controller.abort();
  }
}
