#!/usr/bin/env node
'use strict';
/**
 * bench/access-ab: this checkout against another (an earlier commit, checked out and built
 * elsewhere with `npm ci && npm run build:plugin`), on the key arm of bench/access: the article
 * list under the key middleware, called with a valid key. Both builds serve copies of one seeded
 * SQLite database with the same secrets; rounds alternate between them (this, other, other,
 * this, ...) so that the machine's drift falls on both, and each figure is the median of its
 * rounds. The throughput ratio this/other is the change's cost (below 1) or gain; the server's
 * CPU time a request (from /proc) says the same with less of the machine's noise in it.
 * Prints one JSON line. Usage:
 *   node bench/access-ab.js --against ../before [--rounds 8] [--duration 5] [--connections 32] [--arm key|off]
 * `--arm off` compares the route outside the middleware instead (what the rest of the app costs).
 */
const fs = require('node:fs');
const path = require('node:path');
const autocannon = require('autocannon');
const { benchEnv, compile, withStrapi, serve, progress, parseArgs, median, cpuMs } = require('./lib/app');
const { seedAccess, ACCESS_ROUTE, PREFIXES_WITH_ROUTE, PREFIXES_WITHOUT_ROUTE } = require('./lib/access-seed');

const args = parseArgs();
const rounds = Number(args.rounds ?? 8);
const duration = Number(args.duration ?? 5);
const connections = Number(args.connections ?? 32);
const arm = args.arm ?? 'key';
if (!args.against) throw new Error('--against <directory of the other checkout, built> is required');
const other = path.resolve(args.against);
if (!['key', 'off'].includes(arm)) throw new Error('--arm is key or off');

(async () => {
  progress('compiling both apps');
  await compile();
  const otherLib = require(path.join(other, 'bench', 'lib', 'app.js'));
  await otherLib.compile();

  const env = benchEnv('access-ab');
  progress('seeding 200 articles and a consumer with a key (this build), copied for the other build');
  const { key } = await withStrapi({ ...env, ACCESS_ROUTE_PREFIXES: PREFIXES_WITH_ROUTE }, seedAccess);
  const copy = path.join(path.dirname(env.DATABASE_FILENAME), 'other.db');
  fs.copyFileSync(env.DATABASE_FILENAME, copy);

  const prefixes = arm === 'key' ? PREFIXES_WITH_ROUTE : PREFIXES_WITHOUT_ROUTE;
  const headers = arm === 'key' ? { 'x-api-key': key } : {};
  const builds = {
    this: { serve, env: { ...env, ACCESS_ROUTE_PREFIXES: prefixes } },
    other: { serve: otherLib.serve, env: { ...env, DATABASE_FILENAME: copy, ACCESS_ROUTE_PREFIXES: prefixes } },
  };
  const results = { this: [], other: [] };
  for (let round = 1; round <= rounds; round += 1) {
    // ABBA: neither build always goes first after a server change.
    const order = round % 2 === 1 ? ['this', 'other'] : ['other', 'this'];
    for (const name of order) {
      const server = await builds[name].serve(builds[name].env);
      try {
        const check = await fetch(server.url + ACCESS_ROUTE, { headers });
        if (check.status !== 200) throw new Error(`${name}: ${ACCESS_ROUTE} answered ${check.status} ${await check.text()}`);
        await autocannon({ url: server.url + ACCESS_ROUTE, headers, connections, duration: 2 }); // warm-up
        const cpuBefore = cpuMs(server.pid);
        const run = await autocannon({ url: server.url + ACCESS_ROUTE, headers, connections, duration });
        const cpuPerRequest = (cpuMs(server.pid) - cpuBefore) / run.requests.total;
        if (run.non2xx > 0 || run.errors > 0) throw new Error(`${name}: ${run.non2xx} non-2xx answers, ${run.errors} errors`);
        results[name].push({ rps: run.requests.average, p99_ms: run.latency.p99, cpu_ms: cpuPerRequest });
        progress(`round ${round} ${name}: ${Math.round(run.requests.average)} req/s, ${cpuPerRequest.toFixed(2)} ms CPU a request`);
      } finally {
        await server.stop();
      }
    }
  }

  const summarise = (list) => ({
    rps: median(list.map((result) => result.rps)),
    rounds_rps: list.map((result) => Math.round(result.rps)),
    p99_ms: median(list.map((result) => result.p99_ms)),
    // The server's own CPU time a request: what the code costs, less moved by the machine's other work than throughput.
    cpu_ms_per_request: Number(median(list.map((result) => result.cpu_ms)).toFixed(3)),
    rounds_cpu_ms: list.map((result) => Number(result.cpu_ms.toFixed(2))),
  });
  const mine = summarise(results.this);
  const theirs = summarise(results.other);
  // Each round's pair, as a ratio: the spread says how far the median ratio can be trusted.
  const pairs = results.this.map((result, index) => result.rps / results.other[index].rps);
  console.log(
    JSON.stringify({
      bench: 'access-ab',
      arm,
      route: ACCESS_ROUTE,
      against: path.basename(other),
      connections,
      duration_s: duration,
      rounds,
      this: mine,
      other: theirs,
      ratio: Number((mine.rps / theirs.rps).toFixed(3)),
      round_ratios: pairs.map((ratio) => Number(ratio.toFixed(3))),
      median_round_ratio: Number(median(pairs).toFixed(3)),
      cpu_ratio: Number((mine.cpu_ms_per_request / theirs.cpu_ms_per_request).toFixed(3)),
    })
  );
  process.exit(0);
})().catch((error) => {
  console.error(error);
  process.exit(1);
});
