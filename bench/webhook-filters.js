#!/usr/bin/env node
'use strict';
/**
 * bench/webhook-filters: what payload filters cost publishing (docs/webhooks.md#payload-filters).
 *
 * 1. fan-out: one order.paid event to `--fanout` (10,000) subscriptions, each with a filter, half
 *    of which match (`total >= 100` against `total < 100`): time to the publish's answer (deliveries
 *    written and queued), with the subscribers cached as publishing keeps them (warm), and after
 *    every cache was cleared, so that the round reads the 10,000 subscriptions and compiles their
 *    filters (cold, as after an edit). Baseline in the same run: one order.updated event to half as
 *    many subscriptions without a filter, which writes the same number of deliveries. Alternating
 *    rounds, medians.
 * 2. CPU per event: `--events` order.created events published in batches of 50 to `--subscribers`
 *    subscriptions, every one with a filter they all match (so both arms write the same
 *    deliveries), against the same subscriptions with no filter; the process's CPU time (user +
 *    system) per event, alternating arms, medians. SQLite runs in this process, so its writes
 *    count in both arms; PostgreSQL's (DATABASE_CLIENT=postgres) do not.
 *
 * WEBHOOK_WORKER=false: deliveries are written and queued but not sent, so only publishing is
 * measured. Prints one JSON line; progress goes to stderr.
 * Usage: node bench/webhook-filters.js [--fanout 10000] [--subscribers 50] [--events 1000] [--rounds 6]
 */
const { benchEnv, compile, withStrapi, progress, parseArgs, median, round } = require('./lib/app');

const args = parseArgs();
const FANOUT = Number(args.fanout ?? 10_000);
const SUBSCRIBERS = Number(args.subscribers ?? 50);
const EVENTS = Number(args.events ?? 1_000);
const ROUNDS = Number(args.rounds ?? 6);
const BATCH = 50;
const FAN_CONSUMER = 'f1f1f1f1-0000-4000-8000-000000000000';
const CPU_CONSUMER = 'c1c1c1c1-0000-4000-8000-000000000000';
/** A filter every benchmark order matches, with the operators subscribers write most: a comparison, an alternative, a presence test. */
const MATCHING = { $or: [{ total: { $gte: 0 } }, { status: 'paid' }], created_at: { $notNull: true }, id: { $startsWith: 'bench-' } };

function order(n, total) {
  return { id: `bench-${n}`, status: 'pending', total, created_at: '2026-11-27T10:00:00.000Z' };
}

main().catch((error) => {
  process.stderr.write(`${error.stack}\n`);
  process.exit(1);
});

async function main() {
  progress('compiling the app');
  await compile();
  const env = { ...benchEnv('webhook-filters'), WEBHOOK_WORKER: 'false', SCRAPER_WORKER: 'false', OUTBOUND_ALLOW_PRIVATE: 'true' };
  const figures = await withStrapi(env, async (strapi) => {
    const subscriptions = strapi.plugin('api-suite').service('webhook-subscriptions');
    const webhooks = strapi.plugin('api-suite').service('webhooks');
    const knex = strapi.db.connection;

    progress(
      `setting up: ${FANOUT} filtered subscriptions of order.paid, ${FANOUT / 2} plain ones of order.updated, ${SUBSCRIBERS} of order.created`
    );
    for (let index = 0; index < FANOUT; index += 1) {
      await subscriptions.create(FAN_CONSUMER, {
        endpoint_url: `http://127.0.0.1:9/f${index}`,
        events: ['order.paid'],
        filter: index % 2 === 0 ? { total: { $gte: 100 } } : { total: { $lt: 100 } },
      });
      if (index < FANOUT / 2)
        await subscriptions.create(FAN_CONSUMER, { endpoint_url: `http://127.0.0.1:9/p${index}`, events: ['order.updated'] });
      if ((index + 1) % 1000 === 0) progress(`  ${index + 1} of ${FANOUT}`);
    }
    const cpuIds = [];
    for (let index = 0; index < SUBSCRIBERS; index += 1) {
      const { row } = await subscriptions.create(CPU_CONSUMER, { endpoint_url: `http://127.0.0.1:9/c${index}`, events: ['order.created'] });
      cpuIds.push(row.id);
    }

    progress(`fan-out: ${ROUNDS} rounds of each, alternating`);
    const fan = { filtered: [], cold: [], plain: [] };
    for (let index = 0; index <= ROUNDS; index += 1) {
      for (const arm of index % 2 === 0 ? ['filtered', 'cold', 'plain'] : ['plain', 'cold', 'filtered']) {
        if (arm === 'cold') await subscriptions.forget('*');
        const started = process.hrtime.bigint();
        const [published] =
          arm !== 'plain'
            ? await webhooks.publishMany([{ type: 'order.paid', payload: order(index, 150) }], { consumerId: FAN_CONSUMER })
            : await webhooks.publishMany([{ type: 'order.updated', payload: order(index, 150) }], { consumerId: FAN_CONSUMER });
        const ms = Number(process.hrtime.bigint() - started) / 1e6;
        if (published.deliveries !== FANOUT / 2)
          throw new Error(`${arm} fan-out made ${published.deliveries} deliveries, not ${FANOUT / 2}`);
        // The first round loads and compiles the subscriptions: it is left out, as a warm-up.
        if (index > 0) fan[arm].push(ms);
      }
    }

    progress(`CPU per event: ${EVENTS} events to ${SUBSCRIBERS} subscribers a round, with and without filters, alternating`);
    const setFilters = async (on) => {
      await knex('api_suite_webhook_subscriptions')
        .whereIn('id', cpuIds)
        .update({ filter: on ? JSON.stringify(MATCHING) : null });
      await subscriptions.forget('*');
    };
    const cpu = { filtered: [], plain: [] };
    let sequence = 0;
    for (let index = 0; index <= ROUNDS; index += 1) {
      for (const arm of index % 2 === 0 ? ['filtered', 'plain'] : ['plain', 'filtered']) {
        await setFilters(arm === 'filtered');
        const before = process.cpuUsage();
        for (let sent = 0; sent < EVENTS; sent += BATCH) {
          const events = Array.from({ length: BATCH }, () => ({ type: 'order.created', payload: order((sequence += 1), 42) }));
          const published = await webhooks.publishMany(events, { consumerId: CPU_CONSUMER });
          const made = published.reduce((sum, result) => sum + result.deliveries, 0);
          if (made !== BATCH * SUBSCRIBERS) throw new Error(`${arm}: ${made} deliveries for ${BATCH} events, not ${BATCH * SUBSCRIBERS}`);
        }
        const used = process.cpuUsage(before);
        if (index > 0) cpu[arm].push((used.user + used.system) / 1000 / EVENTS);
      }
      progress(`  round ${index} of ${ROUNDS}`);
    }
    return { fan, cpu };
  });

  const filteredMs = median(figures.fan.filtered);
  const coldMs = median(figures.fan.cold);
  const plainMs = median(figures.fan.plain);
  const filteredCpu = median(figures.cpu.filtered);
  const plainCpu = median(figures.cpu.plain);
  process.stdout.write(
    `${JSON.stringify({
      bench: 'webhook-filters',
      database: process.env.DATABASE_CLIENT === 'postgres' ? 'postgres' : 'sqlite',
      rounds: ROUNDS,
      fanout_subscriptions: FANOUT,
      fanout_deliveries: FANOUT / 2,
      fanout_filtered_ms: round(filteredMs),
      fanout_filtered_cold_ms: round(coldMs),
      fanout_unfiltered_same_deliveries_ms: round(plainMs),
      fanout_filtered_to_unfiltered: round(filteredMs / plainMs, 3),
      cpu_subscribers: SUBSCRIBERS,
      cpu_events_per_round: EVENTS,
      cpu_ms_per_event_filtered: round(filteredCpu, 3),
      cpu_ms_per_event_unfiltered: round(plainCpu, 3),
      cpu_filtered_to_unfiltered: round(filteredCpu / plainCpu, 3),
    })}\n`
  );
  process.exit(0);
}
