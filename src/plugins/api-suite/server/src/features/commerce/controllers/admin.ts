import type { Core } from '@strapi/strapi';
import type { Context } from 'koa';
import { input } from '../../../http/input';
import { getService } from '../../../utils';
import { inputs } from '../routes/inputs';

/**
 * `/api-suite/sales/*` for the admin panel's Sales page: the sales report's figures for the day,
 * the week and the month in one answer, and the latest orders. The commerce services do the work.
 */
export default ({ strapi }: { strapi: Core.Strapi }) => ({
  async report(ctx: Context) {
    ctx.body = { data: await getService(strapi, 'sales-reports').report() };
  },

  async orders(ctx: Context) {
    const { query } = input(ctx, inputs.adminOrders);
    const { rows, total } = await getService(strapi, 'orders').latest(query);
    ctx.body = { data: rows, meta: { page: query.page, limit: query.limit, total } };
  },
});
