import { routeInput } from '../../../http/input';
import { adminOrdersQuery, parseCheckout } from '../validation';

/** What each commerce route takes, named in its route config and read by its handler (http/input.ts). */
export const inputs = {
  // Read once the buyer's token is checked: without a valid one the answer is 401 whatever the cart.
  checkout: routeInput({ body: { parse: parseCheckout }, deferred: ['body'] }),
  adminOrders: routeInput({ query: adminOrdersQuery }),
};
