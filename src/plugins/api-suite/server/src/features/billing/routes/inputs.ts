import { routeInput } from '../../../http/input';
import { adminSubscriptionsQuery, checkoutBody, planChoiceBody } from '../validation';

/** What each billing route takes, named in its route config and read by its handler (http/input.ts). */
export const inputs = {
  // Read once billing is known to be ready and the caller a consumer: a site without billing answers 503 whatever the body.
  planChoice: routeInput({ body: planChoiceBody, deferred: ['body'] }),
  checkout: routeInput({ body: checkoutBody, deferred: ['body'] }),
  adminSubscriptions: routeInput({ query: adminSubscriptionsQuery }),
};
