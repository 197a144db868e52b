import type { Core } from '@strapi/strapi';
import type { Context } from 'koa';
import { input } from '../../../http/input';
import { getConfig, getService } from '../../../utils';
import type { SalesReport } from '../services/sales-reports';
import { inputs } from '../routes/inputs';
import { REPORT_PERIODS, type ReportPeriod } from '../validation';

export interface AdminSalesReport {
  /** The shop's currency (lowercase ISO 4217), which every total is in. */
  currency: string;
  periods: Record<ReportPeriod, SalesReport>;
}

/**
 * `/api-suite/sales/*` for the admin panel's Sales page: the sales report's figures for the day,
 * the week and the month in one answer, and the latest orders. The commerce services do the work.
 */
export default ({ strapi }: { strapi: Core.Strapi }) => ({
  async report(ctx: Context) {
    const reports = getService(strapi, 'sales-reports');
    // One clock for the three figures, so a day is never more than its week.
    const now = new Date();
    const names = Object.keys(REPORT_PERIODS) as ReportPeriod[];
    const figures = await Promise.all(names.map((period) => reports.sales(period, now)));
    const periods = Object.fromEntries(names.map((period, index) => [period, figures[index]])) as Record<ReportPeriod, SalesReport>;
    const body: AdminSalesReport = { currency: getConfig(strapi).commerce.currency, periods };
    ctx.body = { data: body };
  },

  async orders(ctx: Context) {
    const { query } = input(ctx, inputs.adminOrders);
    const { rows, total } = await getService(strapi, 'orders').latest(query);
    ctx.body = { data: rows, meta: { page: query.page, limit: query.limit, total } };
  },
});
