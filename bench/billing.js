#!/usr/bin/env node
'use strict';
/**
 * bench/billing: what metering costs key-authenticated requests, and how many meter events
 * Stripe gets for them. autocannon drives the same cheap route (the health check, put under the
 * access middleware) with two keys of one
 * consumer, in alternating rounds (off, on, off, on, ...) so drift in the machine hits both arms:
 *
 *   - off: a plan without overage and an unlimited month (counted, recorded, never billed);
 *   - on:  a plan with an overage price whose monthly quota (1 request) is used up, so every
 *          request is served as overage: marked, answered with X-Overage, recorded, and
 *          reported to Stripe (the tests' Stripe stub, forked) every few seconds.
 *
 * After the rounds, one more server runs until every overage request has been reported, and
 * checks that the meter's total equals the overage requests recorded (the usage records marked
 * overage, read from the database): nothing lost, nothing counted twice. Without Redis each
 * server process counts the month from zero, so its first request is within the quota.
 * Prints one JSON line.
 * Usage: node bench/billing.js [--duration 8] [--connections 32] [--rounds 3] [--report-interval 5]
 */
const autocannon = require('autocannon');
const { benchEnv, compile, withStrapi, serve, progress, parseArgs, median, cpuMs } = require('./lib/app');
const { forkBillingStub } = require('./lib/billing-stub');

const args = parseArgs();
const duration = Number(args.duration ?? 8);
const connections = Number(args.connections ?? 32);
const rounds = Number(args.rounds ?? 3);
const reportInterval = Number(args['report-interval'] ?? 5);
// A route that costs little itself (one `select 1`), so the middleware's and metering's share shows.
const ROUTE = '/api/api-suite/health';

(async () => {
  progress('compiling the app');
  await compile();
  const stub = await forkBillingStub();
  const env = {
    ...benchEnv('billing'),
    ACCESS_ROUTE_PREFIXES: '/api/v1,/api/webhooks,/api/api-suite/health',
    STRIPE_SECRET_KEY: 'sk_test_bench_billing',
    STRIPE_WEBHOOK_SECRET: 'whsec_bench_billing',
    STRIPE_API_HOST: stub.host,
    STRIPE_API_PORT: String(stub.port),
    STRIPE_API_PROTOCOL: stub.protocol,
    BILLING_REPORT_INTERVAL_SECONDS: String(reportInterval),
  };
  if (process.env.REDIS_URL) env.REDIS_URL = process.env.REDIS_URL;

  progress('seeding a consumer with a subscription, and two keys');
  const keys = await withStrapi(env, async (strapi) => {
    const user = await strapi.db.query('plugin::users-permissions.user').create({
      data: { username: 'bench', email: 'bench@example.test', password: 'Bench-password-1', confirmed: true, provider: 'local' },
    });
    const plans = strapi.db.query('plugin::api-suite.plan');
    const common = { requests_per_minute: 1_000_000_000, endpoints: ['* *'], price_monthly: 10 };
    const flat = await plans.create({ data: { ...common, name: 'bench-flat', requests_per_month: -1 } });
    const metered = await plans.create({ data: { ...common, name: 'bench-metered', requests_per_month: 1, overage_unit_amount: 50 } });
    await strapi.plugin('api-suite').service('billing-catalog').sync();
    if (!strapi.plugin('api-suite').service('billing-catalog').status().ready)
      throw new Error('billing did not provision against the stub');
    const { consumer_id: consumerId } = await strapi.db
      .query('plugin::users-permissions.user')
      .findOne({ where: { id: user.id }, select: ['consumer_id'] });
    const customer = await strapi.plugin('api-suite').service('billing-account').ensureCustomer({ userId: user.id, consumerId });
    // The subscription as the Stripe webhook would have recorded it: live, on the metered plan.
    const now = new Date();
    await strapi.db.connection('api_suite_billing_subscriptions').insert({
      consumer_id: consumerId,
      user_id: user.id,
      stripe_customer_id: customer,
      stripe_subscription_id: 'sub_bench',
      plan_id: metered.id,
      effective_plan_id: metered.id,
      status: 'active',
      current_period_start: now,
      current_period_end: new Date(now.getTime() + 30 * 86_400_000),
      cancel_at_period_end: false,
      created_at: now,
      updated_at: now,
    });
    const issue = (planId) =>
      strapi
        .plugin('api-suite')
        .service('keys')
        .issue({ userId: user.id, scopes: ['read'], planId });
    return { off: (await issue(flat.id)).key, on: (await issue(metered.id)).key };
  });

  const results = { off: [], on: [] };
  // Server CPU per request: steadier than throughput on a small machine that also runs the load generator.
  const cpuPerRequest = { off: [], on: [] };
  const check = async (url, name) => {
    // Twice: the second request of the on arm is past the quota in any process.
    let response;
    for (let i = 0; i < 2; i += 1) response = await fetch(url + ROUTE, { headers: { 'x-api-key': keys[name] } });
    if (response.status !== 200) throw new Error(`${name}: ${ROUTE} answered ${response.status}`);
    return response.headers.get('x-overage');
  };
  for (let round = 1; round <= rounds; round += 1) {
    for (const name of ['off', 'on']) {
      const server = await serve(env);
      try {
        const overage = await check(server.url, name);
        if (name === 'off' && overage !== null) throw new Error('the off arm is billed as overage');
        if (name === 'on' && overage !== 'true') throw new Error('the on arm is not served as overage');
        const headers = { 'x-api-key': keys[name] };
        const warm = await autocannon({ url: server.url + ROUTE, headers, connections, duration: 2 });
        const cpuBefore = cpuMs(server.pid);
        const run = await autocannon({ url: server.url + ROUTE, headers, connections, duration });
        const cpu = cpuMs(server.pid) - cpuBefore;
        for (const result of [warm, run]) {
          if (result.non2xx > 0 || result.errors > 0) throw new Error(`${name}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
        }
        results[name].push(run.requests.average);
        cpuPerRequest[name].push((cpu * 1000) / run.requests.total);
        progress(
          `round ${round} ${name}: ${Math.round(run.requests.average)} req/s, ${((cpu * 1000) / run.requests.total).toFixed(0)} µs of server CPU a request`
        );
      } finally {
        await server.stop();
      }
    }
  }

  // Every overage request recorded is reported, once.
  const overage = await withStrapi(env, async (strapi) =>
    Number((await strapi.db.connection('api_suite_usage_records').where({ overage: true }).count({ n: '*' }).first()).n)
  );
  progress(`waiting for ${overage} overage requests to be reported`);
  const server = await serve(env);
  const deadline = Date.now() + 30_000 + reportInterval * 2000;
  let report = await stub.report();
  while (report.meter_value < overage && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    report = await stub.report();
  }
  await new Promise((resolve) => setTimeout(resolve, reportInterval * 1000 + 500));
  report = await stub.report();
  await server.stop();
  stub.kill();

  const off = median(results.off);
  const on = median(results.on);
  const ratio = on / off;
  console.log(
    JSON.stringify({
      bench: 'billing',
      route: ROUTE,
      database: process.env.DATABASE_CLIENT === 'postgres' ? 'postgres' : 'sqlite',
      counters: env.REDIS_URL ? 'redis' : 'memory',
      connections,
      duration_s: duration,
      rounds,
      report_interval_s: reportInterval,
      metering_off_rps: Math.round(off),
      metering_on_rps: Math.round(on),
      rounds_rps: { off: results.off.map(Math.round), on: results.on.map(Math.round) },
      throughput_ratio: Number(ratio.toFixed(3)),
      metering_cost_pct: Number(((1 - ratio) * 100).toFixed(1)),
      cpu_us_per_request: { off: Math.round(median(cpuPerRequest.off)), on: Math.round(median(cpuPerRequest.on)) },
      metering_cpu_cost_pct: Number(((median(cpuPerRequest.on) / median(cpuPerRequest.off) - 1) * 100).toFixed(1)),
      overage_requests: overage,
      meter_events: report.meter_events,
      meter_value: report.meter_value,
      meter_events_per_10000_overage: Number(((report.meter_events / overage) * 10_000).toFixed(2)),
      reported_exactly: report.meter_value === overage,
      goal: { metering_cost_pct_below: 5, metering_cpu_cost_pct_below: 5 },
      met: 1 - ratio < 0.05 && median(cpuPerRequest.on) / median(cpuPerRequest.off) < 1.05 && report.meter_value === overage,
    })
  );
  process.exit(0);
})().catch((error) => {
  console.error(error);
  process.exit(1);
});
