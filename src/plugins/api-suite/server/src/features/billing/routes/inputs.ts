import { routeInput } from '../../../http/input';
import { adminSubscriptionsQuery } from '../validation';

/**
 * What each billing route takes, named in its route config and read by its handler
 * (http/input.ts). The /api/v1 routes read their body themselves, after the checks that make
 * a site without billing answer 503 whatever the body (controllers/billing.ts).
 */
export const inputs = {
  adminSubscriptions: routeInput({ query: adminSubscriptionsQuery }),
};
