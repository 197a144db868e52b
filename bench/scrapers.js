#!/usr/bin/env node
'use strict';
/**
 * bench/scrapers: scraper runs (docs/scrapers.md) against a minimal crawler, in one run.
 *
 * This process serves a site on 127.0.0.1 (--pages pages of --items products each, every page
 * linking to four others, a robots.txt) and timestamps every request it receives, so both arms
 * are measured at the same place. Each round, in alternating order:
 *   plugin:   the app in its own process (sqlite, in-process jobs); POST /api/v1/scrapers/:id/run
 *             of a scraper with follow_links, rate_limit 100 (the maximum) and max_pages = --pages;
 *             the run polled every 250 ms until the run ends. Checked: the run completed, every
 *             page was fetched exactly once, pages x items results were stored.
 *   baseline: the same crawl by a minimal crawler (undici + cheerio + robots-parser, the same
 *             selectors, the same 100 req/s spacing, the same 4 requests at a time, results written
 *             200 at a time with better-sqlite3 in WAL mode), in a child process of this one.
 * For both: requests/s achieved as seen by the site (against the rate limit) and CPU time of the
 * crawling process (utime + stime from /proc/<pid>/stat) per page. The plugin's CPU includes
 * what the app does around a run (its status polls, the run's heartbeat, its events).
 * Then, on that round's run:
 *   export:   GET …/results?run_id&format=ndjson and format=csv, rows/s with the rows checked;
 *             baseline the paged JSON read (limit=100, page after page) of the same rows, and as
 *             a floor a plain SELECT of them straight from the SQLite file.
 *   stop:     a second scraper over the site's slow pages (each answers after --slow-ms): once
 *             four requests are in flight, POST …/stop, then how long until the site has no
 *             request open and sees no new one, and until /status says stopped.
 * Figures are medians of the rounds. Prints one JSON line; progress goes to stderr.
 *
 * Usage: node bench/scrapers.js [--pages 500] [--items 20] [--rounds 3] [--slow-ms 2000]
 */
const http = require('node:http');
const path = require('node:path');
const { fork } = require('node:child_process');
const { performance } = require('node:perf_hooks');
const { benchEnv, compile, seedUser, serve, progress, parseArgs, median, cpuMs, apiClient } = require('./lib/app');

const RATE_LIMIT = 100;
/** The plugin's crawler runs 4 requests at a time (crawl()'s default; crawlFor() passes none). */
const CRAWL_CONCURRENCY = 4;
const RESULT_BATCH = 200;
const USER_AGENT = 'strapi-plugin-api-suite';
const SELECTORS = { item: '.product', fields: { name: '.name', price: '.price' } };
const TERMINAL = ['completed', 'failed', 'stopped'];

if (process.env.BENCH_SCRAPERS_ROLE === 'baseline') {
  baselineChild();
} else {
  main().catch((error) => {
    process.stderr.write(`${error.stack || error}\n`);
    process.exit(1);
  });
}

async function main() {
  const args = parseArgs();
  const pages = Number(args.pages ?? 500);
  const items = Number(args.items ?? 20);
  const rounds = Number(args.rounds ?? 3);
  const slowMs = Number(args['slow-ms'] ?? 2000);
  if (!(pages >= 20 && pages <= 10_000)) throw new Error('--pages must be between 20 and 10000 (max_pages allows at most 10000)');
  if (!(items >= 1)) throw new Error('--items must be 1 or more');
  const expectedItems = pages * items;

  progress('compiling the app');
  await compile();
  const env = { ...benchEnv('scrapers'), OUTBOUND_ALLOW_PRIVATE: 'true' };
  const site = await startSite({ pages, items, slowMs });
  const baseline = startBaseline(path.join(path.dirname(env.DATABASE_FILENAME), 'baseline.db'));
  let server;
  try {
    progress('seeding a user');
    const jwt = await seedUser(env);

    server = await serve(env);
    const api = apiClient(server.url, jwt);
    const create = async (body) => (await api.call('POST', '/api/v1/scrapers', body, 201)).body;
    const common = { rate_limit: RATE_LIMIT, follow_links: true, selectors: SELECTORS, respect_robots_txt: true };
    const shop = await create({ name: 'bench', url: `${site.url}/p/0`, max_pages: pages, ...common });
    const warm = await create({ name: 'bench-warm-up', url: `${site.url}/p/0`, max_pages: 50, ...common });
    const slow = await create({ name: 'bench-slow', url: `${site.url}/slow/0`, max_pages: 10_000, ...common });

    progress('warming up both crawlers (50 pages each)');
    await pluginCrawl({ api, server, site, scraperId: warm.id, pages: 50, items });
    await baselineCrawl({ baseline, site, pages: 50, items, runId: 0 });

    const plugin = [];
    const plain = [];
    const exportRounds = [];
    const stops = [];
    for (let round = 1; round <= rounds; round += 1) {
      for (const arm of round % 2 === 1 ? ['baseline', 'plugin'] : ['plugin', 'baseline']) {
        if (arm === 'plugin') {
          const result = await pluginCrawl({ api, server, site, scraperId: shop.id, pages, items });
          plugin.push(result);
          progress(
            `round ${round} plugin: ${result.requests_per_s} req/s, ${result.cpu_ms_per_page} ms CPU/page, first request after ${result.start_latency_ms} ms, ${result.items_stored} items`
          );
        } else {
          const result = await baselineCrawl({ baseline, site, pages, items, runId: round });
          plain.push(result);
          progress(`round ${round} baseline: ${result.requests_per_s} req/s, ${result.cpu_ms_per_page} ms CPU/page`);
        }
      }
      const exported = await exportRun({
        api,
        scraperId: shop.id,
        runId: plugin[plugin.length - 1].run_id,
        expected: expectedItems,
        pages,
        databaseFile: env.DATABASE_FILENAME,
      });
      exportRounds.push(exported);
      progress(
        `round ${round} export: ndjson ${exported.ndjson_rows_per_s} rows/s, csv ${exported.csv_rows_per_s}, paged json ${exported.paged_json_rows_per_s}, sqlite select ${exported.sqlite_select_rows_per_s}`
      );
      const stopped = await stopRun({ api, site, scraperId: slow.id, slowMs });
      stops.push(stopped);
      progress(
        `round ${round} stop: ${stopped.in_flight_at_stop} in flight, quiet after ${stopped.quiet_ms} ms, status stopped after ${stopped.status_stopped_ms} ms`
      );
    }

    const med = (list, key) => median(list.map((entry) => entry[key]));
    /** One crawler's figures: medians over the rounds, the worst second, and every round's rate and CPU. */
    const crawlFigures = (list, keys) => ({
      requests_per_s: med(list, 'requests_per_s'),
      rate_limit_ratio: round3(med(list, 'requests_per_s') / RATE_LIMIT),
      max_requests_in_any_second: Math.max(...list.map((entry) => entry.max_requests_in_any_second)),
      ...Object.fromEntries(keys.map((key) => [key, med(list, key)])),
      rounds_requests_per_s: list.map((entry) => entry.requests_per_s),
      rounds_cpu_ms_per_page: list.map((entry) => entry.cpu_ms_per_page),
    });
    const pluginFigures = {
      pages_crawled: pages,
      items_stored: expectedItems,
      ...crawlFigures(plugin, [
        'start_latency_ms',
        'run_answer_ms',
        'run_ms',
        'items_per_s',
        'last_request_to_finished_ms',
        'cpu_ms_per_page',
      ]),
    };
    const baselineFigures = {
      crawler: 'undici + cheerio + robots-parser, better-sqlite3 batches of 200',
      ...crawlFigures(plain, ['start_latency_ms', 'run_ms', 'items_per_s', 'cpu_ms_per_page']),
    };
    const exportFigures = {
      rows: expectedItems,
      ndjson_rows_per_s: med(exportRounds, 'ndjson_rows_per_s'),
      csv_rows_per_s: med(exportRounds, 'csv_rows_per_s'),
      paged_json_rows_per_s: med(exportRounds, 'paged_json_rows_per_s'),
      paged_json_requests: exportRounds[0].paged_json_requests,
      sqlite_select_rows_per_s: med(exportRounds, 'sqlite_select_rows_per_s'),
      ndjson_vs_paged_json: round3(med(exportRounds, 'ndjson_rows_per_s') / med(exportRounds, 'paged_json_rows_per_s')),
      csv_vs_paged_json: round3(med(exportRounds, 'csv_rows_per_s') / med(exportRounds, 'paged_json_rows_per_s')),
    };
    const stopFigures = {
      slow_page_ms: slowMs,
      in_flight_at_stop: med(stops, 'in_flight_at_stop'),
      aborted: med(stops, 'aborted'),
      completed_after_stop: Math.max(...stops.map((entry) => entry.completed_after_stop)),
      requests_started_after_stop: Math.max(...stops.map((entry) => entry.requests_started_after_stop)),
      in_flight_gone_ms: med(stops, 'in_flight_gone_ms'),
      quiet_ms: med(stops, 'quiet_ms'),
      worst_quiet_ms: Math.max(...stops.map((entry) => entry.quiet_ms)),
      answer_ms: med(stops, 'answer_ms'),
      status_stopped_ms: med(stops, 'status_stopped_ms'),
    };
    const rateRatio = round3(pluginFigures.requests_per_s / baselineFigures.requests_per_s);
    const cpuRatio = round3(pluginFigures.cpu_ms_per_page / baselineFigures.cpu_ms_per_page);
    process.stdout.write(
      `${JSON.stringify({
        bench: 'scrapers',
        database: 'sqlite',
        jobs: 'in-process',
        pages,
        items_per_page: items,
        rate_limit: RATE_LIMIT,
        crawl_concurrency: CRAWL_CONCURRENCY,
        rounds,
        plugin: pluginFigures,
        baseline: baselineFigures,
        rate_vs_baseline: rateRatio,
        cpu_per_page_vs_baseline: cpuRatio,
        export: exportFigures,
        stop: stopFigures,
        goal: { rate_limit_ratio_at_least: 0.95, stop_quiet_ms_below: 1000 },
        met: pluginFigures.rate_limit_ratio >= 0.95 && stopFigures.worst_quiet_ms < 1000,
      })}\n`
    );
  } finally {
    await server?.stop().catch(() => undefined);
    baseline.kill();
    await site.close();
  }
  process.exit(0);
}

/* ------------------------------------------------------------------ the site */

/**
 * /robots.txt, /p/0 … /p/<pages-1> (each `items` products and links to four other pages, all
 * reachable from /p/0), and the same under /slow/, each answered after `slowMs`. Every request is
 * a hit: `at` when it arrived, `end` when its answer was sent or the client went away (`aborted`).
 */
function startSite({ pages, items, slowMs }) {
  const hits = [];
  const render = (prefix, i) => {
    const products = [];
    for (let j = 0; j < items; j += 1) {
      products.push(
        `<div class="product"><h2 class="name">Product ${i}-${j}</h2><span class="price">${(i * 31 + j * 7) % 1000}.99</span></div>`
      );
    }
    const links = [i + 1, i + 2, i + 3, i * 7 + 11].map((n) => `<a href="/${prefix}/${n % pages}">page ${n % pages}</a>`);
    return `<!doctype html><html><head><title>Page ${i}</title></head><body><h1>Page ${i}</h1>${products.join('')}<nav>${links.join(' ')}</nav></body></html>`;
  };
  const fast = Array.from({ length: pages }, (_, i) => render('p', i));
  const server = http.createServer((req, res) => {
    const hit = { path: (req.url || '/').split('?')[0], at: performance.now(), end: null, aborted: false };
    hits.push(hit);
    let timer;
    res.on('close', () => {
      clearTimeout(timer);
      hit.end = performance.now();
      hit.aborted = !res.writableFinished;
    });
    if (hit.path === '/robots.txt') {
      res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nDisallow: /private\n');
      return;
    }
    const match = /^\/(p|slow)\/(\d+)$/.exec(hit.path);
    const i = match ? Number(match[2]) : -1;
    if (!match || i >= pages) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    const send = (html) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
    if (match[1] === 'p') send(fast[i]);
    else timer = setTimeout(() => send(render('slow', i)), slowMs);
  });
  server.keepAliveTimeout = 60_000;
  const sockets = new Set();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      resolve({
        url: `http://127.0.0.1:${server.address().port}`,
        hits,
        close: () =>
          new Promise((done) => {
            for (const socket of sockets) socket.destroy();
            server.close(() => done());
          }),
      });
    });
  });
}

/** Requests/s over an arm's hits (first to last arrival), and the most that arrived within any one second. */
function rateOf(hits) {
  const times = hits.map((hit) => hit.at).sort((a, b) => a - b);
  const span = (times[times.length - 1] - times[0]) / 1000;
  let most = 0;
  for (let first = 0, last = 0; last < times.length; last += 1) {
    while (times[last] - times[first] >= 1000) first += 1;
    most = Math.max(most, last - first + 1);
  }
  return { requests_per_s: span > 0 ? round1((times.length - 1) / span) : null, max_requests_in_any_second: most };
}

/** Exactly one request for robots.txt and one for each page, nothing else, all answered. */
function checkHits(label, hits, pages) {
  const robots = hits.filter((hit) => hit.path === '/robots.txt').length;
  const pagePaths = hits.filter((hit) => hit.path.startsWith('/p/')).map((hit) => hit.path);
  const other = hits.length - robots - pagePaths.length;
  const distinct = new Set(pagePaths).size;
  if (robots !== 1 || pagePaths.length !== pages || distinct !== pages || other !== 0) {
    throw new Error(
      `${label}: the site saw ${robots} robots.txt requests, ${pagePaths.length} page requests (${distinct} distinct) and ${other} others; expected 1 and ${pages}`
    );
  }
  const unanswered = hits.filter((hit) => hit.aborted).length;
  if (unanswered > 0) throw new Error(`${label}: ${unanswered} requests went away before their answer`);
}

/* ------------------------------------------------------------------ the plugin */

async function pluginCrawl({ api, server, site, scraperId, pages, items }) {
  const label = `plugin run of scraper ${scraperId}`;
  const mark = site.hits.length;
  const cpuBefore = cpuMs(server.pid);
  const sent = performance.now();
  const started = (await api.call('POST', `/api/v1/scrapers/${scraperId}/run`, undefined, 202)).body;
  const answered = performance.now();
  let run;
  const deadline = Date.now() + 600_000;
  while (!run) {
    if (Date.now() > deadline) throw new Error(`${label}: still not finished after 10 minutes`);
    await sleep(250);
    const current = (await api.call('GET', `/api/v1/scrapers/${scraperId}/runs/${started.run_id}`, undefined, 200)).body;
    if (TERMINAL.includes(current.status)) run = current;
  }
  const cpuAfter = cpuMs(server.pid);
  const expected = pages * items;
  if (run.status !== 'completed' || run.pages_fetched !== pages || run.pages_failed !== 0 || run.items_collected !== expected) {
    throw new Error(`${label}: ${JSON.stringify(run)}; expected completed with ${pages} pages, none failed, ${expected} items`);
  }
  const stored = (await api.call('GET', `/api/v1/scrapers/${scraperId}/results?run_id=${run.id}&limit=1`, undefined, 200)).body.meta.total;
  if (stored !== expected) throw new Error(`${label}: ${stored} results stored, expected ${expected}`);
  const hits = site.hits.slice(mark);
  checkHits(label, hits, pages);
  const runMs = Date.parse(run.finished_at) - Date.parse(run.started_at);
  const lastAt = performance.timeOrigin + Math.max(...hits.map((hit) => hit.at));
  return {
    run_id: run.id,
    items_stored: stored,
    ...rateOf(hits),
    start_latency_ms: round1(hits[0].at - sent),
    run_answer_ms: round1(answered - sent),
    run_ms: runMs,
    items_per_s: Math.round((expected * 1000) / runMs),
    last_request_to_finished_ms: Math.round(Date.parse(run.finished_at) - lastAt),
    cpu_ms_per_page: round3((cpuAfter - cpuBefore) / pages),
  };
}

/** Poll /status quickly while the slow run has four requests open, stop it, and watch the site. */
async function stopRun({ api, site, scraperId, slowMs }) {
  const label = `stop of scraper ${scraperId}`;
  const mark = site.hits.length;
  const started = (await api.call('POST', `/api/v1/scrapers/${scraperId}/run`, undefined, 202)).body;
  const open = () => site.hits.slice(mark).filter((hit) => hit.path.startsWith('/slow/') && hit.end === null);
  const deadline = Date.now() + 30_000 + slowMs * 2;
  while (open().length < CRAWL_CONCURRENCY) {
    if (Date.now() > deadline) throw new Error(`${label}: never had ${CRAWL_CONCURRENCY} requests in flight`);
    await sleep(10);
  }
  // Into the middle of those requests.
  await sleep(slowMs / 4);
  const inFlight = open();
  const stopAt = performance.now();
  const answer = (await api.call('POST', `/api/v1/scrapers/${scraperId}/stop`, undefined, 200)).body;
  const answeredAt = performance.now();
  if (answer.run_id !== started.run_id || answer.status !== 'stopped') throw new Error(`${label}: stop answered ${JSON.stringify(answer)}`);
  let statusAt;
  while (statusAt === undefined) {
    const status = (await api.call('GET', `/api/v1/scrapers/${scraperId}/status`, undefined, 200)).body;
    if (status.status === 'stopped') statusAt = performance.now();
    else if (performance.now() - stopAt > 30_000) throw new Error(`${label}: status still ${status.status} 30 s after the stop`);
    else await sleep(10);
  }
  // Long enough for a request that was not aborted to be answered, and for a late one to show.
  await sleep(slowMs + 1000);
  const hits = site.hits.slice(mark);
  const later = hits.filter((hit) => hit.at > stopAt);
  const now = performance.now();
  const endOf = (hit) => (hit.end ?? now) - stopAt;
  const inFlightGone = inFlight.length > 0 ? Math.max(...inFlight.map(endOf)) : 0;
  const quiet = Math.max(0, inFlightGone, ...later.map(endOf));
  const run = (await api.call('GET', `/api/v1/scrapers/${scraperId}/runs/${started.run_id}`, undefined, 200)).body;
  if (run.status !== 'stopped') throw new Error(`${label}: the run ended ${run.status}`);
  return {
    in_flight_at_stop: inFlight.length,
    aborted: inFlight.filter((hit) => hit.aborted).length,
    completed_after_stop: inFlight.filter((hit) => hit.end !== null && !hit.aborted).length,
    requests_started_after_stop: later.length,
    in_flight_gone_ms: round1(inFlightGone),
    quiet_ms: round1(quiet),
    answer_ms: round1(answeredAt - stopAt),
    status_stopped_ms: round1(statusAt - stopAt),
  };
}

/** NDJSON and CSV exports of one run, the paged JSON read of it, and a plain SELECT of it. */
async function exportRun({ api, scraperId, runId, expected, pages, databaseFile }) {
  const route = `/api/v1/scrapers/${scraperId}/results?run_id=${runId}`;
  const timed = async (format) => {
    const began = performance.now();
    const response = await api.call('GET', `${route}&format=${format}`, undefined, 200);
    return { seconds: (performance.now() - began) / 1000, response };
  };

  const ndjson = await timed('ndjson');
  if (!ndjson.response.headers.get('content-type')?.startsWith('application/x-ndjson'))
    throw new Error(`ndjson export: content-type ${ndjson.response.headers.get('content-type')}`);
  const lines = ndjson.response.body
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));
  checkRows(
    'ndjson export',
    lines.map((row) => ({ runId: row.run_id, url: row.url, name: row.data.name, price: row.data.price })),
    expected,
    pages,
    runId
  );

  const csv = await timed('csv');
  const [header, ...csvLines] = csv.response.body.split('\n').filter(Boolean);
  if (header !== 'id,run_id,url,created_at,name,price') throw new Error(`csv export: header ${header}`);
  checkRows(
    'csv export',
    csvLines.map((line) => {
      const [, run, url, , name, price] = line.split(',');
      return { runId: Number(run), url, name, price };
    }),
    expected,
    pages,
    runId
  );

  // The paged JSON read, 100 rows (the most) a request, as a client without the export would page.
  const began = performance.now();
  const paged = [];
  let requests = 0;
  for (let page = 1; ; page += 1) {
    const { body } = await api.call('GET', `${route}&limit=100&page=${page}`, undefined, 200);
    requests += 1;
    paged.push(...body.data);
    if (body.data.length < 100) break;
  }
  const pagedSeconds = (performance.now() - began) / 1000;
  checkRows(
    'paged json',
    paged.map((row) => ({ runId: row.run_id, url: row.url, name: row.data.name, price: row.data.price })),
    expected,
    pages,
    runId
  );

  // The floor: the rows straight from the SQLite file, each written out as an NDJSON line.
  const Database = require('better-sqlite3');
  const db = new Database(databaseFile, { readonly: true });
  const selectBegan = performance.now();
  let selected = 0;
  let bytes = 0;
  for (const row of db
    .prepare('SELECT id, run_id, url, data, created_at FROM api_suite_scraper_results WHERE run_id = ? ORDER BY id')
    .iterate(runId)) {
    bytes += JSON.stringify({ ...row, data: JSON.parse(row.data) }).length + 1;
    selected += 1;
  }
  const selectSeconds = (performance.now() - selectBegan) / 1000;
  db.close();
  if (selected !== expected || bytes === 0) throw new Error(`sqlite select: ${selected} rows, expected ${expected}`);

  return {
    ndjson_rows_per_s: Math.round(expected / ndjson.seconds),
    csv_rows_per_s: Math.round(expected / csv.seconds),
    paged_json_rows_per_s: Math.round(expected / pagedSeconds),
    paged_json_requests: requests,
    sqlite_select_rows_per_s: Math.round(expected / selectSeconds),
  };
}

/** Every expected row once: `pages` × items distinct products, each on its own page's URL, with a price. */
function checkRows(label, rows, expected, pages, runId) {
  if (rows.length !== expected) throw new Error(`${label}: ${rows.length} rows, expected ${expected}`);
  const names = new Set();
  const urls = new Set();
  for (const row of rows) {
    const match = /^Product (\d+)-\d+$/.exec(row.name ?? '');
    if (row.runId !== runId || !match || !row.url?.endsWith(`/p/${match[1]}`) || !/^\d+\.99$/.test(row.price ?? '')) {
      throw new Error(`${label}: unexpected row ${JSON.stringify(row)}`);
    }
    names.add(row.name);
    urls.add(row.url);
  }
  if (names.size !== expected || urls.size !== pages)
    throw new Error(`${label}: ${names.size} distinct products on ${urls.size} pages, expected ${expected} on ${pages}`);
}

/* ------------------------------------------------------------------ the baseline */

function startBaseline(databaseFile) {
  const child = fork(__filename, [], {
    env: { ...process.env, BENCH_SCRAPERS_ROLE: 'baseline', BENCH_SCRAPERS_DB: databaseFile },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const ready = new Promise((resolve) => child.once('message', resolve));
  return {
    pid: child.pid,
    async crawl(options) {
      await ready;
      const answer = new Promise((resolve, reject) => {
        child.once('message', (message) => (message.error ? reject(new Error(`baseline: ${message.error}`)) : resolve(message)));
      });
      child.send(options);
      return answer;
    },
    kill: () => child.kill(),
  };
}

async function baselineCrawl({ baseline, site, pages, items, runId }) {
  const label = `baseline crawl ${runId}`;
  const mark = site.hits.length;
  const cpuBefore = cpuMs(baseline.pid);
  const sent = performance.now();
  const summary = await baseline.crawl({
    startUrl: `${site.url}/p/0`,
    maxPages: pages,
    rateLimit: RATE_LIMIT,
    concurrency: CRAWL_CONCURRENCY,
    selectors: SELECTORS,
    runId,
  });
  const cpuAfter = cpuMs(baseline.pid);
  const expected = pages * items;
  if (summary.pagesFetched !== pages || summary.pagesFailed !== 0 || summary.itemsCollected !== expected || summary.stored !== expected) {
    throw new Error(`${label}: ${JSON.stringify(summary)}; expected ${pages} pages and ${expected} items stored`);
  }
  const hits = site.hits.slice(mark);
  checkHits(label, hits, pages);
  return {
    ...rateOf(hits),
    start_latency_ms: round1(hits[0].at - sent),
    run_ms: Math.round(summary.ms),
    items_per_s: Math.round((expected * 1000) / summary.ms),
    cpu_ms_per_page: round3((cpuAfter - cpuBefore) / pages),
  };
}

/**
 * The minimal crawler, in its own process: what the plugin's crawler does (robots.txt, the start
 * page alone, then breadth-first over same-host links, `concurrency` at a time, starts spaced
 * 1000/rate ms apart, the selectors' text, results in batches) and nothing more.
 */
function baselineChild() {
  const { Pool } = require('undici');
  const cheerio = require('cheerio');
  const robotsParser = require('robots-parser');
  const Database = require('better-sqlite3');
  const db = new Database(process.env.BENCH_SCRAPERS_DB);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec(`CREATE TABLE IF NOT EXISTS results (id INTEGER PRIMARY KEY AUTOINCREMENT, run_id INTEGER NOT NULL, url TEXT NOT NULL, data TEXT, created_at INTEGER);
           CREATE INDEX IF NOT EXISTS results_run ON results (run_id, id);`);
  const insert = db.prepare('INSERT INTO results (run_id, url, data, created_at) VALUES (?, ?, ?, ?)');
  const insertMany = db.transaction((rows) => {
    for (const row of rows) insert.run(row.runId, row.url, row.data, row.createdAt);
  });

  async function crawl({ startUrl, maxPages, rateLimit, concurrency, selectors, runId }) {
    const began = performance.now();
    const start = new URL(startUrl);
    const pool = new Pool(start.origin, { connections: concurrency });
    const interval = 1000 / rateLimit;
    let next = 0;
    const get = async (url, accept) => {
      const now = performance.now();
      const at = Math.max(now, next);
      next = at + interval;
      if (at > now) await sleep(at - now);
      const parsed = new URL(url);
      const response = await pool.request({
        path: parsed.pathname + parsed.search,
        method: 'GET',
        headers: { accept, 'user-agent': USER_AGENT },
      });
      return { status: response.statusCode, body: await response.body.text() };
    };
    const summary = { pagesFetched: 0, pagesFailed: 0, itemsCollected: 0, stored: 0 };
    let buffer = [];
    const flush = () => {
      insertMany(buffer);
      summary.stored += buffer.length;
      buffer = [];
    };
    const robotsUrl = new URL('/robots.txt', start).href;
    const robotsPage = await get(robotsUrl, 'text/plain,*/*;q=0.8');
    const robots = robotsParser(robotsUrl, robotsPage.status === 200 ? robotsPage.body : '');
    const fields = Object.entries(selectors.fields);
    const seen = new Set([start.href]);
    const queue = [start.href];
    let scheduled = 0;
    const visit = async (url) => {
      const page = await get(url, 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.8');
      summary.pagesFetched += 1;
      if (page.status !== 200) {
        summary.pagesFailed += 1;
        return;
      }
      const $ = cheerio.load(page.body);
      const createdAt = Date.now();
      $(selectors.item).each((_index, element) => {
        const data = {};
        for (const [name, css] of fields) data[name] = $(element).find(css).first().text().trim();
        buffer.push({ runId, url, data: JSON.stringify(data), createdAt });
        summary.itemsCollected += 1;
      });
      if (buffer.length >= RESULT_BATCH) flush();
      $('a[href]').each((_index, element) => {
        const link = new URL($(element).attr('href'), url);
        link.hash = '';
        if (link.hostname !== start.hostname || seen.has(link.href)) return;
        seen.add(link.href);
        if (robots.isAllowed(link.href, USER_AGENT) !== false) queue.push(link.href);
      });
    };
    scheduled += 1;
    await visit(queue.shift());
    const inFlight = new Set();
    while (queue.length > 0 || inFlight.size > 0) {
      while (queue.length > 0 && inFlight.size < concurrency && scheduled < maxPages) {
        scheduled += 1;
        const task = visit(queue.shift()).finally(() => inFlight.delete(task));
        inFlight.add(task);
      }
      if (inFlight.size === 0) break;
      await Promise.race(inFlight);
    }
    flush();
    await pool.close();
    return { ...summary, ms: performance.now() - began };
  }

  process.on('message', (options) => {
    crawl(options).then(
      (summary) => process.send(summary),
      (error) => process.send({ error: error.stack || String(error) })
    );
  });
  process.on('disconnect', () => process.exit(0));
  process.send({ ready: true });
}

/* ------------------------------------------------------------------ helpers */

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function round1(value) {
  return Math.round(value * 10) / 10;
}

function round3(value) {
  return Math.round(value * 1000) / 1000;
}
