'use strict';
const { createBenchUser } = require('./app');
/**
 * The data bench/access and bench/access-ab measure on: 200 published articles, readable by
 * signed-in users, and a consumer on the enterprise plan (its minute quota raised so nothing is
 * refused) with a read key and a users-permissions JWT; and the site's pages (below). Returns
 * `{ key, jwt, siteToken }`.
 */
async function seedAccess(strapi) {
  for (let i = 0; i < 200; i += 1) {
    await strapi
      .documents('api::article.article')
      .create({ data: { title: `Article ${i}`, slug: `article-${i}`, status: 'published', excerpt: 'x'.repeat(120) } });
  }
  // Signed-in users may read the articles (Strapi's own check on the route, which the JWT arm also passes).
  const authenticated = await strapi.db.query('plugin::users-permissions.role').findOne({ where: { type: 'authenticated' } });
  await strapi.db
    .query('plugin::users-permissions.permission')
    .create({ data: { action: 'api::article.article.find', role: authenticated.id } });
  const user = await createBenchUser(strapi, authenticated.id);
  const enterprise = await strapi.db.query('plugin::api-suite.plan').findOne({ where: { name: 'enterprise' } });
  // Raised so the run measures the middleware's work, not a wall of 429s.
  await strapi.db.query('plugin::api-suite.plan').update({ where: { id: enterprise.id }, data: { requests_per_minute: 1_000_000_000 } });
  // Granted to the consumer: the key follows it (no plan of its own), and so does the JWT.
  await strapi.plugin('api-suite').service('consumer-plans').grant(user.id, enterprise.id);
  const issued = await strapi
    .plugin('api-suite')
    .service('keys')
    .issue({ userId: user.id, scopes: ['read'] });
  const siteToken = await seedSitePages(strapi, authenticated.id);
  return { key: issued.key, jwt: await strapi.plugin('users-permissions').service('jwt').issue({ id: user.id }), siteToken };
}

/**
 * The site's own content sold through the content API: 200 published pages whose list the Public
 * role may not call (its permission taken away) and signed-in users may. A consumer's key reads
 * them as its owner; a Strapi read-only API token (returned), the site's own credential, reads
 * them too.
 */
async function seedSitePages(strapi, authenticatedRoleId) {
  for (let i = 0; i < 200; i += 1) {
    await strapi
      .documents('api::page.page')
      .create({ data: { title: `Page ${i}`, slug: `page-${i}`, body: 'x'.repeat(400) }, status: 'published' });
  }
  const publicRole = await strapi.db.query('plugin::users-permissions.role').findOne({ where: { type: 'public' } });
  await strapi.db
    .query('plugin::users-permissions.permission')
    .deleteMany({ where: { role: publicRole.id, action: 'api::page.page.find' } });
  await strapi.db
    .query('plugin::users-permissions.permission')
    .create({ data: { action: 'api::page.page.find', role: authenticatedRoleId } });
  const token = await strapi
    .service('admin::api-token')
    .create({ name: 'bench-site', description: 'bench/access', type: 'read-only', lifespan: null, kind: 'content-api' });
  return token.accessKey;
}

/** The route the benches drive: Strapi's article list, put under the key middleware by ACCESS_ROUTE_PREFIXES. */
const ACCESS_ROUTE = '/api/articles?pagination[pageSize]=20';
const PREFIXES_WITH_ROUTE = '/api/v1,/api/webhooks,/api/articles';
const PREFIXES_WITHOUT_ROUTE = '/api/v1,/api/webhooks';
/** A site type's list the Public role may not call: a key is held to its owner's role and plan there, an API token to nothing. */
const SITE_ROUTE = '/api/pages?pagination[pageSize]=20';

module.exports = { seedAccess, ACCESS_ROUTE, SITE_ROUTE, PREFIXES_WITH_ROUTE, PREFIXES_WITHOUT_ROUTE };
