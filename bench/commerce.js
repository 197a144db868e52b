#!/usr/bin/env node
'use strict';
/**
 * bench/commerce: the plugin's commerce routes (checkout, the Stripe webhook and search; see
 * docs/commerce.md and docs/search-feed-cors.md) against Strapi's own routes doing comparable
 * work, in one run, on one server process. Stripe is a local stub in its own process
 * (bench/lib/stripe-stub.js); the app's official SDK talks to it over HTTP.
 *
 * Seed: `--products` (10,000) searchable products, 20 products with a large stock for checkout,
 * one with a stock of `--contention-stock` (50), `--users` (32) users with JWTs, a full-access
 * Strapi API token. Then, against the running server:
 *   1. search: autocannon on GET /api/search?q=<term>&collections=products, and on Strapi's
 *      GET /api/products with the same filter ($containsi on name or description, published and
 *      not deleted, 5 rows by id, the same fields, no count): the same SQL through both stacks,
 *      so the ratio is what the plugin's route adds or saves. Terms rotate over a fixed list
 *      (common, rare and absent words) in both arms.
 *   2. checkout: autocannon POST /api/checkout (a user's JWT, 1-3 random lines per cart) at
 *      saturation, against Strapi's POST /api/products with a full-access token: both are "one
 *      write transaction, then the answer"; checkout adds its reads and the Stripe stub round trip.
 *   In both phases each round runs both arms (a warm-up, then the measured run), the baseline
 *   first in odd rounds and second in even ones; figures are medians of the rounds (--rounds, 2).
 *   3. contention: `--contention` (200) concurrent checkouts of one unit of the product with
 *      stock 50: exactly 50 must succeed (fails loudly if oversold); time until all are answered.
 *   4. Stripe webhook: one signed checkout.session.completed per order made above, through a
 *      closed-loop driver at `--connections`; then every event again (duplicates: 200, no-ops);
 *      baseline: the same driver and bodies with a wrong signature (400), which is the route's
 *      fixed cost (middleware, raw body, HMAC) without the transaction. Also compared with
 *      Strapi's write of phase 2.
 * Then the server stops and the database is checked: stock never below 0 and conserved (what was
 * taken equals what the orders that hold stock hold), every 200 of checkout is an order, no order
 * beyond those except requests cut off by the load generator's stop, each completed event paid its
 * order once, duplicates changed nothing.
 * Prints one JSON line. Usage: node bench/commerce.js [--duration 8] [--connections 32] [--rounds 2] [--warmup 2]
 *   [--products 10000] [--users 32] [--contention 200] [--contention-stock 50]
 * SQLite by default; DATABASE_CLIENT=postgres with DATABASE_URL runs on a fresh PostgreSQL
 * database, created beside the one named and dropped at the end.
 */
const crypto = require('node:crypto');
const { performance } = require('node:perf_hooks');
const autocannon = require('autocannon');
const { Pool } = require('undici');
const Stripe = require('stripe');
const { benchEnv, compile, withStrapi, serve, progress, parseArgs, median, round } = require('./lib/app');
const { freshPostgres } = require('./lib/services');
const { forkStripeStub } = require('./lib/stripe-stub');

const args = parseArgs();
const duration = Number(args.duration ?? 8);
const connections = Number(args.connections ?? 32);
const rounds = Number(args.rounds ?? 2);
const warmup = Number(args.warmup ?? 2);
const PRODUCTS = Number(args.products ?? 10_000);
const USERS = Number(args.users ?? 32);
const CONTENTION = Number(args.contention ?? 200);
const CONTENTION_STOCK = Number(args['contention-stock'] ?? 50);
const STOCKED = 20;
const BIG_STOCK = 10_000_000;

const STRIPE_SECRET_KEY = 'sk_test_bench_commerce_stub';
const STRIPE_WEBHOOK_SECRET = 'whsec_bench_commerce_secret';
const ADJECTIVES = [
  'red',
  'blue',
  'green',
  'black',
  'white',
  'silver',
  'golden',
  'small',
  'large',
  'light',
  'heavy',
  'soft',
  'warm',
  'cool',
  'smart',
  'classic',
  'modern',
  'rustic',
  'sturdy',
  'compact',
];
const NOUNS = Array.from(
  { length: 50 },
  (_, i) =>
    `${['lamp', 'chair', 'table', 'mug', 'kettle', 'jacket', 'boot', 'scarf', 'clock', 'shelf'][i % 10]}${i < 10 ? '' : String.fromCharCode(97 + Math.floor(i / 10))}`
);
// Both arms cycle through these: common words (found in the first rows), a rarer one, one in
// descriptions only, mixed case, and one found nowhere (a scan of every product).
const TERMS = ['lamp', 'Chair', 'kettlec', 'golden', 'handmade', 'nowhere-to-be-found'];

(async () => {
  progress('compiling the app');
  await compile();
  const env = benchEnv('commerce');
  const stub = await forkStripeStub();
  let dropDatabase = async () => undefined;
  if (process.env.DATABASE_CLIENT === 'postgres' && process.env.DATABASE_URL) {
    const fresh = await freshPostgres(process.env.DATABASE_URL, 'bench_commerce');
    Object.assign(env, { DATABASE_CLIENT: 'postgres', DATABASE_URL: fresh.url });
    dropDatabase = fresh.drop;
  }
  Object.assign(env, {
    STRIPE_SECRET_KEY,
    STRIPE_WEBHOOK_SECRET,
    STRIPE_API_HOST: stub.host,
    STRIPE_API_PORT: String(stub.port),
    STRIPE_API_PROTOCOL: stub.protocol,
  });
  const database = env.DATABASE_CLIENT ?? 'sqlite';

  let server;
  try {
    progress(`seeding ${PRODUCTS} products, ${STOCKED} stocked ones, ${USERS} users and an API token (${database})`);
    const seed = await withStrapi(env, prepare);

    server = await serve(env);
    const url = server.url;
    await expectStatus(url, '/api/search?q=lamp&collections=products', {}, 200);

    // 1. search
    const search = { plugin: [], strapi: [] };
    const searchArms = {
      strapi: (term) =>
        `/api/products?filters[$or][0][name][$containsi]=${encodeURIComponent(term)}&filters[$or][1][description][$containsi]=${encodeURIComponent(term)}&fields[0]=name&fields[1]=description&sort=id:asc&pagination[pageSize]=5&pagination[withCount]=false`,
      plugin: (term) => `/api/search?q=${encodeURIComponent(term)}&collections=products`,
    };
    await checkSearchAgreement(url, searchArms);
    for (let round = 1; round <= rounds; round += 1) {
      for (const name of order(round, ['strapi', 'plugin'])) {
        const requests = TERMS.map((term) => ({ method: 'GET', path: searchArms[name](term) }));
        await load({ url, requests, connections, duration: warmup });
        const run = await load({ url, requests, connections, duration });
        assertClean(`search ${name}`, run);
        search[name].push(figures(run));
        progress(
          `search round ${round} ${name}: ${Math.round(run.requests.average)} req/s, p50 ${run.latency.p50} ms, p99 ${run.latency.p99} ms`
        );
      }
    }

    // 2. checkout against Strapi's own write
    const answered = new Map(); // order uuid -> total, from every 200 of checkout
    let cutOff = 0; // requests in flight when autocannon stopped: the server may still have placed them
    const checkoutRequest = {
      method: 'POST',
      path: '/api/checkout',
      setupRequest(request) {
        const lines = 1 + Math.floor(Math.random() * 3);
        const ids = new Set();
        while (ids.size < lines) ids.add(seed.stocked[Math.floor(Math.random() * seed.stocked.length)]);
        const items = [...ids].map((id) => ({ product_id: id, quantity: 1 + Math.floor(Math.random() * 2) }));
        return {
          ...request,
          headers: {
            'content-type': 'application/json',
            authorization: `Bearer ${seed.jwts[Math.floor(Math.random() * seed.jwts.length)]}`,
          },
          body: JSON.stringify({
            items,
            shipping_address: { line1: '1 Bench Street', city: 'Testville', country: 'FR' },
            payment_method: 'card',
          }),
        };
      },
      onResponse(status, body) {
        if (status !== 200) return;
        const { data } = JSON.parse(body);
        answered.set(data.orderId, data.total);
      },
    };
    let written = 0;
    const writeRequest = {
      method: 'POST',
      path: '/api/products',
      setupRequest(request) {
        written += 1;
        return {
          ...request,
          headers: { 'content-type': 'application/json', authorization: `Bearer ${seed.apiToken}` },
          // Not for sale: these stay out of the checkout and search figures.
          body: JSON.stringify({
            data: {
              name: `Bench write ${written} ${crypto.randomBytes(4).toString('hex')}`,
              price: 12.5,
              stock: 3,
              description: 'Written by the baseline arm.',
              published: false,
              deleted: false,
            },
          }),
        };
      },
    };
    const writes = { checkout: [], strapi: [] };
    for (let round = 1; round <= rounds; round += 1) {
      for (const name of order(round, ['strapi', 'checkout'])) {
        const requests = [name === 'checkout' ? checkoutRequest : writeRequest];
        const warm = await load({ url, requests, connections, duration: warmup });
        const run = await load({ url, requests, connections, duration });
        if (name === 'checkout') cutOff += inFlight(warm) + inFlight(run);
        assertClean(`${name} warm-up`, warm);
        assertClean(name, run);
        writes[name].push(figures(run));
        progress(
          `write round ${round} ${name}: ${Math.round(run.requests.average)} req/s, p50 ${run.latency.p50} ms, p99 ${run.latency.p99} ms`
        );
      }
    }

    // 3. contention: one product, more buyers than stock
    progress(`contention: ${CONTENTION} concurrent checkouts of a product with stock ${CONTENTION_STOCK}`);
    const contention = await contend(url, seed);
    for (const [uuid, total] of contention.orders) answered.set(uuid, total);
    progress(
      `  ${contention.succeeded} succeeded, ${contention.refused} refused (409), ${contention.other} other, all answered in ${contention.settle_ms} ms`
    );
    if (contention.succeeded > CONTENTION_STOCK)
      throw new Error(`OVERSOLD: ${contention.succeeded} checkouts succeeded for a stock of ${CONTENTION_STOCK}`);

    // 4. the Stripe webhook
    const orders = [...answered];
    progress(
      `stripe webhook: ${orders.length} checkout.session.completed events, then again as duplicates, and a wrong-signature baseline`
    );
    const events = orders.map(([uuid, total], n) =>
      sessionEvent(`evt_bench_${n}_${crypto.randomBytes(6).toString('hex')}`, {
        metadata: { order_id: uuid },
        amount_total: Math.round(total * 100),
      })
    );
    const stripeBody = (payload, secret) => ({
      method: 'POST',
      path: '/api/webhook/stripe',
      headers: {
        'content-type': 'application/json; charset=utf-8',
        'stripe-signature': Stripe.webhooks.generateTestHeaderString({ payload, secret }),
      },
      body: payload,
    });
    const rejected = await drive(
      url,
      events.map((payload) => stripeBody(payload, 'whsec_not_the_right_one')),
      connections
    );
    if (rejected.statuses[400] !== events.length) throw new Error(`wrong signatures: ${JSON.stringify(rejected.statuses)}`);
    const applied = await drive(
      url,
      events.map((payload) => stripeBody(payload, STRIPE_WEBHOOK_SECRET)),
      connections,
      (body) => body.received === true
    );
    if (applied.statuses[200] !== events.length || applied.unexpected > 0)
      throw new Error(`completed events: ${JSON.stringify(applied.statuses)}, ${applied.unexpected} unexpected bodies`);
    const duplicates = await drive(
      url,
      events.map((payload) => stripeBody(payload, STRIPE_WEBHOOK_SECRET)),
      connections,
      (body) => body.received === true
    );
    if (duplicates.statuses[200] !== events.length || duplicates.unexpected > 0)
      throw new Error(`duplicate events: ${JSON.stringify(duplicates.statuses)}`);
    progress(
      `  applied ${Math.round(applied.per_s)}/s (p99 ${applied.p99_ms} ms), duplicates ${Math.round(duplicates.per_s)}/s, wrong signature ${Math.round(rejected.per_s)}/s`
    );

    const stubReport = await stub.report();
    await server.stop();
    server = undefined;

    progress('checking the database');
    const checks = await withStrapi(env, (strapi) => verify(strapi, seed, answered, cutOff, events.length));
    // A checkout whose session creation was replayed would show as replays; each order made one session.
    checks.stripe_sessions_created = stubReport.creations;
    checks.stripe_idempotent_replays = stubReport.replays;
    checks.sessions_match_orders = stubReport.creations === checks.orders_placed;
    const failures = Object.entries(checks.failures);
    if (failures.length > 0) throw new Error(`correctness checks failed: ${JSON.stringify(checks.failures)}`);

    const summarise = (list) => ({
      rps: round(median(list.map((r) => r.rps))),
      p50_ms: median(list.map((r) => r.p50_ms)),
      p99_ms: median(list.map((r) => r.p99_ms)),
      ...(rounds > 1 ? { rounds_rps: list.map((r) => Math.round(r.rps)) } : {}),
    });
    const searchPlugin = summarise(search.plugin);
    const searchStrapi = summarise(search.strapi);
    const checkout = summarise(writes.checkout);
    const strapiWrite = summarise(writes.strapi);
    const { failures: _none, ...passed } = checks;
    process.stdout.write(
      `${JSON.stringify({
        bench: 'commerce',
        database,
        connections,
        duration_s: duration,
        rounds,
        products: PRODUCTS,
        search: { route: '/api/search?collections=products', ...searchPlugin },
        search_baseline_strapi_filter: searchStrapi,
        search_to_strapi_throughput_ratio: round(searchPlugin.rps / searchStrapi.rps, 3),
        checkout: { items_per_cart: '1-3', ...checkout },
        checkout_baseline_strapi_create: strapiWrite,
        checkout_to_strapi_write_ratio: round(checkout.rps / strapiWrite.rps, 3),
        contention: {
          requests: CONTENTION,
          stock: CONTENTION_STOCK,
          succeeded: contention.succeeded,
          refused_409: contention.refused,
          other: contention.other,
          settle_ms: contention.settle_ms,
          stock_left: checks.contention_stock_left,
        },
        stripe_webhook: {
          events: events.length,
          connections,
          applied_per_s: round(applied.per_s),
          applied_p50_ms: applied.p50_ms,
          applied_p99_ms: applied.p99_ms,
          duplicates_per_s: round(duplicates.per_s),
          duplicates_p99_ms: duplicates.p99_ms,
        },
        stripe_webhook_baseline_bad_signature: { per_s: round(rejected.per_s), p50_ms: rejected.p50_ms, p99_ms: rejected.p99_ms },
        webhook_to_bad_signature_ratio: round(applied.per_s / rejected.per_s, 3),
        webhook_to_strapi_write_ratio: round(applied.per_s / strapiWrite.rps, 3),
        checks: passed,
        ok: true,
      })}\n`
    );
  } finally {
    await server?.stop().catch(() => undefined);
    stub.kill();
    await dropDatabase().catch(() => undefined);
  }
  process.exit(0);
})().catch((error) => {
  process.stderr.write(`${error.stack || error}\n`);
  process.exit(1);
});

/** Products, users with JWTs and a full-access API token, written once before the server starts. */
async function prepare(strapi) {
  const knex = strapi.db.connection;
  const table = strapi.db.metadata.get('api::product.product').tableName;
  const columns = Object.keys(await knex(table).columnInfo());
  const now = new Date();
  const row = (i, fields) => {
    const base = {
      document_id: crypto.randomBytes(12).toString('hex'),
      menuindex: i,
      published: true,
      deleted: false,
      created_at: now,
      updated_at: now,
      published_at: now,
      ...fields,
    };
    return Object.fromEntries(Object.entries(base).filter(([column]) => columns.includes(column)));
  };
  const rows = [];
  for (let i = 0; i < PRODUCTS; i += 1) {
    const name = `${ADJECTIVES[i % ADJECTIVES.length]} ${NOUNS[Math.floor(i / ADJECTIVES.length) % NOUNS.length]} ${i}`;
    rows.push(
      row(i, {
        name,
        slug: `p-${i}`,
        // One product in 40 says "handmade" in its description only.
        description: `A ${name} for everyday use${i % 40 === 39 ? ', handmade' : ''}. Sturdy, simple and easy to clean, with a two-year warranty.`,
        price: (5 + (i % 200) * 0.5).toFixed(2),
        stock: 100,
        // Every tenth one is not for sale: search and the baseline must both leave it out.
        published: i % 10 !== 7,
        deleted: i % 50 === 13,
      })
    );
  }
  for (let i = 0; i < STOCKED; i += 1)
    rows.push(
      row(PRODUCTS + i, {
        name: `Stocked item ${i}`,
        slug: `stocked-${i}`,
        description: 'Checkout stock.',
        price: (9.99 + i).toFixed(2),
        stock: BIG_STOCK,
      })
    );
  rows.push(
    row(PRODUCTS + STOCKED, {
      name: 'Scarce item',
      slug: 'scarce',
      description: 'Contention stock.',
      price: '49.90',
      stock: CONTENTION_STOCK,
    })
  );
  for (let offset = 0; offset < rows.length; offset += 500) await knex(table).insert(rows.slice(offset, offset + 500));
  if (strapi.db.dialect.client === 'sqlite') await knex.raw('ANALYZE');
  else await knex.raw(`ANALYZE ${table}`);

  const stockedRows = await knex(table).where('slug', 'like', 'stocked-%').orderBy('id').select('id');
  const scarce = await knex(table).where({ slug: 'scarce' }).first('id');

  const role = await strapi.db.query('plugin::users-permissions.role').findOne({ where: { type: 'authenticated' } });
  const jwt = strapi.plugin('users-permissions').service('jwt');
  const jwts = [];
  for (let i = 0; i < USERS; i += 1) {
    const user = await strapi.db.query('plugin::users-permissions.user').create({
      data: {
        username: `buyer${i}`,
        email: `buyer${i}@example.test`,
        password: 'Bench-password-1',
        confirmed: true,
        blocked: false,
        provider: 'local',
        role: role.id,
      },
    });
    jwts.push(jwt.issue({ id: user.id }));
  }
  const token = await strapi
    .service('admin::api-token')
    .create({ name: 'bench-commerce', description: 'bench', type: 'full-access', kind: 'content-api', lifespan: null });
  return { stocked: stockedRows.map((r) => r.id), scarce: scarce.id, jwts, apiToken: token.accessKey };
}

/** Both search arms must answer the same products for every term, or the comparison means nothing. */
async function checkSearchAgreement(url, arms) {
  for (const term of TERMS) {
    const plugin = await (await expectStatus(url, arms.plugin(term), {}, 200)).json();
    const strapi = await (await expectStatus(url, arms.strapi(term), {}, 200)).json();
    const a = plugin.data.map((item) => item.id).join(',');
    const b = strapi.data.map((item) => item.id).join(',');
    if (a !== b) throw new Error(`search "${term}": /api/search answered [${a}], Strapi's filter [${b}]`);
  }
}

/** `--contention` checkouts of one unit of the scarce product, all sent at once. */
async function contend(url, seed) {
  const pool = new Pool(url, { connections: CONTENTION, pipelining: 1 });
  const started = performance.now();
  const answers = await Promise.all(
    Array.from({ length: CONTENTION }, async (_, n) => {
      const response = await pool.request({
        method: 'POST',
        path: '/api/checkout',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${seed.jwts[n % seed.jwts.length]}` },
        body: JSON.stringify({ items: [{ product_id: seed.scarce, quantity: 1 }] }),
      });
      return { status: response.statusCode, body: await response.body.json() };
    })
  );
  const settleMs = round(performance.now() - started);
  await pool.close();
  const orders = answers.filter((a) => a.status === 200).map((a) => [a.body.data.orderId, a.body.data.total]);
  const refused = answers.filter((a) => a.status === 409).length;
  return { succeeded: orders.length, refused, other: CONTENTION - orders.length - refused, settle_ms: settleMs, orders };
}

/**
 * Closed loop: `concurrency` workers send the prepared requests in turn, each waiting for its
 * answer; every request is answered before this returns, so counts are exact.
 */
async function drive(url, requests, concurrency, expectBody) {
  const pool = new Pool(url, { connections: concurrency, pipelining: 1 });
  const statuses = {};
  const timings = [];
  let unexpected = 0;
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < requests.length) {
        const request = requests[next];
        next += 1;
        const begun = performance.now();
        const response = await pool.request(request);
        const body = await response.body.json();
        timings.push(performance.now() - begun);
        statuses[response.statusCode] = (statuses[response.statusCode] ?? 0) + 1;
        if (expectBody && response.statusCode === 200 && !expectBody(body)) unexpected += 1;
      }
    })
  );
  const seconds = (performance.now() - started) / 1000;
  await pool.close();
  timings.sort((a, b) => a - b);
  return {
    statuses,
    unexpected,
    per_s: requests.length / seconds,
    p50_ms: round(timings[Math.floor(timings.length / 2)], 2),
    p99_ms: round(timings[Math.min(timings.length - 1, Math.floor(timings.length * 0.99))], 2),
  };
}

/** What the database holds after the run, against what the clients were told. */
async function verify(strapi, seed, answered, cutOff, eventCount) {
  const knex = strapi.db.connection;
  const productsTable = strapi.db.metadata.get('api::product.product').tableName;
  const ordersTable = strapi.db.metadata.get('plugin::api-suite.order').tableName;
  const eventsTable = strapi.db.metadata.get('plugin::api-suite.stripe-event').tableName;
  const failures = {};
  const fail = (name, detail) => (failures[name] = detail);

  const initial = new Map(seed.stocked.map((id) => [id, BIG_STOCK]));
  initial.set(seed.scarce, CONTENTION_STOCK);
  const stock = new Map(
    (
      await knex(productsTable)
        .whereIn('id', [...initial.keys()])
        .select('id', 'stock')
    ).map((r) => [r.id, Number(r.stock)])
  );
  const negative = [...stock].filter(([, value]) => value < 0);
  if (negative.length > 0) fail('stock_below_zero', negative);

  const orders = await knex(ordersTable).select(
    'uuid',
    'status',
    'items',
    'total',
    'stock_reserved',
    'stripe_session_id',
    'payment_id',
    'paid_at'
  );
  const held = new Map();
  for (const order of orders) {
    if (!(order.stock_reserved === true || order.stock_reserved === 1)) continue;
    const items = typeof order.items === 'string' ? JSON.parse(order.items) : order.items;
    for (const item of items) held.set(item.product_id, (held.get(item.product_id) ?? 0) + item.quantity);
  }
  const unbalanced = [...initial].filter(([id, start]) => start - (stock.get(id) ?? 0) !== (held.get(id) ?? 0));
  if (unbalanced.length > 0)
    fail(
      'stock_not_conserved',
      unbalanced.map(([id, start]) => ({ id, taken: start - stock.get(id), held: held.get(id) ?? 0 }))
    );

  const byUuid = new Map(orders.map((order) => [order.uuid, order]));
  const missing = [...answered.keys()].filter((uuid) => !byUuid.has(uuid));
  if (missing.length > 0) fail('answered_orders_missing', missing.length);
  const unanswered = orders.filter((order) => !answered.has(order.uuid));
  // Requests cut off when the load generator stopped were still served: at most one per connection cut.
  if (unanswered.length > cutOff) fail('orders_without_an_answer', { count: unanswered.length, cut_off_requests: cutOff });
  const totals = [...answered].filter(([uuid, total]) => byUuid.has(uuid) && Number(byUuid.get(uuid).total) !== Number(total));
  if (totals.length > 0) fail('order_totals_differ', totals.length);

  const statuses = {};
  for (const order of orders) statuses[order.status] = (statuses[order.status] ?? 0) + 1;
  const paid = [...answered.keys()].filter(
    (uuid) => byUuid.get(uuid)?.status === 'paid' && byUuid.get(uuid).payment_id && byUuid.get(uuid).paid_at
  );
  if (paid.length !== answered.size) fail('answered_orders_not_paid', answered.size - paid.length);
  const notPaidUnanswered = unanswered.filter((order) => order.status !== 'pending');
  if (notPaidUnanswered.length > 0) fail('unanswered_orders_changed', notPaidUnanswered.length);
  const recorded = Number((await knex(eventsTable).count({ n: '*' }))[0].n);
  if (recorded !== eventCount) fail('stripe_events_recorded', { recorded, sent_unique: eventCount });
  const withoutSession = orders.filter((order) => !order.stripe_session_id).length;
  if (withoutSession > 0) fail('orders_without_session', withoutSession);

  const scarceOrders = orders.filter((order) =>
    (typeof order.items === 'string' ? JSON.parse(order.items) : order.items).some((item) => item.product_id === seed.scarce)
  );
  const contentionStockLeft = stock.get(seed.scarce);
  if (scarceOrders.length !== CONTENTION_STOCK || contentionStockLeft !== 0)
    fail('contention', { orders: scarceOrders.length, stock_left: contentionStockLeft });

  return {
    orders_placed: orders.length,
    orders_answered_200: answered.size,
    orders_from_cut_off_requests: unanswered.length,
    order_statuses: statuses,
    stock_never_below_zero: negative.length === 0,
    stock_conserved: unbalanced.length === 0,
    stripe_events_recorded: recorded,
    contention_stock_left: contentionStockLeft,
    failures,
  };
}

/** A Stripe event for a Checkout Session, as Stripe would send it (tests/helpers/commerce.ts). */
function sessionEvent(id, session) {
  return JSON.stringify({
    id,
    object: 'event',
    api_version: '2026-10-28.endive',
    created: Math.floor(Date.now() / 1000),
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type: 'checkout.session.completed',
    data: {
      object: {
        id: `cs_test_${crypto.randomBytes(8).toString('hex')}`,
        object: 'checkout.session',
        mode: 'payment',
        status: 'complete',
        payment_status: 'paid',
        payment_intent: `pi_${crypto.randomBytes(8).toString('hex')}`,
        ...session,
      },
    },
  });
}

/** Baseline first in odd rounds, second in even ones, so neither arm always runs on a colder or warmer server. */
function order(round, arms) {
  return round % 2 === 1 ? arms : [...arms].reverse();
}

function load(options) {
  return autocannon({ ...options, timeout: 30 });
}

function inFlight(run) {
  return Math.max(0, run.requests.sent - run.requests.total);
}

function assertClean(name, run) {
  if (run.non2xx > 0 || run.errors > 0 || run.timeouts > 0) {
    throw new Error(
      `${name}: ${run.non2xx} non-2xx answers (${JSON.stringify(run.statusCodeStats)}), ${run.errors} errors, ${run.timeouts} timeouts`
    );
  }
}

function figures(run) {
  return { rps: run.requests.average, p50_ms: run.latency.p50, p99_ms: run.latency.p99 };
}

async function expectStatus(url, path, init, status) {
  const response = await fetch(url + path, init);
  if (response.status !== status) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return response;
}
