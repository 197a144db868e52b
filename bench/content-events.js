#!/usr/bin/env node
'use strict';
/**
 * bench/content-events: what the site's own content types' events cost the writes that cause them.
 *
 * Writes through the document service, in code (as a script or a controller would): authors
 * created then updated, and pages (draft & publish) created then published, by `--writers`
 * concurrent loops for `--writes` documents a round. Two arms on the same database, in
 * alternating rounds (A B B A …), each a fresh boot:
 *   - seeds: only the seeds' types (articles, products) watched, as before this release: writes of
 *     authors and pages announce nothing (WEBHOOK_CONTENT_TYPES=api::article.article,api::product.product);
 *   - every: every `api::` type watched (the default), with one subscriber of author.* and page.*
 *     events, so every write reads its document with its relations and publishes a delivery.
 * A round's time runs until its writes are done AND their events are written: the content outbox
 * empty and the publishes settled. Every write of a watched type also records its change in the
 * outbox in its own transaction, so the every arm pays for that too.
 * The figure is every/seeds throughput.
 *
 * Then fan-out: one content event (comment.created) published to `--fanout` subscriptions, against
 * one seed event (article.created) to as many, alternating: time to the publish's answer.
 *
 * WEBHOOK_WORKER=false: deliveries are written but not sent, so only publishing is measured.
 * Prints one JSON line. Usage: node bench/content-events.js [--writes 400] [--writers 8] [--rounds 4] [--fanout 1000]
 */
const { fork } = require('node:child_process');
const { benchEnv, compile, withStrapi, progress, parseArgs, median, round } = require('./lib/app');

const args = parseArgs();
const WRITES = Number(args.writes ?? 400);
const WRITERS = Number(args.writers ?? 8);
const ROUNDS = Number(args.rounds ?? 4);
const FANOUT = Number(args.fanout ?? 1000);
const CONSUMER = 'c0c0c0c0-0000-4000-8000-000000000000';
const FAN_CONSUMER = 'f0f0f0f0-0000-4000-8000-000000000000';
const SEEDS_ONLY = 'api::article.article,api::product.product';

if (args.child) {
  // One round in a process of its own: Strapi boots once per process.
  const env = JSON.parse(process.env.BENCH_CHILD_ENV);
  withStrapi(env, (strapi) => (args.child === 'fanout' ? fanoutRounds(strapi) : writeRound(strapi, args.tag)))
    .then((figures) => {
      process.send(figures);
      process.exit(0);
    })
    .catch((error) => {
      process.stderr.write(`${error.stack}\n`);
      process.exit(1);
    });
} else {
  main().catch((error) => {
    process.stderr.write(`${error.stack}\n`);
    process.exit(1);
  });
}

/** Run `what` in a child process with `env`; resolves with what it reports. */
function inChild(what, env, tag = '') {
  return new Promise((resolve, reject) => {
    const child = fork(
      __filename,
      [`--child ${what}`, `--tag ${tag}`, `--writes ${WRITES}`, `--writers ${WRITERS}`, `--fanout ${FANOUT}`],
      {
        env: { ...process.env, BENCH_CHILD_ENV: JSON.stringify(env) },
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      }
    );
    let figures;
    child.on('message', (message) => {
      figures = message;
    });
    child.on('exit', (code) => (code === 0 && figures ? resolve(figures) : reject(new Error(`the ${what} round exited with ${code}`))));
  });
}

async function main() {
  progress('compiling the app');
  await compile();
  const env = { ...benchEnv('content-events'), WEBHOOK_WORKER: 'false', SCRAPER_WORKER: 'false', OUTBOUND_ALLOW_PRIVATE: 'true' };

  progress(`setting up: a subscriber of author.* and page.*, and ${FANOUT} subscriptions of comment.created and article.created`);
  await withStrapi(env, async (strapi) => {
    const subscriptions = strapi.plugin('api-suite').service('webhook-subscriptions');
    await subscriptions.create(CONSUMER, {
      endpoint_url: 'http://127.0.0.1:9/content',
      events: ['author.created', 'author.updated', 'page.created', 'page.published'],
    });
    for (let index = 0; index < FANOUT; index += 1) {
      // Types the write rounds do not write: each write pays for its one subscriber, not a thousand.
      await subscriptions.create(FAN_CONSUMER, {
        endpoint_url: `http://127.0.0.1:9/f${index}`,
        events: ['comment.created', 'article.created'],
      });
      if ((index + 1) % 250 === 0) progress(`  ${index + 1} of ${FANOUT} fan-out subscriptions`);
    }
  });

  const arms = { seeds: { ...env, WEBHOOK_CONTENT_TYPES: SEEDS_ONLY }, every: env };
  const results = { seeds: [], every: [] };
  const order = [];
  for (let index = 0; index < ROUNDS; index += 1) order.push(...(index % 2 === 0 ? ['seeds', 'every'] : ['every', 'seeds']));
  let deliveriesWritten = 0;
  for (const [index, arm] of order.entries()) {
    progress(`writes ${index + 1}/${order.length} (${arm}): ${WRITES} authors and ${WRITES} pages by ${WRITERS} writers`);
    const figures = await inChild('writes', arms[arm], `${arm}-${index}`);
    results[arm].push(figures.perSecond);
    if (arm === 'every') deliveriesWritten += figures.deliveries;
  }
  if (deliveriesWritten === 0) throw new Error('the every arm wrote no delivery: its events were not published');

  progress(`fan-out: comment.created and article.created to ${FANOUT} subscriptions each, alternating`);
  const fanout = await inChild('fanout', env);

  const seeds = median(results.seeds);
  const every = median(results.every);
  process.stdout.write(
    `${JSON.stringify({
      bench: 'content-events',
      database: process.env.DATABASE_CLIENT === 'postgres' ? 'postgres' : 'sqlite',
      writes_per_round: WRITES * 4,
      writers: WRITERS,
      rounds: ROUNDS,
      seeds_only_writes_per_s: round(seeds),
      every_type_writes_per_s: round(every),
      every_to_seeds_throughput: round(every / seeds, 3),
      rounds_seeds_writes_per_s: results.seeds.map((value) => round(value)),
      rounds_every_writes_per_s: results.every.map((value) => round(value)),
      content_events_cost_percent: round((1 - every / seeds) * 100, 1),
      fanout_subscriptions: FANOUT,
      fanout_content_event_ms: round(fanout.content),
      fanout_seed_event_ms: round(fanout.seed),
      fanout_content_to_seed: round(fanout.content / fanout.seed, 3),
    })}\n`
  );
  process.exit(0);
}

/** One round of writes: each writer creates then changes its documents; done when their events are written too. */
async function writeRound(strapi, tag) {
  const authors = strapi.documents('api::author.author');
  const pages = strapi.documents('api::page.page');
  const knex = strapi.db.connection;
  const deliveriesBefore = Number((await knex('api_suite_webhook_deliveries').count({ n: '*' }))[0].n);
  let next = 0;
  const started = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: WRITERS }, async () => {
      while (next < WRITES) {
        const index = next;
        next += 1;
        const author = await authors.create({ data: { name: `Author ${tag}-${index}`, email: `a${index}@example.test` } });
        await authors.update({ documentId: author.documentId, data: { name: `Author ${tag}-${index} (renamed)` } });
        const page = await pages.create({ data: { title: `Page ${tag}-${index}`, body: 'A page body of a realistic length. '.repeat(8) } });
        await pages.publish({ documentId: page.documentId });
      }
    })
  );
  // Content events are published from the outbox after their commit: wait until every change
  // recorded is published (the outbox empty) and the publishes are written.
  for (;;) {
    await strapi.plugin('api-suite').service('webhooks').settle();
    const [{ n }] = await knex('api_suite_content_outbox').count({ n: '*' });
    if (Number(n) === 0) break;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const deliveries = Number((await knex('api_suite_webhook_deliveries').count({ n: '*' }))[0].n) - deliveriesBefore;
  return { perSecond: (WRITES * 4) / seconds, deliveries };
}

/** Median time to the answer of one publish to FANOUT subscriptions, for a content event and a seed event. */
async function fanoutRounds(strapi) {
  const webhooks = strapi.plugin('api-suite').service('webhooks');
  const comment = {
    id: 1,
    documentId: 'a1b2c3d4e5f6a7b8c9d0e1f2',
    body: 'Fan',
    author_name: null,
    article: null,
    createdAt: new Date().toISOString(),
    updatedAt: new Date().toISOString(),
    publishedAt: new Date().toISOString(),
    locale: null,
  };
  const article = {
    id: '1b4e28ba-2fa1-4d2b-a9c1-6b0a3f1c9d2e',
    title: 'Fan',
    slug: 'fan',
    status: 'draft',
    createdAt: comment.createdAt,
    updatedAt: comment.updatedAt,
  };
  const times = { content: [], seed: [] };
  for (let index = 0; index < 6; index += 1) {
    for (const kind of index % 2 === 0 ? ['content', 'seed'] : ['seed', 'content']) {
      const started = process.hrtime.bigint();
      const [published] =
        kind === 'content'
          ? await webhooks.publishChecked([{ type: 'comment.created', payload: comment }])
          : await webhooks.publishMany([{ type: 'article.created', payload: article }]);
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      if (published.deliveries !== FANOUT) throw new Error(`${kind} fan-out made ${published.deliveries} deliveries, not ${FANOUT}`);
      if (index > 0) times[kind].push(ms);
    }
  }
  return { content: median(times.content), seed: median(times.seed) };
}
