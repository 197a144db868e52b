import type { Core } from '@strapi/strapi';
import type { Context } from 'koa';
import { respondStrapiError } from '../../../http/errors';
import { getService } from '../../../utils';
import { adminSubscriptionsQuery } from '../validation';

/** `/api-suite/billing/*` for the admin panel's Sales page: subscriptions, and whether billing is on. */
export default ({ strapi }: { strapi: Core.Strapi }) => ({
  async subscriptions(ctx: Context) {
    await respondStrapiError(ctx, async () => {
      const query = adminSubscriptionsQuery.parse(ctx.query);
      const { data, total } = await getService(strapi, 'billing-subscriptions').list(query);
      ctx.body = { data, meta: { page: query.page, limit: query.limit, total, billing: getService(strapi, 'billing-catalog').status() } };
    });
  },
});
