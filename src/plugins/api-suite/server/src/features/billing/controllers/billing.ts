import type { Core } from '@strapi/strapi';
import type { Context } from 'koa';
import Stripe from 'stripe';
import { ApiError, respondNestedError, type Unexpected } from '../../../http/errors';
import { consumerOf } from '../../../http/consumer';
import { getService } from '../../../utils';
import { planChoiceBody } from '../validation';
import type { Buyer } from '../services/account';

/**
 * `/api/v1/billing/*` (docs/billing.md#routes). Every route answers 503 `billing_not_configured`
 * while Stripe is not configured or not provisioned yet (the reason is logged, not shown).
 */
export default ({ strapi }: { strapi: Core.Strapi }) => {
  const account = () => getService(strapi, 'billing-account');

  const ensureReady = () => {
    const status = getService(strapi, 'billing-catalog').status();
    if (!status.ready) throw new ApiError(503, 'billing_not_configured', 'Billing is not available on this site');
  };

  /** Stripe refusing or out of reach: a 502 the consumer may retry, with Stripe's reason in the log only. */
  const stripeFault: Unexpected = (error) => {
    if (!(error instanceof Stripe.errors.StripeError)) throw error;
    strapi.log.error(`[api-suite] billing: Stripe answered ${error.statusCode ?? 'nothing'} (${error.type}): ${error.message}`);
    return new ApiError(502, 'payment_provider_error', 'Stripe could not complete the request; try again in a moment');
  };

  const buyerOf = (ctx: Context): Buyer => {
    const caller = consumerOf(ctx);
    if (!caller.consumerId) throw new ApiError(403, 'consumer_required', 'This route acts for a consumer');
    return { userId: caller.userId, consumerId: caller.consumerId };
  };

  return {
    async plans(ctx: Context) {
      await respondNestedError(
        ctx,
        async () => {
          ensureReady();
          ctx.body = { data: await account().plans() };
        },
        stripeFault
      );
    },

    async checkout(ctx: Context) {
      await respondNestedError(
        ctx,
        async () => {
          ensureReady();
          const buyer = buyerOf(ctx);
          const body = planChoiceBody.parse(ctx.request.body ?? {});
          ctx.body = { data: await account().checkout(buyer, body.plan_id) };
        },
        stripeFault
      );
    },

    async changePlan(ctx: Context) {
      await respondNestedError(
        ctx,
        async () => {
          ensureReady();
          const buyer = buyerOf(ctx);
          const body = planChoiceBody.parse(ctx.request.body ?? {});
          ctx.body = { data: await account().changePlan(buyer, body.plan_id) };
        },
        stripeFault
      );
    },

    async portal(ctx: Context) {
      await respondNestedError(
        ctx,
        async () => {
          ensureReady();
          ctx.body = { data: await account().portal(buyerOf(ctx)) };
        },
        stripeFault
      );
    },

    async subscription(ctx: Context) {
      await respondNestedError(
        ctx,
        async () => {
          ensureReady();
          ctx.body = { data: await account().subscription(buyerOf(ctx)) };
        },
        stripeFault
      );
    },
  };
};
