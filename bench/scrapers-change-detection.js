#!/usr/bin/env node
'use strict';
/**
 * bench/scrapers-change-detection: what change detection costs a completed run, per item.
 *
 * This process serves a shop on 127.0.0.1: a start page linking to --pages pages of --items
 * products each (sku, name, price). Two scrapers crawl it with the same settings, one with
 * `change_detection: { key: "sku" }` (on), one without (off). Before each round the shop's
 * catalogue changes by --churn (half of that changed prices, half removed and replaced by new skus);
 * then both scrapers run over that same catalogue, in alternating order, so a slow spell of the
 * machine falls on both arms. Per run, measured on the app's process (sqlite, in-process jobs):
 *   cpu:   its CPU time (utime + stime from /proc/<pid>/stat) from the run request to the run's
 *          end, per item collected;
 *   tail:  from the site's last answer to the run's finished_at: where the comparison happens.
 * Checked: both runs completed with every item; the on arm's counts are exactly the churn made
 * (after the first round), the off arm's are null. Figures are medians of the rounds; `cost` is
 * on minus off. Prints one JSON line; progress goes to stderr.
 *
 * Usage: node bench/scrapers-change-detection.js [--pages 20] [--items 500] [--rounds 5] [--churn 0.06]
 */
const http = require('node:http');
const { performance } = require('node:perf_hooks');
const { benchEnv, compile, seedUser, serve, progress, parseArgs, median, apiClient, runScraperToEnd } = require('./lib/app');

main().catch((error) => {
  process.stderr.write(`${error.stack || error}\n`);
  process.exit(1);
});

async function main() {
  const args = parseArgs();
  const pages = Number(args.pages ?? 20);
  const items = Number(args.items ?? 500);
  const rounds = Number(args.rounds ?? 5);
  const churn = Number(args.churn ?? 0.06);
  const total = pages * items;
  progress('compiling the app');
  await compile();
  const env = { ...benchEnv('scrapers-change-detection'), OUTBOUND_ALLOW_PRIVATE: 'true' };
  const shop = await startShop({ pages, items });
  let server;
  try {
    progress('seeding a user');
    const jwt = await seedUser(env);
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
    const arms = {
      off: (await api.call('POST', '/api/v1/scrapers', { name: 'off', ...common }, 201)).body.id,
      on: (await api.call('POST', '/api/v1/scrapers', { name: 'on', change_detection: { key: 'sku' }, ...common }, 201)).body.id,
    };

    progress(`warming up: one run of each arm (${total} items), which also gives the on arm its first state`);
    for (const id of Object.values(arms)) await runScraperToEnd({ api, server, lastAnswerAt: shop.lastAnswerAt, scraperId: id, total });

    const figures = { off: [], on: [] };
    for (let round = 1; round <= rounds; round += 1) {
      const made = shop.churn(churn);
      for (const arm of round % 2 === 1 ? ['off', 'on'] : ['on', 'off']) {
        const result = await runScraperToEnd({ api, server, lastAnswerAt: shop.lastAnswerAt, scraperId: arms[arm], total });
        const counts = [result.run.items_new, result.run.items_changed, result.run.items_removed];
        const expected = arm === 'on' ? [made.added, made.changed, made.removed] : [null, null, null];
        if (JSON.stringify(counts) !== JSON.stringify(expected))
          throw new Error(`${arm} round ${round}: counts ${JSON.stringify(counts)}, expected ${JSON.stringify(expected)}`);
        figures[arm].push(result);
        progress(
          `round ${round} ${arm}: ${result.cpu_us_per_item} µs CPU/item, tail ${result.tail_ms} ms, run ${result.run_ms} ms${arm === 'on' ? `, new/changed/removed ${counts.join('/')}` : ''}`
        );
      }
    }

    const med = (arm, key) => median(figures[arm].map((entry) => entry[key]));
    const armFigures = (arm) => ({
      cpu_us_per_item: med(arm, 'cpu_us_per_item'),
      tail_ms: med(arm, 'tail_ms'),
      run_ms: med(arm, 'run_ms'),
      rounds_cpu_us_per_item: figures[arm].map((entry) => entry.cpu_us_per_item),
      rounds_tail_ms: figures[arm].map((entry) => entry.tail_ms),
    });
    const off = armFigures('off');
    const on = armFigures('on');
    process.stdout.write(
      `${JSON.stringify({
        bench: 'scrapers-change-detection',
        database: 'sqlite',
        jobs: 'in-process',
        items_per_run: total,
        pages,
        churn,
        rounds,
        off,
        on,
        cost: {
          cpu_us_per_item: round1(on.cpu_us_per_item - off.cpu_us_per_item),
          tail_us_per_item: round1(((on.tail_ms - off.tail_ms) * 1000) / total),
          cpu_ratio: round3(on.cpu_us_per_item / off.cpu_us_per_item),
        },
      })}\n`
    );
  } finally {
    await server?.stop().catch(() => undefined);
    await shop.close();
  }
  process.exit(0);
}

/** A start page linking to every page; each page lists `items` products of the current catalogue. */
async function startShop({ pages, items }) {
  let next = 0;
  const sku = () => `SKU-${String((next += 1)).padStart(7, '0')}`;
  let catalogue = Array.from({ length: pages * items }, () => ({ sku: sku(), name: `Product ${next}`, price: (next % 97) + 0.99 }));
  let lastAnswerAt = 0;
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
    /** Change `fraction` of the catalogue, keeping its size: half new prices, half removed and replaced by new skus. */
    churn(fraction) {
      const touched = Math.round(catalogue.length * fraction);
      const changed = Math.ceil(touched / 2);
      const removed = touched - changed;
      const positions = shuffle([...catalogue.keys()]).slice(0, touched);
      for (const position of positions.slice(0, changed))
        catalogue[position] = { ...catalogue[position], price: round1(catalogue[position].price + 1) };
      const gone = new Set(positions.slice(changed));
      catalogue = catalogue.filter((_, position) => !gone.has(position));
      for (let index = 0; index < removed; index += 1) catalogue.push({ sku: sku(), name: `Product ${next}`, price: 5.99 });
      return { added: removed, changed, removed };
    },
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

function shuffle(values) {
  for (let index = values.length - 1; index > 0; index -= 1) {
    const other = Math.floor(Math.random() * (index + 1));
    [values[index], values[other]] = [values[other], values[index]];
  }
  return values;
}

const round1 = (value) => Math.round(value * 10) / 10;
const round3 = (value) => Math.round(value * 1000) / 1000;
