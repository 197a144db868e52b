import type { Core } from '@strapi/strapi';
import type { Context } from 'koa';
import Stripe from 'stripe';
import { errorFamily, nestedErrorBody } from '../../../http/errors';
import { getService } from '../../../utils';
import { input } from '../../../http/input';
import { inputs } from '../routes/inputs';
import { buyerOf, ensureBillingReady } from '../buyer';
import { PaymentProviderError } from '../errors';

/**
 * `plugin::api-suite.billing-errors`, the billing routes' error middleware: the `/api/v1` body,
 * and Stripe refusing or out of reach as a 502 the consumer may retry, with Stripe's reason in
 * the log only. Any other fault goes on to Strapi's error middleware.
 */
export const billingErrors = errorFamily(nestedErrorBody, (error, strapi) => {
  if (!(error instanceof Stripe.errors.StripeError)) throw error;
  strapi.log.error(`[api-suite] billing: Stripe answered ${error.statusCode ?? 'nothing'} (${error.type}): ${error.message}`);
  return new PaymentProviderError();
});

/**
 * `/api/v1/billing/*` (docs/billing.md#routes). Every route answers 503 `billing_not_configured`
 * while Stripe is not configured or not provisioned yet (buyer.ts).
 */
export default ({ strapi }: { strapi: Core.Strapi }) => {
  const account = () => getService(strapi, 'billing-account');

  const buyer = (ctx: Context) => buyerOf(strapi, ctx);

  return {
    async plans(ctx: Context) {
      ensureBillingReady(strapi);
      ctx.body = { data: await account().plans() };
    },

    async checkout(ctx: Context) {
      const { row: buying, body } = input(ctx, inputs.checkout);
      ctx.body = { data: await account().checkout(buying, body.plan_id, body.interval) };
    },

    async changePlan(ctx: Context) {
      const { row: buying, body } = input(ctx, inputs.planChoice);
      ctx.body = { data: await account().changePlan(buying, body.plan_id) };
    },

    async portal(ctx: Context) {
      ctx.body = { data: await account().portal(buyer(ctx)) };
    },

    async subscription(ctx: Context) {
      ctx.body = { data: await account().subscription(buyer(ctx)) };
    },
  };
};
