#!/usr/bin/env node
'use strict';
/**
 * bench/articles: the versioned list against Strapi's own, on 100,000 articles, in one run.
 *   1. autocannon on /api/v1/articles?limit=20 (enterprise key, quota raised so nothing is
 *      refused) and on /api/articles?pagination[pageSize]=20 (Strapi's REST, Public role),
 *      alternating rounds; the ratio of their medians.
 *   2. The first keyset page against the 4,000th (after_id of the 79,980th article), and the
 *      same two pages by offset (page=1 against page=4000): median latency of sequential
 *      requests. Keyset paging should not slow down with depth; offset paging does.
 * Prints one JSON line. Usage: node bench/articles.js [--articles 100000] [--duration 6] [--rounds 2]
 */
const crypto = require('node:crypto');
const { performance } = require('node:perf_hooks');
const { benchEnv, compile, withStrapi, serve, progress, parseArgs, median, alternate } = require('./lib/app');

const args = parseArgs();
const ARTICLES = Number(args.articles ?? 100_000);
const duration = Number(args.duration ?? 6);
const rounds = Number(args.rounds ?? 2);
const connections = Number(args.connections ?? 16);
const SAMPLES = Number(args.samples ?? 60);
const PAGE = 4000;

(async () => {
  progress('compiling the app');
  await compile();
  const env = benchEnv('articles');
  if (process.env.REDIS_URL) env.REDIS_URL = process.env.REDIS_URL;

  progress(`seeding ${ARTICLES} articles`);
  const key = await withStrapi(env, async (strapi) => {
    const knex = strapi.db.connection;
    const table = strapi.db.metadata.get('api::article.article').tableName;
    const start = Date.UTC(2020, 0, 1);
    const batch = 500;
    for (let offset = 0; offset < ARTICLES; offset += batch) {
      const rows = [];
      for (let i = offset; i < Math.min(ARTICLES, offset + batch); i += 1) {
        // Two articles per second of creation time: plenty of equal createdAt values.
        const at = new Date(start + Math.floor(i / 2) * 1000);
        rows.push({
          document_id: crypto.randomBytes(12).toString('hex'),
          uuid: crypto.randomUUID(),
          title: `Article ${i}`,
          slug: `article-${i}`,
          status: i % 10 === 0 ? 'draft' : 'published',
          excerpt: 'An excerpt of about a hundred characters, so that rows have a realistic width on the page.',
          body: 'Body text. '.repeat(40),
          created_at: at,
          updated_at: at,
          published_at: at,
        });
      }
      await knex(table).insert(rows);
      if ((offset / batch) % 40 === 0) progress(`  ${offset + rows.length} / ${ARTICLES}`);
    }
    if (strapi.db.dialect.client === 'sqlite') await knex.raw('ANALYZE');
    else await knex.raw(`ANALYZE ${table}`);
    const user = await strapi.db.query('plugin::users-permissions.user').create({
      data: { username: 'bench', email: 'bench@example.test', password: 'Bench-password-1', confirmed: true, provider: 'local' },
    });
    const enterprise = await strapi.db.query('plugin::api-suite.plan').findOne({ where: { name: 'enterprise' } });
    await strapi.db.query('plugin::api-suite.plan').update({ where: { id: enterprise.id }, data: { requests_per_minute: 1_000_000_000 } });
    return (
      await strapi
        .plugin('api-suite')
        .service('keys')
        .issue({ userId: user.id, scopes: ['read'], planId: enterprise.id })
    ).key;
  });

  const server = await serve(env);
  try {
    const headers = { 'x-api-key': key };
    const targets = {
      v1: { url: `${server.url}/api/v1/articles?limit=20`, headers },
      strapi: { url: `${server.url}/api/articles?pagination[pageSize]=20`, headers: {} },
    };
    for (const [name, target] of Object.entries(targets)) {
      const check = await fetch(target.url, { headers: target.headers });
      if (check.status !== 200) throw new Error(`${name}: ${check.status} ${await check.text()}`);
    }

    const { v1, strapi } = await alternate({ strapi: targets.strapi, v1: targets.v1 }, { rounds, connections, duration });

    progress('finding the anchor of keyset page 4000');
    const deep = await (await fetch(`${server.url}/api/v1/articles?limit=20&page=${PAGE - 1}`, { headers })).json();
    const anchor = deep.data.at(-1).id;
    const timeIt = async (url) => {
      const samples = [];
      for (let i = 0; i < SAMPLES; i += 1) {
        const started = performance.now();
        const response = await fetch(url, { headers });
        const body = await response.json();
        samples.push(performance.now() - started);
        if (response.status !== 200 || body.data.length !== 20) throw new Error(`${url}: ${response.status}, ${body.data?.length} items`);
      }
      return Number(median(samples).toFixed(2));
    };
    const keysetFirst = await timeIt(`${server.url}/api/v1/articles?limit=20`);
    const keysetDeep = await timeIt(`${server.url}/api/v1/articles?limit=20&after_id=${anchor}`);
    const offsetFirst = await timeIt(`${server.url}/api/v1/articles?limit=20&page=1`);
    const offsetDeep = await timeIt(`${server.url}/api/v1/articles?limit=20&page=${PAGE}`);

    const keysetRatio = keysetDeep / keysetFirst;
    console.log(
      JSON.stringify({
        bench: 'articles',
        articles: ARTICLES,
        database: env.DATABASE_CLIENT ?? 'sqlite',
        connections,
        duration_s: duration,
        rounds,
        v1_list: v1,
        strapi_list: strapi,
        v1_to_strapi_throughput_ratio: Number((v1.rps / strapi.rps).toFixed(3)),
        keyset_first_page_ms: keysetFirst,
        keyset_page_4000_ms: keysetDeep,
        keyset_deep_to_first_ratio: Number(keysetRatio.toFixed(2)),
        offset_first_page_ms: offsetFirst,
        offset_page_4000_ms: offsetDeep,
        offset_deep_to_first_ratio: Number((offsetDeep / offsetFirst).toFixed(2)),
        goal: { keyset_deep_to_first_ratio_below: 1.5 },
        met: keysetRatio < 1.5,
      })
    );
  } finally {
    await server.stop();
  }
  process.exit(0);
})().catch((error) => {
  console.error(error);
  process.exit(1);
});
