import type { Core } from '@strapi/strapi';
import type { Context } from 'koa';
import { input } from '../../../http/input';
import { getService } from '../../../utils';
import { inputs } from '../routes/inputs';

/** `/api-suite/billing/*` for the admin panel's Sales page: subscriptions, and whether billing is on. */
export default ({ strapi }: { strapi: Core.Strapi }) => ({
  async subscriptions(ctx: Context) {
    const { query } = input(ctx, inputs.adminSubscriptions);
    const { data, total } = await getService(strapi, 'billing-subscriptions').list(query);
    ctx.body = { data, meta: { page: query.page, limit: query.limit, total, billing: getService(strapi, 'billing-catalog').status() } };
  },
});
