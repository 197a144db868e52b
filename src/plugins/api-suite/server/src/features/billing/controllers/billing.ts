import type { Core } from '@strapi/strapi';
import type { Context } from 'koa';
import Stripe from 'stripe';
import { ApiError, errorFamily, nestedErrorBody } from '../../../http/errors';
import { consumerOf } from '../../../http/consumer';
import { getService } from '../../../utils';
import { input } from '../../../http/input';
import { inputs } from '../routes/inputs';
import type { Buyer } from '../services/account';
import { UnavailableError } from '../../../errors';

/**
 * `plugin::api-suite.billing-errors`, the billing routes' error middleware: the `/api/v1` body,
 * and Stripe refusing or out of reach as a 502 the consumer may retry, with Stripe's reason in
 * the log only. Any other fault goes on to Strapi's error middleware.
 */
export const billingErrors = errorFamily(nestedErrorBody, (error, strapi) => {
  if (!(error instanceof Stripe.errors.StripeError)) throw error;
  strapi.log.error(`[api-suite] billing: Stripe answered ${error.statusCode ?? 'nothing'} (${error.type}): ${error.message}`);
  return new ApiError(502, 'payment_provider_error', 'Stripe could not complete the request; try again in a moment');
});

/**
 * `/api/v1/billing/*` (docs/billing.md#routes). Every route answers 503 `billing_not_configured`
 * while Stripe is not configured or not provisioned yet (the reason is logged, not shown).
 */
export default ({ strapi }: { strapi: Core.Strapi }) => {
  const account = () => getService(strapi, 'billing-account');

  const ensureReady = () => {
    const status = getService(strapi, 'billing-catalog').status();
    if (!status.ready) throw new UnavailableError('billing_not_configured', 'Billing is not available on this site');
  };

  /** The consumer buying, once billing is known to be ready. */
  const buyerOf = (ctx: Context): Buyer => {
    ensureReady();
    const { userId, consumerId } = consumerOf(ctx);
    return { userId, consumerId };
  };

  const planChoice = (ctx: Context) => input(ctx, inputs.planChoice).body.plan_id;

  return {
    async plans(ctx: Context) {
      ensureReady();
      ctx.body = { data: await account().plans() };
    },

    async checkout(ctx: Context) {
      const buyer = buyerOf(ctx);
      const { plan_id: planId, interval } = input(ctx, inputs.checkout).body;
      ctx.body = { data: await account().checkout(buyer, planId, interval) };
    },

    async changePlan(ctx: Context) {
      const buyer = buyerOf(ctx);
      ctx.body = { data: await account().changePlan(buyer, planChoice(ctx)) };
    },

    async portal(ctx: Context) {
      ctx.body = { data: await account().portal(buyerOf(ctx)) };
    },

    async subscription(ctx: Context) {
      ctx.body = { data: await account().subscription(buyerOf(ctx)) };
    },
  };
};
