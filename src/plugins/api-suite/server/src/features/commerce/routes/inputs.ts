import type { Context } from 'koa';
import { routeInput } from '../../../http/input';
import { userOf } from '../controllers/caller';
import { adminOrdersQuery, checkoutBody, parseCheckout } from '../validation';

/** What each commerce route takes, named in its route config and read by its handler (http/input.ts). */
export const inputs = {
  // The buyer from their token first: without a valid one the answer is 401 whatever the cart.
  checkout: routeInput({ load: (ctx: Context) => userOf(strapi, ctx), body: { parse: parseCheckout, of: checkoutBody } }),
  adminOrders: routeInput({ query: adminOrdersQuery }),
};
