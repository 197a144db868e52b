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
});
