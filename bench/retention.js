#!/usr/bin/env node
'use strict';
/**
 * bench/retention: the retention purge of 1,000,000 delivered webhooks (with their 1,000,000
 * attempts) and 1,000,000 usage records, its time, and what it does to deliveries being made
 * meanwhile by the same process.
 *
 * On PostgreSQL and Redis (BullMQ), like production:
 *   1. one boot makes the tables, an administrator and a subscription to a receiver (in its own
 *      process, verifying signatures); bulk SQL then writes the old rows (100 days old: past the
 *      default 30 and 90 days), and the sizes per row are read from PostgreSQL;
 *   2. the server starts with the default limits, purging every `--every` seconds, while this
 *      process holds the purge's lease (the Redis key the instances take), so the purge due at
 *      boot waits; events are published at `--rate` a second throughout;
 *   3. baseline: deliveries received per second over `--baseline` seconds, no purge;
 *   4. the lease is let go: the server's next look takes it and purges (its start and end are
 *      read from the purge's own record in the database); deliveries per second meanwhile;
 *   5. `--after` seconds more, then every accepted event must arrive, and the seeded usage, counted
 *      as the readers count it (raw records plus rollups), must give the same totals per consumer
 *      and status as before the purge (`totals_equal`).
 * Prints one JSON line; progress goes to stderr.
 *
 * Usage: node bench/retention.js [--rows 1000000] [--rate 1000] [--batch 50] [--baseline 20] [--after 10] [--every 5]
 * Needs PostgreSQL (BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/postgres; a fresh
 * database is created and dropped) and Redis (REDIS_URL, default redis://127.0.0.1:6379).
 */
const os = require('node:os');
const path = require('node:path');
const { Pool } = require('undici');
const { Redis } = require('ioredis');
const { benchEnv, compile, withStrapi, serve, forkHelper, progress, parseArgs, round, seedAdministrator } = require('./lib/app');
const { sql, freshPostgres, dropKeys } = require('./lib/services');

const args = parseArgs();
const rows = Number(args.rows ?? 1_000_000);
const rate = Number(args.rate ?? 1_000);
const batch = Number(args.batch ?? 50);
const baselineSeconds = Number(args.baseline ?? 20);
const afterSeconds = Number(args.after ?? 10);
const everySeconds = Number(args.every ?? 5);
const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const TYPE = 'order.created';
/** The seeded deliveries' subscription: none of the live ones, so they are told apart from the run's. */
const SEEDED_SUBSCRIPTION = 2_000_000_000;
const startLoad = os.loadavg()[0];

(async () => {
  progress('compiling the app');
  await compile();
  const database = await freshPostgres(adminUrl, 'bench_retention');
  const base = benchEnv('retention');
  const env = {
    ...base,
    DATABASE_CLIENT: 'postgres',
    DATABASE_URL: database.url,
    REDIS_URL: redisUrl,
    OUTBOUND_ALLOW_PRIVATE: 'true',
    SCRAPER_WORKER: 'false',
  };
  const helper = await forkHelper(path.join(__dirname, 'lib', 'webhook-receiver.js'));
  const receiverUrl = `http://127.0.0.1:${helper.port}`;
  const redis = new Redis(redisUrl);
  const leaseKey = `${env.JOBS_PREFIX}:retention:lease`;
  let server;
  try {
    progress('setting up: an administrator and a subscription');
    // Kept forever during setup, so the purge of this boot touches nothing.
    const setup = await withStrapi(
      { ...env, WEBHOOK_WORKER: 'false', RETENTION_DELIVERIES_DAYS: '0', RETENTION_USAGE_DAYS: '0', RETENTION_STRIPE_EVENTS_DAYS: '0' },
      async (strapi) => {
        const { consumerId, jwt } = await seedAdministrator(strapi);
        const created = await strapi
          .plugin('api-suite')
          .service('webhook-subscriptions')
          .create(consumerId, { endpoint_url: `${receiverUrl}/s/main`, events: [TYPE] });
        return { jwt, secret: created.secret };
      }
    );
    helper.send({ secrets: { main: setup.secret } });

    progress(`writing ${rows} old deliveries with one attempt each, and ${rows} old usage records, with bulk SQL`);
    const inserting = Date.now();
    await seed(database.url);
    const insertSeconds = (Date.now() - inserting) / 1000;
    const sizes = await sizesOf(database.url);
    progress(`written in ${insertSeconds.toFixed(1)} s; ${JSON.stringify(sizes)}`);
    const totalsBefore = await usageTotalsOf(database.url);

    // The purge due at boot waits behind this lease until the baseline is measured.
    await redis.set(leaseKey, 'bench', 'PX', 3_600_000);
    server = await serve({ ...env, RETENTION_PURGE_SECONDS: String(everySeconds) });
    const publisher = new Pool(server.url, { connections: 8, pipelining: 1 });
    const publish = (events) =>
      publisher
        .request({
          method: 'POST',
          path: '/api/webhooks/events',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${setup.jwt}` },
          body: JSON.stringify({ events }),
        })
        .then(async (response) => {
          const answer = await response.body.json();
          if (response.statusCode !== 202) throw new Error(`publish answered ${response.statusCode}: ${JSON.stringify(answer)}`);
          return answer.event_ids.length;
        });

    const load = loadAt(publish);
    const origin = Date.now();
    progress(`publishing ${rate} events/s; baseline for ${baselineSeconds} s (warm-up 5 s first)`);
    await sleep((5 + baselineSeconds) * 1000);
    const released = Date.now();
    await redis.del(leaseKey);
    progress('lease released: the server purges at its next look');
    const purge = await waitForPurge(database.url, released);
    progress(`purged in ${purge.seconds.toFixed(1)} s; ${afterSeconds} s more`);
    await sleep(afterSeconds * 1000);
    const accepted = await load.stop();
    const stopped = Date.now();
    const received = await settle(helper, accepted);

    const buckets = (await helper.ask({ bucketMs: 1000, origin })).buckets;
    const rateIn = (from, to) => {
      const first = Math.ceil((from - origin) / 1000);
      const last = Math.floor((to - origin) / 1000);
      const seconds = buckets.slice(first, last);
      return seconds.length === 0 ? null : seconds.reduce((sum, count) => sum + count, 0) / seconds.length;
    };
    const baseline = rateIn(origin + 5_000, released);
    const during = rateIn(purge.started, purge.finished);
    const left = await countsOf(database.url);
    const totalsAfter = await usageTotalsOf(database.url);
    const totalsEqual = JSON.stringify(totalsAfter) === JSON.stringify(totalsBefore);
    progress(`totals_equal: ${totalsEqual} (${totalsBefore.length} consumer and status pairs)`);
    const load1 = os.loadavg()[0];
    console.log(
      JSON.stringify({
        bench: 'retention',
        database: 'postgres',
        jobs: 'bullmq',
        cpus: os.cpus().length,
        load_average_1m_at_start: round(startLoad, 2),
        load_average_1m_at_end: round(load1, 2),
        seeded_deliveries: rows,
        seeded_attempts: rows,
        seeded_usage_records: rows,
        insert_seconds: round(insertSeconds),
        ...sizes,
        purge_seconds: round(purge.seconds),
        purged_rows: 3 * rows - (left.deliveries + left.attempts + left.usage),
        purged_rows_per_s: round((3 * rows - (left.deliveries + left.attempts + left.usage)) / purge.seconds, 0),
        left_seeded: left,
        rollup_rows: left.rollups,
        rollup_requests: left.rolledRequests,
        totals_equal: totalsEqual,
        publish_rate_events_per_s: rate,
        baseline_delivered_per_s: round(baseline),
        during_purge_delivered_per_s: round(during),
        during_over_baseline: baseline && during !== null ? round(during / baseline, 2) : null,
        after_purge_delivered_per_s: round(rateIn(purge.finished, stopped)),
        accepted_events: accepted,
        delivered_events: received.unique,
        lost: accepted - received.unique,
        duplicates: received.duplicates,
        live_delivery_row_bytes: await liveRowBytes(database.url),
      })
    );
    await publisher.close();
  } finally {
    await server?.stop();
    helper.kill();
    redis.disconnect();
    await dropKeys(redisUrl, `${env.JOBS_PREFIX}*`).catch(() => undefined);
    await database.drop();
  }
})().catch((error) => {
  console.error(error);
  process.exit(1);
});

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Publish `batch` events at a time, `rate` a second, until stopped; `stop` resolves with the
 * events accepted. A batch whose answer is late does not hold the next one back.
 */
function loadAt(publish) {
  const interval = (batch * 1000) / rate;
  const answers = [];
  let sent = 0;
  const timer = setInterval(() => {
    const events = Array.from({ length: batch }, (_, n) => ({
      type: TYPE,
      payload: { id: `bench-${sent + n}`, status: 'pending', total: n, created_at: new Date().toISOString() },
    }));
    sent += batch;
    answers.push(publish(events));
  }, interval);
  return {
    async stop() {
      clearInterval(timer);
      return (await Promise.all(answers)).reduce((sum, count) => sum + count, 0);
    },
  };
}

/** The old rows, written by PostgreSQL itself (generate_series), 100 days old. */
async function seed(url) {
  const old = "now() - interval '100 days'";
  await sql(
    url,
    `INSERT INTO api_suite_webhook_deliveries (uuid, subscription_id, event_id, event_type, payload, status, attempts, response_status, delivered_at, created_at, updated_at)
     SELECT gen_random_uuid()::text, ${SEEDED_SUBSCRIPTION}, gen_random_uuid()::text, '${TYPE}',
            json_build_object('id', 'order-' || g, 'status', 'paid', 'total', g % 1000, 'created_at', to_char(${old}, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))::jsonb,
            'succeeded', 1, 200, ${old} + g * interval '1 ms', ${old} + g * interval '1 ms', ${old} + g * interval '1 ms'
     FROM generate_series(1, ${rows}) AS g`
  );
  await sql(
    url,
    `INSERT INTO api_suite_webhook_attempts (delivery_uuid, attempt, at, status_code, duration_ms, response_body, created_at, updated_at)
     SELECT uuid, 1, created_at, 200, 12, '{"received":true}', created_at, created_at FROM api_suite_webhook_deliveries WHERE subscription_id = ${SEEDED_SUBSCRIPTION}`
  );
  // Spread over ten days, 50 consumers with 4 keys each, 6 routes, mostly 200.
  await sql(
    url,
    `INSERT INTO api_suite_usage_records (document_id, user_id, api_key_id, endpoint, method, status_code, response_ms, overage, created_at, updated_at, published_at)
     SELECT substr(md5(g::text), 1, 24), 1 + g % 50, 1 + g % 200,
            (ARRAY['/api/v1/articles', '/api/v1/articles/:id', '/api/v1/scrapers', '/api/v1/scrapers/:id/runs', '/api/webhooks/subscriptions', '/api/v1/keys'])[1 + (g / 7) % 6],
            CASE WHEN (g / 7) % 6 = 4 THEN 'POST' ELSE 'GET' END,
            CASE WHEN g % 23 = 0 THEN 429 WHEN g % 31 = 0 THEN 404 ELSE 200 END,
            g % 80, false,
            ${old} + g * interval '864 ms', ${old} + g * interval '864 ms', ${old} + g * interval '864 ms'
     FROM generate_series(1, ${rows}) AS g`
  );
  await sql(url, 'ANALYZE api_suite_webhook_deliveries, api_suite_webhook_attempts, api_suite_usage_records');
}

/** Bytes a row takes on disk, its share of the indexes included: the table's total size over its rows. */
async function sizesOf(url) {
  const sizeOf = async (table) => {
    const [row] = await sql(url, `SELECT pg_total_relation_size('${table}') AS bytes, (SELECT count(*) FROM ${table}) AS rows`);
    return Math.round(Number(row.bytes) / Math.max(1, Number(row.rows)));
  };
  return {
    bytes_per_delivery_row: await sizeOf('api_suite_webhook_deliveries'),
    bytes_per_attempt_row: await sizeOf('api_suite_webhook_attempts'),
    bytes_per_usage_record: await sizeOf('api_suite_usage_records'),
  };
}

/** The average stored size of the deliveries the engine wrote during the run (the tuple only, without indexes). */
async function liveRowBytes(url) {
  const [row] = await sql(
    url,
    `SELECT round(avg(pg_column_size(d.*))) AS delivery, (SELECT round(avg(pg_column_size(a.*))) FROM api_suite_webhook_attempts a
       WHERE a.delivery_uuid IN (SELECT uuid FROM api_suite_webhook_deliveries WHERE subscription_id <> ${SEEDED_SUBSCRIPTION} LIMIT 10000)) AS attempt
     FROM (SELECT * FROM api_suite_webhook_deliveries WHERE subscription_id <> ${SEEDED_SUBSCRIPTION} LIMIT 10000) d`
  );
  return { delivery: Number(row.delivery), attempt: Number(row.attempt) };
}

async function countsOf(url) {
  const [row] = await sql(
    url,
    `SELECT (SELECT count(*) FROM api_suite_webhook_deliveries WHERE subscription_id = ${SEEDED_SUBSCRIPTION}) AS deliveries,
            (SELECT count(*) FROM api_suite_webhook_attempts WHERE created_at < now() - interval '50 days') AS attempts,
            (SELECT count(*) FROM api_suite_usage_records WHERE created_at < now() - interval '50 days') AS usage,
            (SELECT count(*) FROM api_suite_usage_rollups) AS rollups,
            (SELECT coalesce(sum(requests), 0) FROM api_suite_usage_rollups) AS rolled`
  );
  return {
    deliveries: Number(row.deliveries),
    attempts: Number(row.attempts),
    usage: Number(row.usage),
    rollups: Number(row.rollups),
    rolledRequests: Number(row.rolled),
  };
}

/**
 * The seeded usage as every reader counts it (the raw records still kept plus the daily rollups
 * of those purged), per consumer and status: equal before and after the purge.
 */
async function usageTotalsOf(url) {
  const rows = await sql(
    url,
    `SELECT user_id, status_code, sum(requests)::bigint AS requests, sum(overage)::bigint AS overage FROM (
       SELECT user_id, status_code, count(*) AS requests, count(*) FILTER (WHERE overage) AS overage
         FROM api_suite_usage_records WHERE created_at < now() - interval '50 days' GROUP BY user_id, status_code
       UNION ALL
       SELECT user_id, status_code, sum(requests), sum(overage)
         FROM api_suite_usage_rollups WHERE day < now() - interval '50 days' GROUP BY user_id, status_code
     ) AS both_sides GROUP BY user_id, status_code ORDER BY user_id, status_code`
  );
  return rows.map((row) => [Number(row.user_id), Number(row.status_code), Number(row.requests), Number(row.overage)]);
}

/** The purge that starts after `released`, as its record in the database tells it: start, end, seconds. */
async function waitForPurge(url, released) {
  let started = 0;
  for (;;) {
    const [row] = await sql(url, "SELECT last_started_at, last_finished_at FROM api_suite_retention_state WHERE name = 'retention'");
    const start = row && row.last_started_at ? new Date(row.last_started_at).getTime() : 0;
    const finish = row && row.last_finished_at ? new Date(row.last_finished_at).getTime() : 0;
    // The first purge after the release; the next one starts `--every` seconds after it ends, well after this looks again.
    if (!started && start >= released) started = start;
    if (started && finish >= started) return { started, finished: finish, seconds: (finish - started) / 1000 };
    await sleep(250);
  }
}

/** Wait until the receiver holds `expected` distinct deliveries (or two minutes have passed). */
async function settle(helper, expected) {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const report = await helper.ask({});
    if (report.unique >= expected || Date.now() > deadline) return report;
    await sleep(250);
  }
}
