import type { Core } from '@strapi/strapi';

/**
 * Strapi's CORS middleware (koa/cors underneath) answers a request without an `Origin` header,
 * such as curl's or a server's, with an empty `Access-Control-Allow-Origin:` (and
 * `Access-Control-Allow-Credentials: true`): a header without a value, which means nothing to a
 * browser and only puzzles whoever reads the answer. This drops the CORS answer headers when the
 * allowed origin is empty. Placed before `strapi::errors`, so error answers are covered too.
 */
const omitEmptyCors: Core.MiddlewareFactory = () => {
  return async (ctx, next) => {
    await next();
    // `ctx.response.get` answers '' for an absent header too; the headers object tells them apart.
    if (ctx.response.headers['access-control-allow-origin'] !== '') return;
    ctx.remove('Access-Control-Allow-Origin');
    ctx.remove('Access-Control-Allow-Credentials');
  };
};

export default omitEmptyCors;
