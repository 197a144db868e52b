import type { Core } from '@strapi/strapi';
import { UIDS } from '../../../constants';
import { dialectOf, tableOf } from '../../../db';
import { getConfig } from '../../../utils';
import { REPORT_PERIODS, type ReportPeriod } from '../validation';
import type { SalesFigures, SalesReport } from '../validation/responses';

/** Orders that count as sales: paid, and what follows payment. */
export const SOLD_STATUSES = ['paid', 'shipped', 'delivered'] as const;

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The sales report (docs/commerce.md#the-sales-report): one aggregate query over the orders created
 * within the period whose status is a sale. The database counts, sums and averages, in cents:
 * SQLite keeps decimals as floating point, where 0.1 + 0.2 is not 0.3 and a mean of exactly x.5
 * could round down. Whole cents add up exactly in both databases, and the mean is rounded to a
 * whole number (half away from zero) by the database from their sum.
 */
const salesReportsService = ({ strapi }: { strapi: Core.Strapi }) => {
  const sales = async (period: ReportPeriod, now = new Date()): Promise<SalesFigures> => {
    const since = new Date(now.getTime() - REPORT_PERIODS[period] * DAY_MS);
    const knex = strapi.db.connection;
    const row = (await knex(tableOf(strapi, UIDS.order))
      .whereIn('status', [...SOLD_STATUSES])
      // Strapi keeps SQLite datetimes as epoch milliseconds; knex binds a Date as such there.
      .where('date_created', '>=', dialectOf(strapi) === 'sqlite' ? since.getTime() : since)
      .first(
        knex.raw('COUNT(*) AS ??', ['count']),
        knex.raw('COALESCE(SUM(ROUND(?? * 100)), 0) AS ??', ['total', 'revenue_minor']),
        knex.raw('COALESCE(ROUND(SUM(ROUND(?? * 100)) / (100.0 * NULLIF(COUNT(*), 0))), 0) AS ??', ['total', 'avg_order'])
      )) as { count: number | string; revenue_minor: number | string | null; avg_order: number | string | null } | undefined;
    return {
      count: Number(row?.count ?? 0),
      revenue: Number(row?.revenue_minor ?? 0) / 100,
      // + 0 turns a -0 into 0.
      avgOrder: Number(row?.avg_order ?? 0) + 0,
      period,
    };
  };
  return {
    sales,
    /** The admin's report: the day's, the week's and the month's figures, read at one clock so a day is never more than its week. */
    async report(now = new Date()): Promise<SalesReport> {
      const [day, week, month] = await Promise.all((['day', 'week', 'month'] as const).map((period) => sales(period, now)));
      return { currency: getConfig(strapi).commerce.currency, periods: { day, week, month } };
    },
  };
};

export type SalesReportsService = ReturnType<typeof salesReportsService>;
export default salesReportsService;
