#!/usr/bin/env node
'use strict';
/**
 * bench/webhooks: the delivery engine under load, against its ceilings, in one run.
 *
 * The app runs in its own process on PostgreSQL and Redis (BullMQ), a receiver runs in another
 * and verifies every signature with node:crypto HMAC (one in 50 also with the public
 * `standardwebhooks` package), and this process drives them. Phases, in order:
 *   1. ceiling: the same receiver driven by plain undici in a worker thread (100 keep-alive
 *      connections, every request signed, the engine's body), no app in between: the most
 *      deliveries/s this machine allows;
 *   2. strapi: Strapi's own built-in webhooks (webhookRunner, fed through its event hub)
 *      delivering the same number of events to the same receiver;
 *   3. latency: POST /api/webhooks/events at a fixed 1,000 events/s (one subscription), p50/p99
 *      from the publisher's send to the receiver's receipt;
 *   4. throughput: POST /api/webhooks/events at a fixed, higher rate (10,000 events/s by
 *      default) in batches: events/s accepted (202), deliveries/s received, first-attempt success;
 *   5. fan-out: one event to 10,000 subscriptions of one consumer: time to the 202 (records
 *      persisted and jobs enqueued), and until the last of them is received;
 *   6. burst: 20,000 events published as fast as the API takes them (batches of 500, 4 in
 *      flight) to one subscription: delivered/s from the first publish to the last receipt
 *      against the undici ceiling, how many arrived in the burst's first 2 s, and delivered/s
 *      while the burst was being published against after it (the share delivering got); once with the
 *      one process that publishes and delivers, then again with a second, worker-only process.
 *      Each burst round follows a ceiling run of its own, and the ratio reported is the median of
 *      the rounds' ratios, so that the machine's slow and fast spells fall on both sides;
 *   7. scale-out: the same burst (10,000 events by default) to one endpoint that answers after
 *      50 ms, as real ones do. Each process sends at most `--concurrency` requests at once, so
 *      there its request slots, not its CPU, bound what it delivers: delivered/s with one process
 *      and with a second, worker-only one, against plain undici with as many connections as the
 *      engine has slots (50, then 100) to the same slow receiver in the same run, and against the
 *      goal of 0.8 × concurrency ÷ 0.05 s a process (800/s with the defaults): the endpoint's share
 *      is 10, so this is what the share being a floor, not a ceiling, buys.
 *   8. noisy neighbour: on a fresh server with the default fair share per endpoint
 *      (WEBHOOK_ENDPOINT_CONCURRENCY 10), one consumer's endpoint answers after 2 s with 3,000
 *      deliveries queued while another's healthy endpoint receives 1,000 events/s: the healthy
 *      endpoint's publish-to-receipt p50/p99 against the same stream with nothing slow beside it
 *      (run just before, on the same server), and the slow endpoint's drain rate against what its
 *      share allows (cap / delay); then the slow endpoint recovers and every one of its 3,000
 *      must arrive, once.
 * Phases 1-7 run with WEBHOOK_ENDPOINT_CONCURRENCY = --endpoint-concurrency (default 10, the
 * app's default): a lone fast endpoint borrows the free slots beyond its share.
 * Prints one JSON line; progress goes to stderr.
 *
 * Usage: node bench/webhooks.js [--rate 10000] [--seconds 10] [--latency-rate 1000]
 *          [--batch 100] [--latency-batch 10] [--latency-rounds 3] [--fanout 10000] [--concurrency 50] [--ceiling-events 20000]
 *          [--burst-events 20000] [--rounds 3] [--phases ceiling,strapi,latency,throughput,fanout,burst,scaleout]
 *          [--scaleout-events 10000] [--slow-ms 50] [--topology single|split] [--profile] [--timeline]
 *          [--endpoint-concurrency 10] [--ceiling-connections 100] [--noisy-backlog 3000] [--noisy-delay-ms 2000] [--noisy-seconds 10]
 * --rounds: the ceiling and each burst are run this many times; the figures are the medians.
 * --topology split runs a web process (WEBHOOK_WORKER=false) beside a worker process.
 * --profile writes the server's CPU profile into .tmp/bench/profiles.
 * --timeline prints each burst's course to stderr, per 100 ms: receipts, and the CPU share of the
 * app's processes, PostgreSQL and the receiver (where a burst waits, and on what).
 * Needs PostgreSQL (BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/postgres;
 * a fresh database is created and dropped) and Redis (REDIS_URL, default redis://127.0.0.1:6379).
 */
const path = require('node:path');
const { Pool } = require('undici');
const {
  benchEnv,
  compile,
  withStrapi,
  serve,
  forkHelper,
  progress,
  parseArgs,
  median,
  round,
  cpuMs,
  cpuOfCommand,
  machineCpu,
  seedAdministrator,
} = require('./lib/app');
const { sql, freshPostgres, dropKeys } = require('./lib/services');
const { runCeiling } = require('./lib/undici-ceiling');

const args = parseArgs();
const rate = Number(args.rate ?? 10_000);
const seconds = Number(args.seconds ?? 10);
const latencyRate = Number(args['latency-rate'] ?? 1_000);
const batch = Number(args.batch ?? 100);
const latencyBatch = Number(args['latency-batch'] ?? 10);
const latencyRounds = Number(args['latency-rounds'] ?? 3);
// single: one process publishes and delivers; split: a web process (WEBHOOK_WORKER=false) and a worker process.
const topology = args.topology ?? 'single';
const fanout = Number(args.fanout ?? 10_000);
const concurrency = Number(args.concurrency ?? 50);
// The ceiling's keep-alive connections (a worker thread of plain undici): more than the engine's slots, so it is a ceiling.
const ceilingConnections = Number(args['ceiling-connections'] ?? 100);
const ceilingEvents = Number(args['ceiling-events'] ?? 20_000);
const burstEvents = Number(args['burst-events'] ?? 20_000);
// The machine's speed wanders by ±10 % between seconds: the ceiling and each burst are run this many times and their medians compared.
const rounds = Number(args.rounds ?? 3);
const phases = new Set((args.phases ?? 'ceiling,strapi,latency,throughput,fanout,burst,scaleout,noisy').split(','));
// Requests open at once to one endpoint: the app's default share (10), which a fast endpoint goes
// beyond while nothing else waits (docs/webhooks.md#a-fair-share-per-endpoint).
const endpointConcurrency = Number(args['endpoint-concurrency'] ?? 10);
// Noisy neighbour: a backlog of this many deliveries to an endpoint answering after noisyDelayMs.
const noisyBacklog = Number(args['noisy-backlog'] ?? 3_000);
const noisyDelayMs = Number(args['noisy-delay-ms'] ?? 2_000);
const noisySeconds = Number(args['noisy-seconds'] ?? 10);
const NOISY_CAP = 10;
// Scale-out: a burst this size to a receiver that answers after slowMs.
const scaleoutEvents = Number(args['scaleout-events'] ?? 10_000);
const slowMs = Number(args['slow-ms'] ?? 50);
const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

const THROUGHPUT_TYPE = 'order.created';
const FANOUT_TYPE = 'order.paid';
const NOISY_TYPE = 'order.updated';

/**
 * An order event's data, as its schema in the event catalog has it (publishes are checked
 * against it). `created_at` carries the moment it was sent: the receiver measures latency from it.
 */
function benchOrder(n, sentAt) {
  return { id: `bench-${n}`, status: 'pending', total: n, created_at: new Date(sentAt).toISOString() };
}
const STRAPI_EVENT = 'entry.create';

(async () => {
  progress('compiling the app');
  await compile();

  const database = await freshPostgres(adminUrl, 'bench_webhooks');
  const databaseUrl = database.url;
  const receiver = await startReceiver();
  const base = benchEnv('webhooks');
  let server;
  try {
    const env = {
      ...base,
      DATABASE_CLIENT: 'postgres',
      DATABASE_URL: databaseUrl,
      REDIS_URL: redisUrl,
      // The receiver is on 127.0.0.1, which production refuses by default.
      OUTBOUND_ALLOW_PRIVATE: 'true',
      WEBHOOK_CONCURRENCY: String(concurrency),
      WEBHOOK_ENDPOINT_CONCURRENCY: String(endpointConcurrency),
      SCRAPER_WORKER: 'false',
    };

    progress(`setting up: an administrator, a subscriber of ${THROUGHPUT_TYPE}, and ${fanout} subscriptions of ${FANOUT_TYPE}`);
    const setup = await withStrapi({ ...env, WEBHOOK_WORKER: 'false' }, (strapi) => prepare(strapi));
    receiver.send({ secrets: setup.secrets });

    const result = {
      bench: 'webhooks',
      database: 'postgres',
      jobs: 'bullmq',
      topology,
      worker_concurrency: concurrency,
      endpoint_concurrency: endpointConcurrency,
    };
    const totals = { failed: 0, duplicates: 0, warmupLost: 0, referenceVerified: 0 };
    const count = (figures) => {
      // A signature the standardwebhooks package refuses (in the receiver's sample) is a bad signature too.
      totals.failed += figures.failed + (figures.referenceFailed ?? 0);
      totals.referenceVerified += figures.referenceVerified ?? 0;
      totals.duplicates += figures.duplicates;
      return figures;
    };
    // The unmeasured warm-up bursts must lose nothing either.
    const warmedUp = (run) => {
      totals.warmupLost += run.lost;
    };

    if (phases.has('ceiling')) {
      const ceilings = [];
      for (let index = 1; index <= rounds; index += 1) {
        progress(
          `ceiling ${index}/${rounds}: plain undici in a worker thread, ${ceilingEvents} signed requests over ${ceilingConnections} connections`
        );
        ceilings.push(count(await undiciCeiling(receiver, setup.secrets.main)));
      }
      result.ceiling_undici_deliveries_per_s = median(ceilings.map((ceiling) => ceiling.perSecond));
      result.ceiling_undici_cpu_ms_per_request = median(ceilings.map((ceiling) => ceiling.cpuMsPerRequest));
      // What the receiver spent verifying and answering each of the ceiling's requests (node:crypto HMAC, as for the app's).
      result.ceiling_receiver_cpu_ms_per_request = median(ceilings.map((ceiling) => ceiling.receiverCpuMsPerRequest));
    }
    if (phases.has('strapi')) {
      progress(`strapi: built-in webhooks, ${ceilingEvents} events`);
      const builtIn = await strapiBuiltIn(env, receiver);
      Object.assign(result, {
        strapi_builtin_deliveries_per_s: builtIn.perSecond,
        strapi_builtin_p50_ms: builtIn.p50_ms,
        strapi_builtin_p99_ms: builtIn.p99_ms,
      });
    }

    // --profile: the server writes a CPU profile (.tmp/bench/profiles) when it stops.
    const profileDir = path.join(__dirname, '..', '.tmp', 'bench', 'profiles');
    const nodeArgs = 'profile' in args ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [];
    server = await serve(topology === 'split' ? { ...env, WEBHOOK_WORKER: 'false' } : env, nodeArgs);
    if (topology === 'split') {
      const web = server;
      const worker = await serve(env, nodeArgs);
      server = { url: web.url, pids: [web.pid, worker.pid], stop: () => Promise.all([web.stop(), worker.stop()]) };
    }
    const publisher = new Pool(server.url, { connections: 16, pipelining: 1 });
    const post = (body) =>
      publisher
        .request({
          method: 'POST',
          path: '/api/webhooks/events',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${setup.jwt}` },
          body: JSON.stringify(body),
        })
        .then(async (response) => {
          const answer = await response.body.json();
          if (response.statusCode !== 202) throw new Error(`publish answered ${response.statusCode}: ${JSON.stringify(answer)}`);
          return answer;
        });
    const publish = publisherOf(publisher, setup.jwt);
    // What the burst and scale-out phases share (burstArms).
    const context = { env, nodeArgs, publish, receiver, server, count, warmedUp };

    progress('warming up');
    await reset(receiver);
    await settle(receiver, (await drive(publish, { rate: 200, seconds: 2, batch: 20 })).accepted);
    if (phases.has('burst') || phases.has('scaleout')) {
      // A server that has run for a while has compiled its hot paths; a burst measured first
      // would otherwise pay for V8's optimizing them (the app's CPU per delivery 0.105-0.111 ms
      // in a first burst against 0.071 after the other phases, on the same machine).
      progress(`warming up: an unmeasured burst of ${burstEvents} events`);
      warmedUp(count(await burst(publish, receiver, server.pids ?? [server.pid], { warmup: true })));
    }

    if (phases.has('latency')) {
      // Near capacity one stall can leave a run behind for the rest of it: several runs, medians and the worst.
      const runs = [];
      for (let round = 1; round <= latencyRounds; round += 1) {
        progress(`latency ${round}/${latencyRounds}: ${latencyRate} events/s for ${seconds} s in batches of ${latencyBatch}`);
        await reset(receiver);
        const run = await drive(publish, { rate: latencyRate, seconds, batch: latencyBatch });
        const received = count(await settle(receiver, run.accepted));
        runs.push({ accepted: run.accepted / run.seconds, publish: run.p50_ms, p50: received.p50_ms, p99: received.p99_ms });
        // Let the queue settle before the next run.
        await new Promise((resolve) => setTimeout(resolve, 2000));
      }
      Object.assign(result, {
        latency_rate_events_per_s: latencyRate,
        latency_batch: latencyBatch,
        latency_rounds: latencyRounds,
        latency_accepted_events_per_s: round(median(runs.map((run) => run.accepted))),
        latency_publish_p50_ms: median(runs.map((run) => run.publish)),
        latency_p50_ms: median(runs.map((run) => run.p50)),
        latency_p99_ms: median(runs.map((run) => run.p99)),
        latency_worst_p50_ms: Math.max(...runs.map((run) => run.p50)),
        latency_worst_p99_ms: Math.max(...runs.map((run) => run.p99)),
      });
    }

    if (phases.has('throughput')) {
      progress(`throughput: ${rate} events/s for ${seconds} s in batches of ${batch}`);
      await reset(receiver);
      const before = await maxDeliveryId(databaseUrl);
      const run = await drive(publish, { rate, seconds, batch });
      // Once publishing has stopped, the backlog drains at what delivery alone can do.
      const received = count(await settle(receiver, run.accepted, 300_000, Date.now() + 1000));
      // Outcomes are written every 100 ms: give the last ones time to land before reading them.
      await new Promise((resolve) => setTimeout(resolve, 1000));
      Object.assign(result, {
        throughput_target_events_per_s: rate,
        throughput_accepted_events_per_s: round(run.accepted / run.seconds),
        throughput_publish_p50_ms: run.p50_ms,
        throughput_publish_p99_ms: run.p99_ms,
        throughput_deliveries_per_s: received.perSecond,
        throughput_drain_deliveries_per_s: received.sincePerSecond,
        throughput_delivery_p50_ms: received.p50_ms,
        throughput_delivery_p99_ms: received.p99_ms,
        throughput_first_attempt_success: await firstAttemptShare(databaseUrl, before),
        throughput_first_attempt_errors: await firstAttemptErrors(databaseUrl, before),
      });
      if (result.ceiling_undici_deliveries_per_s)
        result.deliveries_vs_undici_ceiling = round(received.perSecond / result.ceiling_undici_deliveries_per_s, 3);
      if (result.strapi_builtin_deliveries_per_s)
        result.deliveries_vs_strapi_builtin = round(received.perSecond / result.strapi_builtin_deliveries_per_s, 2);
    }

    if (phases.has('fanout')) {
      progress(`fan-out: one ${FANOUT_TYPE} event to ${fanout} subscriptions`);
      await reset(receiver);
      const started = performance.now();
      const answer = await post({ type: FANOUT_TYPE, payload: benchOrder(0, Date.now()) });
      const acceptedMs = performance.now() - started;
      if (answer.deliveries !== fanout) throw new Error(`fan-out created ${answer.deliveries} deliveries, not ${fanout}`);
      const received = count(await settle(receiver, fanout, 300_000));
      Object.assign(result, {
        fanout_subscriptions: fanout,
        fanout_persisted_and_enqueued_ms: round(acceptedMs),
        fanout_all_received_ms: received.spanFromSendMs,
        fanout_deliveries_per_s: received.perSecond,
      });
    }
    if (phases.has('burst')) {
      // With the ceiling phase, each burst round is paired with a ceiling run just before it, and
      // the ratios are taken round by round: a slow spell of the machine then falls on both sides.
      const paired = phases.has('ceiling');
      const arms = await burstArms(context, {
        name: 'burst',
        events: burstEvents,
        ceiling: async () => (paired ? count(await undiciCeiling(receiver, setup.secrets.main)).perSecond : null),
      });
      const ones = arms.ones.map(({ run }) => run);
      const twos = arms.twos.map(({ run }) => run);
      const one = medianRun(ones);
      const two = medianRun(twos);
      Object.assign(result, {
        burst_events: burstEvents,
        burst_accepted_events_per_s: one.acceptedPerSecond,
        burst_delivered_per_s: one.deliveredPerSecond,
        burst_received_first_2s: one.firstTwoSeconds,
        // Delivered/s while the burst was being published (publishing_ms) and after it, in the median round.
        burst_publishing_ms: one.publishingMs,
        burst_delivered_per_s_while_publishing: one.deliveredPerSecondWhilePublishing,
        burst_delivered_per_s_after_publishing: one.deliveredPerSecondAfterPublishing,
        // Every round's, not the median's.
        burst_lost: ones.reduce((sum, run) => sum + run.lost, 0),
        burst_app_cpu_ms_per_delivery: one.appCpuMsPerDelivery,
        burst_cpu_ms_per_delivery_by_process: one.cpuMsPerDeliveryByProcess,
        burst_machine_busy: one.machineBusyShare,
        burst_machine_cpu_ms_per_delivery: one.machineCpuMsPerDelivery,
        burst_delivered_per_s_rounds: ones.map((run) => run.deliveredPerSecond),
        burst_two_workers_delivered_per_s: two.deliveredPerSecond,
        burst_two_workers_delivered_per_s_rounds: twos.map((run) => run.deliveredPerSecond),
        burst_two_workers_received_first_2s: two.firstTwoSeconds,
        burst_two_workers_delivered_per_s_while_publishing: two.deliveredPerSecondWhilePublishing,
        burst_two_workers_delivered_per_s_after_publishing: two.deliveredPerSecondAfterPublishing,
        burst_two_workers_lost: twos.reduce((sum, run) => sum + run.lost, 0),
        burst_two_workers_machine_busy: two.machineBusyShare,
        burst_two_workers_machine_cpu_ms_per_delivery: two.machineCpuMsPerDelivery,
      });
      if (paired) {
        // CPU per delivery against plain undici's per signed request: steadier than either alone when the machine's speed varies.
        result.burst_app_cpu_vs_undici_cpu = round(one.appCpuMsPerDelivery / result.ceiling_undici_cpu_ms_per_request, 2);
        // The median of the rounds' ratios, each burst against the ceiling run just before it.
        result.burst_ceilings_per_s = [...arms.ones, ...arms.twos].map(({ ceiling }) => ceiling);
        result.burst_vs_undici_ceiling_rounds = ratiosOf(arms.ones);
        result.burst_vs_undici_ceiling = median(result.burst_vs_undici_ceiling_rounds);
        result.burst_two_workers_vs_undici_ceiling_rounds = ratiosOf(arms.twos);
        result.burst_two_workers_vs_undici_ceiling = median(result.burst_two_workers_vs_undici_ceiling_rounds);
      }
    }
    if (phases.has('scaleout')) Object.assign(result, await scaleOut(context, setup.secrets.main));
    await publisher.close();
    if (phases.has('noisy')) {
      // A server of its own, with the app's default fair share per endpoint.
      await server.stop();
      server = await serve({ ...env, WEBHOOK_ENDPOINT_CONCURRENCY: String(NOISY_CAP) }, nodeArgs);
      const noisyPublisher = new Pool(server.url, { connections: 16, pipelining: 1 });
      try {
        Object.assign(result, await noisyNeighbour({ publish: publisherOf(noisyPublisher, setup.jwt), receiver, totals }));
      } finally {
        await noisyPublisher.close();
      }
    }
    Object.assign(result, {
      signature_failures: totals.failed,
      // Deliveries whose signatures the standardwebhooks package also verified (one in 50 of each phase's).
      signatures_checked_by_reference: totals.referenceVerified,
      duplicates: totals.duplicates,
      warmup_lost: totals.warmupLost,
    });
    process.stdout.write(`${JSON.stringify(result)}\n`);
  } finally {
    await server?.stop().catch(() => undefined);
    receiver.kill();
    await database.drop().catch(() => undefined);
    await dropKeys(redisUrl, `${base.JOBS_PREFIX}*`).catch(() => undefined);
  }
})().catch((error) => {
  process.stderr.write(`${error.stack || error}\n`);
  process.exit(1);
});

/** An administrator with a JWT, one subscriber of the throughput type, `fanout` subscribers of the fan-out type. */
async function prepare(strapi) {
  const { consumerId, jwt } = await seedAdministrator(strapi);
  const subscriptions = strapi.plugin('api-suite').service('webhook-subscriptions');
  const secrets = {};
  const receiverUrl = process.env.BENCH_RECEIVER_URL;
  secrets.main = (await subscriptions.create(consumerId, { endpoint_url: `${receiverUrl}/s/main`, events: [THROUGHPUT_TYPE] })).secret;
  // The noisy neighbour: another consumer's endpoint, slow in the noisy-neighbour phase only.
  secrets.slow = (
    await subscriptions.create('c1c1c1c1-0000-4000-8000-000000000000', {
      endpoint_url: `${receiverUrl}/s/slow`,
      events: [NOISY_TYPE],
      timeout_seconds: 10,
    })
  ).secret;
  // Another consumer's 10,000 subscriptions: publishing must find them through the topics index.
  const fanConsumer = 'b0b0b0b0-0000-4000-8000-000000000000';
  let made = 0;
  await pool(8, fanout, async (index) => {
    const name = `f${index}`;
    secrets[name] = (await subscriptions.create(fanConsumer, { endpoint_url: `${receiverUrl}/s/${name}`, events: [FANOUT_TYPE] })).secret;
    made += 1;
    if (made % 2000 === 0) progress(`  ${made} of ${fanout} fan-out subscriptions`);
  });
  return { jwt, secrets };
}

/** The receiver in its own process; `send` and `ask` talk to it over IPC. */
async function startReceiver() {
  const helper = await forkHelper(path.join(__dirname, 'lib', 'webhook-receiver.js'));
  const url = `http://127.0.0.1:${helper.port}`;
  process.env.BENCH_RECEIVER_URL = url;
  return { url, pid: helper.pid, helper, send: helper.send, ask: (since, before) => helper.ask({ since, before }), kill: helper.kill };
}

async function reset(receiver) {
  receiver.send({ reset: true });
  await receiver.ask();
}

/**
 * Wait until the receiver holds `expected` distinct deliveries (or the time is up); its figures,
 * with the rate of receipts from `since` (ms since the epoch) on.
 */
async function settle(receiver, expected, timeoutMs = 120_000, since = undefined) {
  const started = Date.now();
  let report = await receiver.ask(since);
  let lastUnique = -1;
  let idleSince = Date.now();
  while (report.unique < expected && Date.now() - started < timeoutMs) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    report = await receiver.ask(since);
    if (report.unique !== lastUnique) {
      lastUnique = report.unique;
      idleSince = Date.now();
    } else if (Date.now() - idleSince > 30_000) break;
  }
  if (report.unique < expected) progress(`  only ${report.unique} of ${expected} deliveries arrived`);
  const spanMs = report.last - report.first;
  return {
    received: report.unique,
    failed: report.failed,
    duplicates: report.duplicates,
    perSecond: spanMs > 0 ? round((report.unique * 1000) / spanMs) : null,
    sincePerSecond: report.since_per_s,
    spanFromSendMs: report.first_sent_at ? report.last - report.first_sent_at : null,
    p50_ms: report.p50_ms,
    p99_ms: report.p99_ms,
    referenceVerified: report.reference_verified,
    referenceFailed: report.reference_failed,
    receiverCpuMs: report.cpu_ms,
  };
}

/**
 * A burst: `events` events published as fast as the API takes them, batches of 500 with 4
 * in flight; delivered/s from the first publish to the last unique receipt. A warm-up burst
 * prints no timeline.
 */
async function burst(publish, receiver, pids, { events = burstEvents, warmup = false } = {}) {
  await reset(receiver);
  const size = 500;
  const cpuBefore = pids.map(cpuMs);
  const machineBefore = machineCpu();
  const othersBefore = otherCpu(receiver);
  const started = Date.now();
  const sampler = 'timeline' in args && !warmup ? sampleCpu(pids, receiver) : null;
  let next = 0;
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (next < events) {
        const from = next;
        next += size;
        const sentAt = Date.now();
        await publish(
          Array.from({ length: Math.min(size, events - from) }, (_, n) => ({
            type: THROUGHPUT_TYPE,
            payload: benchOrder(from + n, sentAt),
          }))
        );
      }
    })
  );
  const acceptedMs = Date.now() - started;
  const received = await settle(receiver, events, 300_000);
  const report = await receiver.ask(undefined, started + 2000);
  // Deliveries made while the burst was still being published, against those after: how much of
  // the process delivering got while publishing took what it could.
  const whilePublishing = (await receiver.ask(undefined, started + acceptedMs)).before_count;
  if (sampler) printTimeline(await receiver.helper.ask({ origin: started, bucketMs: TIMELINE_MS }), sampler.stop());
  const machineAfter = machineCpu();
  const byProcess = pids.map((pid, index) => cpuMs(pid) - cpuBefore[index]);
  const appCpuMs = byProcess.reduce((sum, ms) => sum + ms, 0);
  const othersAfter = otherCpu(receiver);
  const perDelivery = (ms) => round(ms / Math.max(1, received.received), 3);
  return {
    ...received,
    // What one delivery costs the app's processes (publishing included), and how busy the whole machine was.
    appCpuMsPerDelivery: round(appCpuMs / Math.max(1, received.received), 3),
    // Per process, in the order given (with --topology split: the web process that publishes, then the worker).
    cpuMsPerDeliveryByProcess: byProcess.map((ms) => round(ms / Math.max(1, received.received), 3)),
    machineBusyShare: round((machineAfter.busy - machineBefore.busy) / Math.max(1, machineAfter.total - machineBefore.total), 2),
    // Where the machine's time went, per delivery: the app, and everything else the path needs.
    machineCpuMsPerDelivery: {
      app: perDelivery(appCpuMs),
      ...Object.fromEntries(Object.keys(othersAfter).map((name) => [name, perDelivery(othersAfter[name] - othersBefore[name])])),
    },
    acceptedPerSecond: round((events * 1000) / acceptedMs),
    deliveredPerSecond: report.last > started ? round((received.received * 1000) / (report.last - started)) : null,
    firstTwoSeconds: report.before_count,
    publishingMs: acceptedMs,
    deliveredPerSecondWhilePublishing: round((whilePublishing * 1000) / acceptedMs),
    deliveredPerSecondAfterPublishing:
      report.last > started + acceptedMs
        ? round(((received.received - whilePublishing) * 1000) / (report.last - started - acceptedMs))
        : null,
    lost: events - received.received,
  };
}

const TIMELINE_MS = 100;

/** CPU time of the app's processes, PostgreSQL and the receiver, read every TIMELINE_MS until stopped. */
function sampleCpu(pids, receiver) {
  const read = () => {
    const machine = machineCpu();
    return {
      app: pids.reduce((sum, pid) => sum + cpuMs(pid), 0),
      postgres: cpuOfCommand('postgres'),
      receiver: cpuMs(receiver.pid),
      busy: machine.busy,
      total: machine.total,
    };
  };
  const samples = [read()];
  const timer = setInterval(() => samples.push(read()), TIMELINE_MS);
  return {
    stop() {
      clearInterval(timer);
      return samples;
    },
  };
}

/** The burst's course, a line per TIMELINE_MS: receipts and each part's share of a core. */
function printTimeline(report, samples) {
  progress('  ms     received  app%  postgres%  receiver%  machine busy%');
  const buckets = report.buckets ?? [];
  for (let index = 0; index < Math.max(buckets.length, samples.length - 1); index += 1) {
    const [from, to] = [samples[index], samples[index + 1]];
    const share = (name) => (from && to ? String(Math.round(((to[name] - from[name]) * 100) / TIMELINE_MS)).padStart(4) : '   -');
    const busy = from && to ? String(Math.round(((to.busy - from.busy) * 100) / Math.max(1, to.total - from.total))).padStart(4) : '   -';
    progress(
      `  ${String(index * TIMELINE_MS).padStart(5)}  ${String(buckets[index] ?? 0).padStart(7)}  ${share('app')}  ${share('postgres')}       ${share('receiver')}       ${busy}`
    );
  }
}

/** CPU time so far of what a delivery needs besides the app: PostgreSQL, Redis, the receiver, and this driver (publishing). */
function otherCpu(receiver) {
  const own = process.cpuUsage();
  return {
    postgres: cpuOfCommand('postgres'),
    redis: cpuOfCommand('redis-server'),
    receiver: cpuMs(receiver.pid),
    driver: (own.user + own.system) / 1000,
  };
}

/** Open-loop publisher: a batch every tick whatever the answers; how many events were accepted, and how fast. */
async function drive(publish, { rate, seconds, batch }) {
  const batches = Math.max(1, Math.round((rate * seconds) / batch));
  const interval = (seconds * 1000) / batches;
  const started = performance.now();
  const answers = [];
  const timings = [];
  for (let index = 0; index < batches; index += 1) {
    const due = started + index * interval;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    const sentAt = Date.now();
    const events = Array.from({ length: batch }, (_, n) => ({ type: THROUGHPUT_TYPE, payload: benchOrder(index * batch + n, sentAt) }));
    const begun = performance.now();
    answers.push(
      publish(events).then((body) => {
        timings.push(performance.now() - begun);
        return body.event_ids.length;
      })
    );
  }
  const accepted = (await Promise.all(answers)).reduce((sum, count) => sum + count, 0);
  const elapsed = (performance.now() - started) / 1000;
  const sorted = timings.sort((a, b) => a - b);
  return {
    accepted,
    seconds: elapsed,
    p50_ms: round(sorted[Math.floor(sorted.length / 2)]),
    p99_ms: round(sorted[Math.floor(sorted.length * 0.99)]),
  };
}

/** The receiver driven directly: signed requests through one undici pool, `connections` at a time. */
async function undiciCeiling(receiver, secret, { connections = ceilingConnections, events = ceilingEvents } = {}) {
  await reset(receiver);
  const receiverBefore = (await receiver.ask()).cpu_ms;
  const { cpuMs } = await runCeiling({ url: receiver.url, path: '/s/main', secret, connections, events, type: THROUGHPUT_TYPE });
  const settled = await settle(receiver, events);
  return {
    ...settled,
    cpuMsPerRequest: round(cpuMs / events, 3),
    receiverCpuMsPerRequest: round((settled.receiverCpuMs - receiverBefore) / events, 3),
  };
}

/** Strapi's built-in webhooks: one registered webhook, fed the same number of events through the event hub. */
async function strapiBuiltIn(env, receiver) {
  await reset(receiver);
  return withStrapi({ ...env, WEBHOOK_WORKER: 'false', JOBS_PREFIX: `${env.JOBS_PREFIX}-builtin` }, async (strapi) => {
    strapi
      .get('webhookRunner')
      .add({ id: 'bench', name: 'bench', url: `${receiver.url}/plain`, headers: {}, events: [STRAPI_EVENT], isEnabled: true });
    for (let n = 0; n < ceilingEvents; n += 1) {
      strapi.eventHub.emit(STRAPI_EVENT, { model: 'bench', entry: { sent_at: Date.now(), n } });
      // Emitted at the same pace as the others are offered, not all in one tick.
      if (n % 500 === 499) await new Promise((resolve) => setImmediate(resolve));
    }
    return settle(receiver, ceilingEvents, 600_000);
  });
}

/**
 * A burst's two arms: `rounds` rounds with the app's own process(es), then as many with a second,
 * worker-only process, warmed up first with an unmeasured burst. Each round follows a ceiling run
 * of its own (`ceiling(processes)`, null for none), so the machine's slow and fast spells fall on
 * both sides. Returns each arm's rounds as { ceiling, run }.
 */
async function burstArms({ env, nodeArgs, publish, receiver, server, count, warmedUp }, { name, events, ceiling }) {
  const pids = server.pids ?? [server.pid];
  const arm = async (label, processes, pidsOfArm) => {
    const runs = [];
    for (let index = 1; index <= rounds; index += 1) {
      const limit = await ceiling(processes);
      progress(`${name} ${index}/${rounds}: ${events} events, batches of 500, 4 in flight, ${label}`);
      runs.push({ ceiling: limit, run: count(await burst(publish, receiver, pidsOfArm, { events })) });
    }
    return runs;
  };
  const ones = await arm(
    topology === 'split' ? 'a web process publishing, a worker delivering' : 'one process publishing and delivering',
    1,
    pids
  );
  const extra = await serve(env, nodeArgs);
  try {
    progress(`${name}: warming up the second process, an unmeasured burst of ${events} events`);
    warmedUp(count(await burst(publish, receiver, [...pids, extra.pid], { events, warmup: true })));
    return { ones, twos: await arm('again with a second, worker-only process', 2, [...pids, extra.pid]) };
  } finally {
    await extra.stop();
  }
}

/** Each round's delivered/s against the ceiling run just before it. */
function ratiosOf(arm) {
  return arm.map(({ ceiling, run }) => round(run.deliveredPerSecond / ceiling, 3));
}

/**
 * Scale-out: bursts of `scaleoutEvents` to a receiver that answers after `slowMs`, with the one
 * process and then with a second, worker-only one; each round beside plain undici with as many
 * connections as the engine has request slots. Ratios are the medians of the rounds'.
 */
async function scaleOut(context, secret) {
  const { receiver, count } = context;
  receiver.send({ delayMs: slowMs });
  let arms;
  try {
    arms = await burstArms(context, {
      name: 'scale-out',
      events: scaleoutEvents,
      // As many connections as the engine's request slots: one process's, then two processes'.
      ceiling: async (processes) => {
        progress(
          `scale-out: plain undici, ${scaleoutEvents} requests at concurrency ${processes * concurrency}, answers after ${slowMs} ms`
        );
        return count(await undiciCeiling(receiver, secret, { connections: processes * concurrency, events: scaleoutEvents })).perSecond;
      },
    });
  } finally {
    receiver.send({ delayMs: 0 });
    await receiver.ask();
  }
  const { ones, twos } = arms;
  const one = medianRun(ones.map(({ run }) => run));
  const two = medianRun(twos.map(({ run }) => run));
  return {
    scaleout_events: scaleoutEvents,
    scaleout_receiver_delay_ms: slowMs,
    scaleout_ceiling_per_s: median(ones.map(({ ceiling }) => ceiling)),
    scaleout_ceiling_double_connections_per_s: median(twos.map(({ ceiling }) => ceiling)),
    scaleout_one_worker_delivered_per_s: one.deliveredPerSecond,
    scaleout_two_workers_delivered_per_s: two.deliveredPerSecond,
    scaleout_one_worker_delivered_per_s_rounds: ones.map(({ run }) => run.deliveredPerSecond),
    scaleout_two_workers_delivered_per_s_rounds: twos.map(({ run }) => run.deliveredPerSecond),
    // What the second process added: two processes' delivered/s over one's.
    scaleout_two_vs_one_worker: round(two.deliveredPerSecond / one.deliveredPerSecond, 2),
    // Each against plain undici with as many connections as the engine's request slots.
    scaleout_one_worker_vs_ceiling: median(ratiosOf(ones)),
    scaleout_two_workers_vs_ceiling: median(ratiosOf(twos)),
    scaleout_one_worker_machine_busy: one.machineBusyShare,
    scaleout_two_workers_machine_busy: two.machineBusyShare,
    scaleout_lost: [...ones, ...twos].reduce((sum, { run }) => sum + run.lost, 0),
    // What one endpoint alone should reach: 0.8 of the process's slots, each answered after slowMs.
    scaleout_target_per_process_per_s: round((0.8 * concurrency * 1000) / slowMs),
    scaleout_one_worker_vs_target: round(one.deliveredPerSecond / ((0.8 * concurrency * 1000) / slowMs), 3),
    scaleout_two_workers_vs_target: round(two.deliveredPerSecond / ((2 * 0.8 * concurrency * 1000) / slowMs), 3),
  };
}

/** `publish(events)` through an undici pool: the 202's body, or an error. */
function publisherOf(pool, jwt) {
  return (events) =>
    pool
      .request({
        method: 'POST',
        path: '/api/webhooks/events',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${jwt}` },
        body: JSON.stringify({ events }),
      })
      .then(async (response) => {
        const answer = await response.body.json();
        if (response.statusCode !== 202) throw new Error(`publish answered ${response.statusCode}: ${JSON.stringify(answer)}`);
        return answer;
      });
}

/**
 * Phase 8: the healthy stream alone (baseline), then beside an endpoint answering after
 * noisyDelayMs with noisyBacklog deliveries queued; then that endpoint recovers and its whole
 * backlog must arrive, once.
 */
async function noisyNeighbour({ publish, receiver, totals }) {
  const healthy = '/s/main';
  const slow = '/s/slow';
  const pathReport = (latencyPath, from, to) => receiver.helper.ask({ latencyPath, from, to });
  const healthyRun = async () => {
    const run = await drive(publish, { rate: latencyRate, seconds: noisySeconds, batch: latencyBatch });
    const driven = Date.now();
    let report = await pathReport(healthy);
    while (report.path_unique < run.accepted && Date.now() - driven < 60_000) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      report = await pathReport(healthy);
    }
    return { run, report, driven };
  };

  // The server is fresh: an unmeasured run first, so that the baseline is not a cold server's.
  progress(`noisy neighbour: warming the fresh server up, ${latencyRate} events/s for ${noisySeconds} s`);
  await reset(receiver);
  await healthyRun();
  progress(`noisy neighbour: baseline, ${latencyRate} events/s for ${noisySeconds} s to the healthy endpoint alone`);
  await reset(receiver);
  const quiet = await healthyRun();

  progress(
    `noisy neighbour: ${noisyBacklog} deliveries to an endpoint answering after ${noisyDelayMs} ms, then ${latencyRate} events/s to the healthy one`
  );
  await reset(receiver);
  receiver.send({ pathDelays: { [slow]: noisyDelayMs } });
  for (let from = 0; from < noisyBacklog; from += 500) {
    const sentAt = Date.now();
    await publish(
      Array.from({ length: Math.min(500, noisyBacklog - from) }, (_, n) => ({ type: NOISY_TYPE, payload: benchOrder(from + n, sentAt) }))
    );
  }
  // Saturated: its share of requests is open.
  const saturatedBy = Date.now() + 30_000;
  while ((await pathReport(slow)).path_received < NOISY_CAP && Date.now() < saturatedBy)
    await new Promise((resolve) => setTimeout(resolve, 100));
  const started = Date.now();
  const noisy = await healthyRun();
  // The slow endpoint's receipts while the healthy stream ran. They come in waves (each slot is
  // answered after the delay and taken again at once): the rate is what came after the first
  // wave over the time from the first receipt to the last.
  const during = (await receiver.helper.ask({ latencyPath: slow, from: started, to: noisy.driven, times: true })).path_times;
  const firstWave = during.filter((at) => at < during[0] + noisyDelayMs / 2).length;
  const span = during.length > 1 ? during[during.length - 1] - during[0] : 0;
  const drainPerSecond = span > 0 ? round(((during.length - firstWave) * 1000) / span, 2) : null;
  const shareAllows = (NOISY_CAP * 1000) / noisyDelayMs;

  progress(`noisy neighbour: the slow endpoint recovers; waiting for all ${noisyBacklog} of its deliveries`);
  receiver.send({ pathDelays: {} });
  const recovered = Date.now();
  let slowReport = await pathReport(slow);
  while (slowReport.path_unique < noisyBacklog && Date.now() - recovered < 180_000) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    slowReport = await pathReport(slow);
  }
  const all = await receiver.ask();
  totals.failed += all.failed;
  totals.duplicates += all.duplicates;
  return {
    noisy_endpoint_concurrency: NOISY_CAP,
    noisy_slow_delay_ms: noisyDelayMs,
    noisy_slow_backlog: noisyBacklog,
    noisy_healthy_rate_events_per_s: latencyRate,
    noisy_baseline_healthy_p50_ms: quiet.report.path_p50_ms,
    noisy_baseline_healthy_p99_ms: quiet.report.path_p99_ms,
    noisy_healthy_p50_ms: noisy.report.path_p50_ms,
    noisy_healthy_p99_ms: noisy.report.path_p99_ms,
    noisy_healthy_max_ms: noisy.report.path_max_ms,
    noisy_healthy_p99_vs_baseline: quiet.report.path_p99_ms ? round(noisy.report.path_p99_ms / quiet.report.path_p99_ms, 2) : null,
    noisy_healthy_lost: noisy.run.accepted - noisy.report.path_unique,
    noisy_slow_drain_per_s: drainPerSecond,
    noisy_slow_drain_vs_share: drainPerSecond === null ? null : round(drainPerSecond / shareAllows, 3),
    noisy_slow_all_received_s_after_recovery: round((Date.now() - recovered) / 1000, 1),
    noisy_slow_lost: noisyBacklog - slowReport.path_unique,
    noisy_slow_duplicates: slowReport.path_received - slowReport.path_unique,
  };
}

/** Share of the deliveries created since `before` that succeeded at their first attempt. */
async function firstAttemptShare(url, before) {
  const rows = await sql(
    url,
    `SELECT count(*) FILTER (WHERE status = 'succeeded' AND attempts = 1) AS first, count(*) AS total
       FROM api_suite_webhook_deliveries WHERE event_type = $1 AND id > $2`,
    [THROUGHPUT_TYPE, before]
  );
  const { first, total } = rows[0];
  return Number(total) === 0 ? null : round(Number(first) / Number(total), 4);
}

/** What the failed first attempts ran into, by error. */
async function firstAttemptErrors(url, before) {
  const rows = await sql(
    url,
    `SELECT coalesce(a.error, 'none') AS error, count(*) AS count
       FROM api_suite_webhook_attempts a JOIN api_suite_webhook_deliveries d ON d.uuid = a.delivery_uuid
      WHERE a.attempt = 1 AND a.error IS NOT NULL AND d.event_type = $1 AND d.id > $2
      GROUP BY 1 ORDER BY 2 DESC LIMIT 5`,
    [THROUGHPUT_TYPE, before]
  );
  return Object.fromEntries(rows.map((row) => [row.error.slice(0, 120), Number(row.count)]));
}

async function maxDeliveryId(url) {
  const rows = await sql(url, 'SELECT coalesce(max(id), 0) AS max_id FROM api_suite_webhook_deliveries');
  return Number(rows[0].max_id);
}

/** The round whose delivered/s is the median (the middle one; with an even count, the lower middle). */
function medianRun(runs) {
  const sorted = [...runs].sort((a, b) => a.deliveredPerSecond - b.deliveredPerSecond);
  return sorted[Math.floor((sorted.length - 1) / 2)];
}

async function pool(size, count, task) {
  let next = 0;
  await Promise.all(
    Array.from({ length: size }, async () => {
      while (next < count) await task((next += 1) - 1);
    })
  );
}
