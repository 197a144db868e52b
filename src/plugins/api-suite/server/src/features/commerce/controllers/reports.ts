import type { Core } from '@strapi/strapi';
import type { Context } from 'koa';
import { errorFamily, errorListBody } from '../../../http/errors';
import { getService } from '../../../utils';
import { parsePeriod } from '../validation';
import { userOf } from './caller';
import { ReportFailedError } from '../errors';
import { AdministratorsOnlyError } from '../../../http/errors';

/** `plugin::api-suite.report-errors`: `{ errors: [{ message }] }`, a fault included ("The report could not be made", logged). */
export const reportErrors = errorFamily(errorListBody, (error, strapi) => {
  strapi.log.error(`[api-suite] sales report failed: ${(error as Error).stack ?? String(error)}`);
  return new ReportFailedError();
});

/** `GET /api/reports/sales?period=day|week|month` (docs/commerce.md#the-sales-report), for administrators. */
export default ({ strapi }: { strapi: Core.Strapi }) => ({
  async sales(ctx: Context) {
    const caller = await userOf(strapi, ctx);
    if (!caller.isAdmin) throw new AdministratorsOnlyError('Only administrators may read sales reports');
    ctx.body = { data: await getService(strapi, 'sales-reports').sales(parsePeriod(ctx.query.period)) };
  },
});
