import { randomUUID } from 'node:crypto';
import { startApp, type TestApp } from '../../helpers/app';
import { startInstance, type Instance } from '../../helpers/instance';
import { metricsOf, seriesValue } from '../../helpers/metrics';
import { redisUrl } from '../../helpers/services';
import { eventually } from '../../helpers/wait';
import { insertRows } from '../../../src/plugins/api-suite/server/src/db';

/**
 * Two instances purging the same database: one purges at a time (a lease in Redis, else in the
 * database). This one starts, is stopped after its first batch, and the other, purging at boot and
 * every second, carries on while this one starts again and tries as often as it can. No batch is
 * rolled up or counted twice: the rollups hold exactly the records there were, and the two
 * processes' counters add up to the rows there were.
 */
const TOKEN = 'retention-instances-token';
const USAGE_ROWS = 40_000;
const DELIVERY_ROWS = 20_000;

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
  // This instance's purge at boot (none had run yet) is over before the old rows are written.
  await eventually(async () => ((await knex('api_suite_retention_state').whereNotNull('last_finished_at').first()) ? true : undefined));
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

  type Summary = { ran: boolean; interrupted: boolean; purged: Record<string, number> };
  const service = app.strapi.plugin('api-suite').service('retention') as {
    purge(): Promise<Summary>;
    start(): void;
    stop(): Promise<void>;
  };
  const countOf = async (table: string) => Number(((await knex(table).count({ n: '*' }).first()) as { n: unknown }).n);
  const summaries: Summary[] = [];

  // This instance starts purging and is stopped (as when it shuts down) after its first batch: the rest is the other's to purge.
  const first = service.purge();
  while ((await countOf('api_suite_usage_records')) === USAGE_ROWS) await new Promise((resolve) => setImmediate(resolve));
  await service.stop();
  summaries.push(await first);
  expect(summaries[0]).toMatchObject({ ran: true, interrupted: true });
  expect(await countOf('api_suite_usage_records')).toBeGreaterThan(0);
  expect(await countOf('api_suite_webhook_deliveries')).toBe(DELIVERY_ROWS);

  // The other instance purges at boot (one is due: the last has not finished) and every second; this one
  // starts again and purges as often as it can meanwhile.
  other = await startInstance(app, { RETENTION_PURGE_SECONDS: '1' });
  const theirsNow = async () => {
    const text = await fetch(`${other?.url}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}` } }).then((response) =>
      response.text()
    );
    return purged(text, 'usage_records') + purged(text, 'webhook_deliveries');
  };
  await eventually(async () => ((await theirsNow()) > 0 ? true : undefined), 60_000, 'the other instance purging');
  service.start();
  await eventually(
    async () => {
      summaries.push(await service.purge());
      return (await countOf('api_suite_usage_records')) === 0 && (await countOf('api_suite_webhook_deliveries')) === 0 ? true : undefined;
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
  // Each purged some of it.
  expect(purged(mine, 'usage_records')).toBeGreaterThan(0);
  expect(purged(theirs, 'usage_records') + purged(theirs, 'webhook_deliveries')).toBeGreaterThan(0);
}, 180_000);
