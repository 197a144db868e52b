#!/usr/bin/env node
'use strict';
/**
 * bench/access: what the access middleware costs. autocannon drives the same article list
 * route three times in one run, on the same data: with the route under the middleware and a
 * valid key of a consumer on the enterprise plan (quota raised so nothing is refused: every
 * request is still looked up, held to the consumer's plan, counted in their pool and recorded),
 * with the same consumer's users-permissions JWT (the same plan and pool, through the JWT
 * path), and with the route outside its prefixes. Arms alternate (off, key, jwt, off, ...) so
 * drift in the machine hits all three; each figure is the median of its rounds.
 * Throughput is measured at saturation (--connections, 32 by default); latency at a light
 * load (--latency-connections, 2 by default), where p99 is the server's own time rather than
 * the queue in front of it.
 * Two more arms drive a site type's list the Public role may not call (/api/pages): with the
 * consumer's key (held to its owner's role and plan, counted and recorded) and with one of
 * Strapi's own read-only API tokens; their ratio is what selling the site's content costs.
 * With --tracing, another arm: the key's arm with OpenTelemetry tracing on, exporting every
 * span (request, key decision, database) to a local OTLP sink, so the cost of tracing when on is
 * measured beside its cost when off (the other arms run without OTEL_EXPORTER_OTLP_ENDPOINT).
 * Prints one JSON line. Usage: node bench/access.js [--duration 8] [--connections 32] [--rounds 2] [--tracing]
 *
 * Until /api/v1/articles lands (issue 5) the route is Strapi's /api/articles, put under the
 * middleware with ACCESS_ROUTE_PREFIXES.
 */
const http = require('node:http');
const autocannon = require('autocannon');
const { benchEnv, compile, withStrapi, serve, progress, parseArgs, median } = require('./lib/app');
const { seedAccess, ACCESS_ROUTE, SITE_ROUTE, PREFIXES_WITH_ROUTE, PREFIXES_WITHOUT_ROUTE } = require('./lib/access-seed');

const args = parseArgs();
const duration = Number(args.duration ?? 8);
const connections = Number(args.connections ?? 32);
const rounds = Number(args.rounds ?? 3);
const latencyConnections = Number(args['latency-connections'] ?? 2);
const ROUTE = ACCESS_ROUTE;
const tracing = 'tracing' in args;

/** An OTLP/HTTP collector that takes every export and counts its bytes (the spans' fate is not measured). */
async function startSink() {
  let bytes = 0;
  const server = http.createServer((request, response) => {
    request.on('data', (chunk) => (bytes += chunk.length));
    request.on('end', () => response.writeHead(200, { 'content-type': 'application/x-protobuf' }).end());
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    bytes: () => bytes,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

(async () => {
  progress('compiling the app');
  await compile();
  const env = benchEnv('access');
  if (process.env.REDIS_URL) env.REDIS_URL = process.env.REDIS_URL;

  progress('seeding 200 articles and a consumer on the enterprise plan, with a key and a JWT');
  const { key, jwt, siteToken } = await withStrapi({ ...env, ACCESS_ROUTE_PREFIXES: PREFIXES_WITH_ROUTE }, seedAccess);

  const arms = {
    off: { env: { ...env, ACCESS_ROUTE_PREFIXES: PREFIXES_WITHOUT_ROUTE }, headers: {} },
    on: { env: { ...env, ACCESS_ROUTE_PREFIXES: PREFIXES_WITH_ROUTE }, headers: { 'x-api-key': key } },
    jwt: { env: { ...env, ACCESS_ROUTE_PREFIXES: PREFIXES_WITH_ROUTE }, headers: { authorization: `Bearer ${jwt}` } },
    // The site's own type through Strapi's content API: a consumer's key (its owner's role, plan,
    // pool and usage record) against Strapi's own read-only API token (held to nothing of ours).
    site_key: { env: { ...env, ACCESS_ROUTE_PREFIXES: PREFIXES_WITHOUT_ROUTE }, headers: { 'x-api-key': key }, route: SITE_ROUTE },
    site_token: {
      env: { ...env, ACCESS_ROUTE_PREFIXES: PREFIXES_WITHOUT_ROUTE },
      headers: { authorization: `Bearer ${siteToken}` },
      route: SITE_ROUTE,
    },
  };
  const sink = tracing ? await startSink() : undefined;
  if (sink)
    arms.traced = { env: { ...arms.on.env, OTEL_EXPORTER_OTLP_ENDPOINT: sink.url, OTEL_SERVICE_NAME: 'bench' }, headers: arms.on.headers };
  const results = { off: [], on: [], jwt: [], site_key: [], site_token: [], traced: [] };
  for (let round = 1; round <= rounds; round += 1) {
    for (const name of Object.keys(arms)) {
      const server = await serve(arms[name].env);
      const route = arms[name].route ?? ROUTE;
      try {
        const check = await fetch(server.url + route, { headers: arms[name].headers });
        if (check.status !== 200) throw new Error(`${name}: ${route} answered ${check.status} ${await check.text()}`);
        const held = name !== 'off' && name !== 'site_token';
        if (held && check.headers.get('x-ratelimit-limit') !== '1000000000')
          throw new Error(`${name}: the consumer's plan is not applied on the route`);
        if (!held && check.headers.get('x-ratelimit-limit') !== null) throw new Error(`${name}: held to a plan it should not be`);
        if (arms[name].route) {
          const pages = (await check.json()).data;
          if (!Array.isArray(pages) || pages.length !== 20) throw new Error(`${name}: ${route} answered ${pages?.length} pages, not 20`);
          const anonymous = await fetch(server.url + route);
          if (anonymous.status !== 403) throw new Error(`${name}: the Public role may call ${route} (${anonymous.status})`);
        }
        await autocannon({ url: server.url + route, headers: arms[name].headers, connections, duration: 2 }); // warm-up
        const run = await autocannon({ url: server.url + route, headers: arms[name].headers, connections, duration });
        const light = await autocannon({ url: server.url + route, headers: arms[name].headers, connections: latencyConnections, duration });
        for (const [label, result] of [
          ['saturated', run],
          ['light', light],
        ]) {
          if (result.non2xx > 0 || result.errors > 0)
            throw new Error(`${name} ${label}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
        }
        results[name].push({
          rps: run.requests.average,
          requests: run.requests.total,
          light_load: {
            connections: latencyConnections,
            rps: light.requests.average,
            p50_ms: light.latency.p50,
            p99_ms: light.latency.p99,
          },
        });
        progress(
          `round ${round} ${name}: ${Math.round(run.requests.average)} req/s saturated; p99 ${light.latency.p99} ms at ${latencyConnections} connections`
        );
      } finally {
        await server.stop();
      }
    }
  }

  const summarise = (list) => ({
    rps: median(list.map((round) => round.rps)),
    rounds_rps: list.map((round) => Math.round(round.rps)),
    light_load: {
      connections: latencyConnections,
      rps: median(list.map((round) => round.light_load.rps)),
      p50_ms: median(list.map((round) => round.light_load.p50_ms)),
      p99_ms: median(list.map((round) => round.light_load.p99_ms)),
    },
  });
  const off = summarise(results.off);
  const on = summarise(results.on);
  const viaJwt = summarise(results.jwt);
  const viaSiteKey = summarise(results.site_key);
  const viaSiteToken = summarise(results.site_token);
  const siteRatio = viaSiteKey.rps / viaSiteToken.rps;
  const siteP99Ratio = viaSiteKey.light_load.p99_ms / Math.max(viaSiteToken.light_load.p99_ms, 1);
  const ratio = on.rps / off.rps;
  const addedP99 = on.light_load.p99_ms - off.light_load.p99_ms;
  const jwtRatio = viaJwt.rps / off.rps;
  const traced = tracing ? summarise(results.traced) : undefined;
  const tracingFigures = traced
    ? {
        tracing_on: traced,
        tracing_vs_key_ratio: Number((traced.rps / on.rps).toFixed(3)),
        tracing_p99_added_ms: traced.light_load.p99_ms - on.light_load.p99_ms,
        tracing_exported_kib: Math.round(sink.bytes() / 1024),
      }
    : {};
  await sink?.close();
  console.log(
    JSON.stringify({
      bench: 'access',
      route: ROUTE,
      database: 'sqlite',
      counters: env.REDIS_URL ? 'redis' : 'memory',
      connections,
      duration_s: duration,
      rounds,
      middleware_off: off,
      middleware_on: on,
      throughput_ratio: Number(ratio.toFixed(3)),
      throughput_cost_pct: Number(((1 - ratio) * 100).toFixed(1)),
      p99_added_ms: addedP99,
      jwt_path: viaJwt,
      jwt_throughput_ratio: Number(jwtRatio.toFixed(3)),
      jwt_p99_added_ms: viaJwt.light_load.p99_ms - off.light_load.p99_ms,
      key_vs_jwt_ratio: Number((on.rps / viaJwt.rps).toFixed(3)),
      site_route: SITE_ROUTE,
      site_with_key: viaSiteKey,
      site_with_api_token: viaSiteToken,
      site_key_vs_token_ratio: Number(siteRatio.toFixed(3)),
      site_key_vs_token_p99_ratio: Number(siteP99Ratio.toFixed(2)),
      ...tracingFigures,
      goal: {
        throughput_cost_pct_below: 10,
        p99_added_ms_below: 2,
        site_key_vs_token_ratio_above: 0.9,
        site_key_vs_token_p99_ratio_below: 1.2,
      },
      met: 1 - ratio < 0.1 && addedP99 < 2 && siteRatio >= 0.9 && siteP99Ratio <= 1.2,
    })
  );
  process.exit(0);
})().catch((error) => {
  console.error(error);
  process.exit(1);
});
