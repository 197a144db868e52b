import type { Context } from 'koa';
import { routeInput } from '../../../http/input';
import { buyerOf } from '../buyer';
import { adminSubscriptionsQuery, planChoiceBody } from '../validation';

/** What each billing route takes, named in its route config and read by its handler (http/input.ts). */
export const inputs = {
  // The buyer first: a site without billing answers 503, and the shared key 403, whatever the body.
  planChoice: routeInput({ load: async (ctx: Context) => buyerOf(strapi, ctx), body: planChoiceBody }),
  adminSubscriptions: routeInput({ query: adminSubscriptionsQuery }),
};
