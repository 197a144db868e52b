import type { Core } from '@strapi/strapi';
import type { Context } from 'koa';
import { getService } from '../../../utils';

/** `GET /api/v1/openapi.json`: the document generated from the routes' zod schemas, serialised once. */
export default ({ strapi }: { strapi: Core.Strapi }) => ({
  async document(ctx: Context) {
    ctx.type = 'application/json';
    ctx.set('Cache-Control', 'public, max-age=300');
    ctx.body = getService(strapi, 'openapi').json();
  },

  /** `GET /api/v1/openapi.d.ts`: the same document's TypeScript types (openapi-typescript), generated once per process. */
  async typescript(ctx: Context) {
    const source = await getService(strapi, 'openapi').typescript();
    ctx.type = 'text/plain; charset=utf-8';
    ctx.set('Cache-Control', 'public, max-age=300');
    ctx.set('Content-Disposition', 'inline; filename="openapi.d.ts"');
    ctx.body = source;
  },
});
