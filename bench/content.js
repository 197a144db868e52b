#!/usr/bin/env node
'use strict';
/**
 * bench/content: the cost of the content API's visibility rule (src/lib/visibility.ts), in one run.
 * 200 authors with 10 articles each (half of them drafts or archived). The same answer is asked
 * two ways, alternating rounds:
 *   - rule: the Public role asks `/api/authors?populate=articles`; the document-service
 *     middleware adds the published-only filter to the populated relation (and the root);
 *   - baseline: an admin-panel API token, which sees everything and so passes the middleware
 *     untouched, asks for the same filter itself:
 *     `/api/authors?populate[articles][filters][status][$eq]=published`.
 * Both answers are checked to be identical first. The figure is the ratio of their throughputs.
 * Prints one JSON line. Usage: node bench/content.js [--authors 200] [--duration 6] [--rounds 3]
 */
const crypto = require('node:crypto');
const { benchEnv, compile, withStrapi, serve, progress, parseArgs, alternate } = require('./lib/app');

const args = parseArgs();
const AUTHORS = Number(args.authors ?? 200);
const PER_AUTHOR = 10;
const duration = Number(args.duration ?? 6);
const rounds = Number(args.rounds ?? 3);
const connections = Number(args.connections ?? 16);
const PAGE_SIZE = 25;

(async () => {
  progress('compiling the app');
  await compile();
  const env = benchEnv('content');

  progress(`seeding ${AUTHORS} authors with ${PER_AUTHOR} articles each`);
  const token = await withStrapi(env, async (strapi) => {
    const knex = strapi.db.connection;
    const authors = strapi.db.metadata.get('api::author.author');
    const articles = strapi.db.metadata.get('api::article.article');
    const link = articles.attributes.author.joinTable;
    const now = new Date();
    for (let a = 0; a < AUTHORS; a += 1) {
      const [author] = await knex(authors.tableName)
        .insert({
          document_id: crypto.randomBytes(12).toString('hex'),
          name: `Author ${a}`,
          created_at: now,
          updated_at: now,
          published_at: now,
        })
        .returning('id');
      const authorId = typeof author === 'object' ? author.id : author;
      const rows = [];
      for (let i = 0; i < PER_AUTHOR; i += 1) {
        rows.push({
          document_id: crypto.randomBytes(12).toString('hex'),
          uuid: crypto.randomUUID(),
          title: `Article ${a}-${i}`,
          slug: `article-${a}-${i}`,
          status: ['published', 'draft', 'published', 'archived'][i % 4],
          excerpt: 'An excerpt of about a hundred characters, so that rows have a realistic width on the page.',
          created_at: now,
          updated_at: now,
          published_at: now,
        });
      }
      const ids = await knex(articles.tableName).insert(rows).returning('id');
      await knex(link.name).insert(
        ids.map((row) => ({ [link.joinColumn.name]: typeof row === 'object' ? row.id : row, [link.inverseJoinColumn.name]: authorId }))
      );
    }
    const created = await strapi
      .service('admin::api-token')
      .create({ name: 'bench', type: 'full-access', lifespan: null, description: '' });
    return created.accessKey;
  });

  const server = await serve(env);
  try {
    const targets = {
      rule: { url: `${server.url}/api/authors?populate=articles&sort=id:asc&pagination[pageSize]=${PAGE_SIZE}`, headers: {} },
      baseline: {
        url: `${server.url}/api/authors?populate[articles][filters][status][$eq]=published&sort=id:asc&pagination[pageSize]=${PAGE_SIZE}`,
        headers: { authorization: `Bearer ${token}` },
      },
    };
    const answers = {};
    for (const [name, target] of Object.entries(targets)) {
      const response = await fetch(target.url, { headers: target.headers });
      if (response.status !== 200) throw new Error(`${name}: ${response.status} ${await response.text()}`);
      answers[name] = await response.json();
    }
    if (JSON.stringify(answers.rule.data) !== JSON.stringify(answers.baseline.data))
      throw new Error('the two requests do not answer the same rows');
    const shown = answers.rule.data.reduce((sum, author) => sum + author.articles.length, 0);
    if (shown !== PAGE_SIZE * (PER_AUTHOR / 2))
      throw new Error(`expected ${PAGE_SIZE * (PER_AUTHOR / 2)} published articles on the page, saw ${shown}`);

    const { rule, baseline } = await alternate({ baseline: targets.baseline, rule: targets.rule }, { rounds, connections, duration });
    const ratio = rule.rps / baseline.rps;
    console.log(
      JSON.stringify({
        bench: 'content',
        database: env.DATABASE_CLIENT ?? 'sqlite',
        authors: AUTHORS,
        articles_per_author: PER_AUTHOR,
        connections,
        duration_s: duration,
        rounds,
        rule,
        baseline,
        rule_to_baseline_throughput_ratio: Number(ratio.toFixed(3)),
        goal: { ratio_at_least: 0.9 },
        met: ratio >= 0.9,
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
