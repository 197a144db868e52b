#!/usr/bin/env node
'use strict';
/**
 * bench/scrapers-target: what writing a run's items into a content type costs (docs/scrapers.md#writing-into-a-content-type).
 *
 * This process serves a shop on 127.0.0.1: a start page linking to --pages pages of --items
 * products each (sku, name, price), --pages × --items items in all (1,000 by default). Each
 * round the shop's catalogue is replaced by new skus, and three runs crawl it, the first two in
 * alternating order so a slow spell of the machine falls on both:
 *   results: a scraper without a target (its results stored, nothing written);
 *   create:  a scraper of the same settings with a target, `api::product.product` keyed by its
 *            `slug` (the sku), name and price mapped: every item creates a product through the
 *            document service;
 *   again:   the same target scraper run again on the same catalogue: every item unchanged,
 *            nothing written.
 * Per run, on the app's process (SQLite, in-process jobs): the run's time, its CPU time (utime +
 * stime from /proc/<pid>/stat) per item, and the tail from the site's last answer to the run's
 * finished_at, where the writing happens; writes/s is items ÷ (create's tail − results' tail).
 * Checked: every run completed with every item; the create run's report says every item created,
 * and the again run's every item unchanged (each found by its key, so one product per sku).
 * Figures are medians of the rounds. Prints one JSON line; progress goes to stderr.
 *
 * Usage: node bench/scrapers-target.js [--pages 2] [--items 500] [--rounds 3]
 */
const http = require('node:http');
const { performance } = require('node:perf_hooks');
const {
  benchEnv,
  compile,
  withStrapi,
  seedAdministrator,
  serve,
  progress,
  parseArgs,
  median,
  apiClient,
  runScraperToEnd,
} = require('./lib/app');

main().catch((error) => {
  process.stderr.write(`${error.stack || error}\n`);
  process.exit(1);
});

async function main() {
  const args = parseArgs();
  const pages = Number(args.pages ?? 2);
  const items = Number(args.items ?? 500);
  const rounds = Number(args.rounds ?? 3);
  const total = pages * items;
  progress('compiling the app');
  await compile();
  const env = { ...benchEnv('scrapers-target'), OUTBOUND_ALLOW_PRIVATE: 'true' };
  const shop = await startShop({ pages, items });
  let server;
  try {
    progress('seeding an administrator (only administrators may give a scraper a target)');
    const { jwt } = await withStrapi(env, (strapi) => seedAdministrator(strapi));
    server = await serve(env);
    const api = apiClient(server.url, jwt);
    const common = {
      url: `${shop.url}/`,
      follow_links: true,
      rate_limit: 100,
      max_pages: pages + 1,
      respect_robots_txt: false,
      selectors: { item: '.p', fields: { sku: '.sku', name: '.name', price: '.price' } },
    };
    const target = { type: 'api::product.product', key: 'slug', fields: { slug: 'sku', name: 'name', price: 'price' } };

    progress('round 0 warms up: the three runs, not measured');
    const figures = { results: [], create: [], again: [] };
    for (let round = 0; round <= rounds; round += 1) {
      shop.renew();
      const results = (await api.call('POST', '/api/v1/scrapers', { name: `results ${round}`, ...common }, 201)).body.id;
      const writing = (await api.call('POST', '/api/v1/scrapers', { name: `target ${round}`, ...common, target }, 201)).body.id;
      const order = round % 2 === 1 ? ['results', 'create'] : ['create', 'results'];
      const measured = {};
      for (const arm of order)
        measured[arm] = await runScraperToEnd({
          api,
          server,
          lastAnswerAt: shop.lastAnswerAt,
          scraperId: arm === 'results' ? results : writing,
          total,
        });
      measured.again = await runScraperToEnd({ api, server, lastAnswerAt: shop.lastAnswerAt, scraperId: writing, total });
      check(measured, total);
      if (round === 0) continue;
      for (const arm of Object.keys(figures)) figures[arm].push(measured[arm]);
      progress(
        `round ${round}: results ${measured.results.run_ms} ms, create ${measured.create.run_ms} ms (tail ${measured.create.tail_ms} ms), again ${measured.again.run_ms} ms; CPU/item ${measured.results.cpu_us_per_item} / ${measured.create.cpu_us_per_item} / ${measured.again.cpu_us_per_item} µs`
      );
    }

    const med = (arm, key) => median(figures[arm].map((entry) => entry[key]));
    const arm = (name) => ({
      run_ms: med(name, 'run_ms'),
      tail_ms: med(name, 'tail_ms'),
      cpu_us_per_item: med(name, 'cpu_us_per_item'),
      rounds_run_ms: figures[name].map((entry) => entry.run_ms),
    });
    const writing = figures.create.map((entry, index) => entry.tail_ms - figures.results[index].tail_ms);
    process.stdout.write(
      `${JSON.stringify({
        bench: 'scrapers-target',
        database: 'sqlite',
        jobs: 'in-process',
        items_per_run: total,
        pages,
        rounds,
        results: arm('results'),
        create: arm('create'),
        again: arm('again'),
        write_ms: median(writing),
        writes_per_s: Math.round((total * 1000) / median(writing)),
        create_vs_results_run_time: round3(med('create', 'run_ms') / med('results', 'run_ms')),
        again_vs_results_run_time: round3(med('again', 'run_ms') / med('results', 'run_ms')),
      })}\n`
    );
  } finally {
    await server?.stop().catch(() => undefined);
    await shop.close();
  }
  process.exit(0);
}

function check(measured, total) {
  const created = measured.create.run.target_report;
  const again = measured.again.run.target_report;
  if (measured.results.run.target_report !== null) throw new Error('the results arm wrote something');
  if (created.created !== total || created.failed_count !== 0) throw new Error(`create: ${JSON.stringify(created)}`);
  if (again.unchanged !== total || again.created + again.updated + again.failed_count !== 0)
    throw new Error(`again: ${JSON.stringify(again)}`);
}

/** A start page linking to every page; each page lists `items` products of the current catalogue. */
async function startShop({ pages, items }) {
  let generation = 0;
  let catalogue = [];
  let lastAnswerAt = 0;
  const prefix = () => `G${generation}-`;
  const render = (page) =>
    catalogue
      .slice(page * items, (page + 1) * items)
      .map(
        (product) =>
          `<div class="p"><span class="sku">${product.sku}</span><span class="name">${product.name}</span><span class="price">${product.price}</span></div>`
      )
      .join('');
  const server = http.createServer((req, res) => {
    const match = /^\/p\/(\d+)$/.exec(req.url ?? '/');
    const body = match
      ? render(Number(match[1]))
      : Array.from({ length: pages }, (_, page) => `<a href="/p/${page}">${page}</a>`).join(' ');
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><html><head><title>Shop</title></head><body>${body}</body></html>`, () => (lastAnswerAt = performance.now()));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    lastAnswerAt: () => lastAnswerAt,
    prefix,
    /** A new catalogue of as many products, none of whose skus the site has seen. */
    renew() {
      generation += 1;
      catalogue = Array.from({ length: pages * items }, (_, index) => ({
        sku: `${prefix()}${String(index).padStart(6, '0')}`,
        name: `Product ${generation}.${index}`,
        price: ((index % 97) + 0.99).toFixed(2),
      }));
    },
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

function round3(value) {
  return Math.round(value * 1000) / 1000;
}
