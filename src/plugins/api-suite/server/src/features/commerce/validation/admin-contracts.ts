import { dataOf, pageOf } from '../../../contract/common';
import { defineContracts } from '../../../contract/route';
import { adminOrdersQuery } from './index';
import * as answers from './responses';

/**
 * The contracts of the admin panel's Sales routes (`/api-suite/sales/*`): the sales report and the
 * latest orders. Refusals are in Strapi's error body (`{ error: { status, name, message, details } }`).
 */
export const adminCommerceContracts = defineContracts({
  report: {
    method: 'get',
    path: '/api-suite/sales/report',
    responses: {
      '200': { description: "The day's, the week's and the month's sales, in the shop's currency.", json: dataOf(answers.salesReport) },
    },
  },
  orders: {
    method: 'get',
    path: '/api-suite/sales/orders',
    query: adminOrdersQuery,
    responses: {
      '200': { description: 'A page of orders, newest first.', json: pageOf(answers.orderListing) },
      '400': { description: 'A bad `page`, `limit` or `status` (`validation_error`).' },
    },
  },
});
