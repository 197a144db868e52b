#!/usr/bin/env node
'use strict';
/**
 * bench/webhooks-anchors: recover and the per-subscription throttle, on PostgreSQL with Redis.
 *
 *   1. recover: 10,000 failed deliveries of one subscription (written straight into the table, as
 *      an outage would have left them) are recovered with one POST; the figure is the time to
 *      its 202 (every delivery pending and queued), beside the baseline in the same run: the time
 *      to publish 10,000 fresh events to one subscription (10 batches of 1,000, which also write
 *      10,000 rows and queue them). Then the time until the receiver has every recovered one.
 *   2. throttle: a subscription limited to `--rate` deliveries a second (50) gets 3,000 events at
 *      once; two server processes (both workers, one Redis) deliver them. The receiver counts what
 *      arrives within `--window` seconds (20) of the first; the figure is that rate over the limit.
 *
 * The receiver runs in its own process and verifies every signature. Prints one JSON line.
 * Needs PostgreSQL (BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/postgres, where
 * a fresh database is made) and Redis (REDIS_URL, default redis://127.0.0.1:6379).
 * Usage: node bench/webhooks-anchors.js [--recover 10000] [--rate 50] [--window 20]
 */
const { randomUUID } = require('node:crypto');
const path = require('node:path');
const { benchEnv, compile, withStrapi, serve, forkHelper, progress, parseArgs, round, seedAdministrator } = require('./lib/app');
const { freshPostgres, dropKeys } = require('./lib/services');

const args = parseArgs();
const recoverCount = Number(args.recover ?? 10_000);
const rate = Number(args.rate ?? 50);
const windowSeconds = Number(args.window ?? 20);
const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

(async () => {
  progress('compiling the app');
  await compile();
  const database = await freshPostgres(adminUrl, 'bench_anchors');
  const databaseUrl = database.url;
  const receiver = await forkHelper(path.join(__dirname, 'lib', 'webhook-receiver.js'));
  const receiverUrl = `http://127.0.0.1:${receiver.port}`;
  const base = benchEnv('webhooks-anchors');
  const env = {
    ...base,
    DATABASE_CLIENT: 'postgres',
    DATABASE_URL: databaseUrl,
    REDIS_URL: redisUrl,
    OUTBOUND_ALLOW_PRIVATE: 'true',
    SCRAPER_WORKER: 'false',
  };
  const servers = [];
  try {
    progress(`setting up: an administrator, subscriptions, and ${recoverCount} failed deliveries`);
    const setup = await withStrapi({ ...env, WEBHOOK_WORKER: 'false' }, (strapi) => prepare(strapi, receiverUrl));
    receiver.send({ secrets: setup.secrets });
    servers.push(await serve(env));
    const api = servers[0].url;
    const post = async (url, body) => {
      const response = await fetch(`${api}${url}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${setup.jwt}` },
        body: JSON.stringify(body),
      });
      if (response.status !== 202) throw new Error(`${url} answered ${response.status}: ${await response.text()}`);
      return response.json();
    };
    const result = { bench: 'webhooks-anchors', database: 'postgres', jobs: 'bullmq' };

    progress(`baseline: publishing ${recoverCount} events to one subscription`);
    let started = performance.now();
    let published = 0;
    for (let from = 0; from < recoverCount; from += 1000) {
      const size = Math.min(1000, recoverCount - from);
      published += (
        await post('/api/webhooks/events', {
          events: Array.from({ length: size }, (_, n) => ({ type: 'order.created', payload: order(from + n) })),
        })
      ).deliveries;
    }
    const publishMs = performance.now() - started;
    await until(
      async () => (await receiver.ask({ path: '/s/base', windowMs: 1 })).path_total >= published,
      300_000,
      'the baseline delivered'
    );

    progress(`recover: ${recoverCount} failed deliveries`);
    const since = new Date(Date.now() - 3_600_000).toISOString();
    started = performance.now();
    const recovered = (await post(`/api/webhooks/subscriptions/${setup.recoverId}/recover`, { since })).deliveries;
    const recoverMs = performance.now() - started;
    await until(
      async () => (await receiver.ask({ path: '/s/recover', windowMs: 1 })).path_total >= recovered,
      300_000,
      'the recovered delivered'
    );
    const recoveredAllMs = performance.now() - started;
    Object.assign(result, {
      recover: {
        deliveries: recovered,
        queued_ms: Math.round(recoverMs),
        all_delivered_ms: Math.round(recoveredAllMs),
        baseline_publish_ms: Math.round(publishMs),
        ratio_to_publish: round(recoverMs / publishMs, 3),
      },
    });

    progress(`throttle: ${rate}/s, two worker processes, ${windowSeconds} s window`);
    servers.push(await serve(env));
    // Count from the first throttled delivery: the test events sent at creation are forgotten.
    receiver.send({ reset: true });
    await receiver.ask({});
    const events = rate * (windowSeconds + 10);
    for (let from = 0; from < events; from += 1000) {
      const size = Math.min(1000, events - from);
      await post('/api/webhooks/events', {
        events: Array.from({ length: size }, (_, n) => ({ type: 'order.paid', payload: order(from + n, 'paid') })),
      });
    }
    await new Promise((resolve) => setTimeout(resolve, (windowSeconds + 3) * 1000));
    const paced = await receiver.ask({ path: '/s/paced', windowMs: windowSeconds * 1000 });
    const expected = rate * windowSeconds;
    Object.assign(result, {
      throttle: {
        rate_limit: rate,
        instances: 2,
        window_s: windowSeconds,
        received_in_window: paced.in_window,
        expected: expected,
        ratio: round(paced.in_window / expected, 3),
        busiest_second: paced.busiest_second,
      },
    });
    const totals = await receiver.ask({});
    Object.assign(result, { signature_failures: totals.failed, duplicates: totals.duplicates });
    process.stdout.write(`${JSON.stringify(result)}\n`);
  } finally {
    for (const server of servers) await server.stop().catch(() => undefined);
    receiver.kill();
    await database.drop().catch(() => undefined);
    await dropKeys(redisUrl, `${base.JOBS_PREFIX}*`).catch(() => undefined);
  }
})().catch((error) => {
  process.stderr.write(`${error.stack || error}\n`);
  process.exit(1);
});

function order(n, status = 'pending') {
  return { id: `bench-${n}`, status, total: n, created_at: new Date().toISOString() };
}

/** An administrator; a subscription for the baseline, one with `recoverCount` failed deliveries, one throttled. */
async function prepare(strapi, receiverUrl) {
  const { consumerId, jwt } = await seedAdministrator(strapi);
  const subscriptions = strapi.plugin('api-suite').service('webhook-subscriptions');
  const make = (name, events, extra = {}) =>
    subscriptions.create(consumerId, { endpoint_url: `${receiverUrl}/s/${name}`, events, ...extra });
  const baseline = await make('base', ['order.created']);
  // Subscribed to a type nobody publishes here: only the recovered deliveries reach it.
  const recover = await make('recover', ['order.updated']);
  const paced = await make('paced', ['order.paid'], { rate_limit: rate });
  // What an outage leaves: failed deliveries that used their retries.
  const now = new Date();
  const rows = Array.from({ length: recoverCount }, (_, n) => ({
    uuid: randomUUID(),
    subscription_id: recover.row.id,
    event_id: randomUUID(),
    event_type: 'order.created',
    payload: JSON.stringify(order(n)),
    status: 'failed',
    attempts: 8,
    next_attempt_at: null,
    response_status: 503,
    created_at: new Date(now.getTime() - 60_000 + n),
    updated_at: now,
  }));
  for (let from = 0; from < rows.length; from += 1000)
    await strapi.db.connection('api_suite_webhook_deliveries').insert(rows.slice(from, from + 1000));
  return { jwt, recoverId: recover.row.uuid, secrets: { base: baseline.secret, recover: recover.secret, paced: paced.secret } };
}

async function until(check, timeoutMs, what) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
