import type { Context } from 'koa';
import { routeInput } from '../../../http/input';
import { buyerOf } from '../buyer';
import { adminSubscriptionsQuery, checkoutBody, planChoiceBody } from '../validation';

/** What each billing route takes, named in its route config and read by its handler (http/input.ts). */
export const inputs = {
  // The buyer first: a site without billing answers 503, and the shared key 403, whatever the body.
  planChoice: routeInput({ load: async (ctx: Context) => buyerOf(strapi, ctx), body: planChoiceBody }),
  checkout: routeInput({ load: async (ctx: Context) => buyerOf(strapi, ctx), body: checkoutBody }),
  adminSubscriptions: routeInput({ query: adminSubscriptionsQuery }),
};
