import { defineContracts } from '../../../contract/route';
import { adminSubscriptionsQuery } from './index';
import * as answers from './responses';

/**
 * The contracts of the admin panel's billing routes (`/api-suite/billing/*`, the Sales page).
 * Refusals are in Strapi's error body (`{ error: { status, name, message, details } }`).
 */
export const adminBillingContracts = defineContracts({
  subscriptions: {
    method: 'get',
    path: '/api-suite/billing/subscriptions',
    query: adminSubscriptionsQuery,
    responses: {
      '200': {
        description: 'A page of subscriptions, most recently updated first, with whether billing is set up (`meta.billing`).',
        json: answers.adminBillingSubscriptionPage,
      },
      '400': { description: 'A bad `page`, `limit` or `status` (`validation_error`).' },
    },
  },
});
