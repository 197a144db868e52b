/**
 * /api/v1/articles. Strapi's own route auth is off: the api-suite access middleware, global for
 * /api/v1, authenticates the caller (keys, OAuth tokens, user JWTs) before these run. The
 * plugin's `/api/v1` error middleware answers what the handlers throw, as on its own routes.
 */
const config = { auth: false as const, middlewares: ['plugin::api-suite.nested-errors'] };

export default {
  routes: [
    { method: 'GET', path: '/v1/articles', handler: 'articles-v1.find', config },
    { method: 'POST', path: '/v1/articles', handler: 'articles-v1.create', config },
    { method: 'GET', path: '/v1/articles/:id', handler: 'articles-v1.findOne', config },
    { method: 'PUT', path: '/v1/articles/:id', handler: 'articles-v1.replace', config },
    { method: 'PATCH', path: '/v1/articles/:id', handler: 'articles-v1.patch', config },
    { method: 'DELETE', path: '/v1/articles/:id', handler: 'articles-v1.remove', config },
    { method: 'GET', path: '/v1/articles/:id/comments', handler: 'articles-v1.comments', config },
  ],
};
