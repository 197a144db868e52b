import { randomUUID } from 'node:crypto';
import { startApp, type TestApp } from '../../helpers/app';
import { startInstance, type Instance } from '../../helpers/instance';
import { metricsOf, seriesValue } from '../../helpers/metrics';
import { redisUrl } from '../../helpers/services';
import { eventually } from '../../helpers/wait';
import { insertRows } from '../../../src/plugins/api-suite/server/src/db';

/**
 * Two instances purging the same database at once: one purges at a time (a lease in Redis, else in
 * the database), so no batch is rolled up or counted twice: the rollups hold exactly the records
 * that were deleted, and the two processes' counters add up to the rows there were.
 */
const TOKEN = 'retention-instances-token';
const USAGE_ROWS = 30_000;
const DELIVERY_ROWS = 12_000;

let app: TestApp;
let other: Instance | undefined;

beforeAll(async () => {
  app = await startApp({
    env: { RETENTION_USAGE_DAYS: '0.001', RETENTION_DELIVERIES_DAYS: '0.001', RETENTION_PURGE_SECONDS: '86400', METRICS_TOKEN: TOKEN },
  });
}, 120_000);

afterAll(async () => {
  await other?.stop();
  await app?.close();
});

const purged = (exposition: string, kind: string) => seriesValue(exposition, `api_suite_purged_rows_total{kind="${kind}"}`);

it(`never purges a batch twice when two instances purge at once (${redisUrl ? 'lease in Redis' : 'lease in the database'})`, async () => {
  const knex = app.strapi.db.connection;
  const client = app.strapi.db.dialect.client as string;
  const old = new Date(Date.now() - 3_600_000);
  await insertRows(
    knex,
    client,
    'api_suite_usage_records',
    [
      { name: 'user_id', kind: 'integer' },
      { name: 'api_key_id', kind: 'integer' },
      { name: 'endpoint', kind: 'text' },
      { name: 'method', kind: 'text' },
      { name: 'status_code', kind: 'integer' },
      { name: 'response_ms', kind: 'integer' },
      { name: 'created_at', kind: 'timestamp' },
    ],
    Array.from({ length: USAGE_ROWS }, (_, index) => ({
      user_id: 1 + (index % 7),
      api_key_id: index % 5 ? 1 + (index % 11) : null,
      endpoint: `/api/v1/route-${index % 13}`,
      method: 'GET',
      status_code: index % 9 ? 200 : 429,
      response_ms: 1,
      created_at: old,
    }))
  );
  await insertRows(
    knex,
    client,
    'api_suite_webhook_deliveries',
    [
      { name: 'uuid', kind: 'text' },
      { name: 'subscription_id', kind: 'integer' },
      { name: 'status', kind: 'text' },
      { name: 'attempts', kind: 'integer' },
      { name: 'created_at', kind: 'timestamp' },
      { name: 'updated_at', kind: 'timestamp' },
    ],
    Array.from({ length: DELIVERY_ROWS }, () => ({
      uuid: randomUUID(),
      subscription_id: 1,
      status: 'failed',
      attempts: 0,
      created_at: old,
      updated_at: old,
    }))
  );

  // The other instance purges every second from its boot; this one purges as often as it can meanwhile.
  other = await startInstance(app, { RETENTION_PURGE_SECONDS: '1' });
  const summaries: Array<{ ran: boolean; purged: Record<string, number> }> = [];
  const service = app.strapi.plugin('api-suite').service('retention') as {
    purge(): Promise<{ ran: boolean; purged: Record<string, number> }>;
  };
  const left = async () => Number(((await knex('api_suite_usage_records').count({ n: '*' }).first()) as { n: unknown }).n);
  await eventually(
    async () => {
      summaries.push(await service.purge());
      return (await left()) === 0 &&
        Number(((await knex('api_suite_webhook_deliveries').count({ n: '*' }).first()) as { n: unknown }).n) === 0
        ? true
        : undefined;
    },
    90_000,
    'every old row purged'
  );

  const rolled = (await knex('api_suite_usage_rollups').sum({ n: 'requests' }).first()) as { n: unknown };
  expect(Number(rolled.n)).toBe(USAGE_ROWS);
  const byStatus = (await knex('api_suite_usage_rollups')
    .select('status_code')
    .sum({ n: 'requests' })
    .groupBy('status_code')
    .orderBy('status_code')) as Array<{
    status_code: number;
    n: unknown;
  }>;
  const tooMany = Array.from({ length: USAGE_ROWS }, (_, index) => index).filter((index) => index % 9 === 0).length;
  expect(byStatus.map((row) => [row.status_code, Number(row.n)])).toEqual([
    [200, USAGE_ROWS - tooMany],
    [429, tooMany],
  ]);

  const mine = await metricsOf(app);
  const theirs = await fetch(`${other.url}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}` } }).then((response) => response.text());
  expect(purged(mine, 'usage_records') + purged(theirs, 'usage_records')).toBe(USAGE_ROWS);
  expect(purged(mine, 'webhook_deliveries') + purged(theirs, 'webhook_deliveries')).toBe(DELIVERY_ROWS);
  // What this instance's purges say they did is what its counter holds.
  const said = summaries.filter((summary) => summary.ran).reduce((sum, summary) => sum + summary.purged.usage_records, 0);
  expect(said).toBe(purged(mine, 'usage_records'));
}, 180_000);
