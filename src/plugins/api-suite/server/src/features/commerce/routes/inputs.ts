import { routeInput } from '../../../http/input';
import { adminOrdersQuery } from '../validation';

/**
 * What each commerce route takes, named in its route config and read by its handler
 * (http/input.ts). Checkout reads its cart itself, once the buyer's token is checked
 * (controllers/checkout.ts).
 */
export const inputs = {
  adminOrders: routeInput({ query: adminOrdersQuery }),
};
