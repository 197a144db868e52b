import type { Core } from '@strapi/strapi';
import type { Context } from 'koa';
import { getService } from '../../../utils';

export default ({ strapi }: { strapi: Core.Strapi }) => ({
  async find(ctx: Context) {
    ctx.body = { data: await getService(strapi, 'plans').list() };
  },
});
