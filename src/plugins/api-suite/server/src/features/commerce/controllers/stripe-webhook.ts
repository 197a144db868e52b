import type { Core } from '@strapi/strapi';
import type { Context } from 'koa';
import { errorFamily, errorMessageBody } from '../../../http/errors';
import { getService } from '../../../utils';
import { rawBodyOf } from '../middlewares/commerce-body';
import { StripeUnavailableError } from '../../../stripe';
import { EventNotProcessedError, RawBodyUnavailableError, StripeNotConfiguredError } from '../errors';

/**
 * `plugin::api-suite.stripe-webhook-errors`: `{ error: "<message>" }`. An event that could not be
 * applied is not acknowledged: Stripe retries, and the event is applied then (nothing of it was kept).
 */
export const stripeWebhookErrors = errorFamily(
  errorMessageBody,
  (error, strapi) => {
    strapi.log.error(`[api-suite] stripe: event not processed: ${(error as Error).stack ?? String(error)}`);
    return new EventNotProcessedError();
  },
  { accepts: 'raw' }
);

/**
 * `POST /api/webhook/stripe` (docs/commerce.md#the-stripe-webhook): Stripe's notifications,
 * verified over the raw body, each applied once; every verified event, handled or not, answers
 * `{ received: true }`.
 */
export default ({ strapi }: { strapi: Core.Strapi }) => {
  const received = getService(strapi, 'metrics').counter({
    name: 'stripe_webhook_events_total',
    help: "Stripe's webhook events by type and outcome (applied, duplicate, ignored, error; refused: no valid signature, type unknown)",
    labelNames: ['type', 'outcome'],
  });
  return {
    async receive(ctx: Context) {
      const raw = rawBodyOf(ctx);
      if (!raw) {
        strapi.log.error(
          "[api-suite] stripe: the raw request body is not available, so no signature can be checked. Add 'plugin::api-suite.commerce-body' just before 'strapi::body' in config/middlewares.ts"
        );
        throw new RawBodyUnavailableError();
      }
      let event;
      try {
        event = getService(strapi, 'stripe').verify(raw, ctx.get('stripe-signature') || undefined);
      } catch (error) {
        received.inc({ type: 'unknown', outcome: 'refused' });
        if (!(error instanceof StripeUnavailableError)) throw error;
        strapi.log.error(`[api-suite] stripe: webhook refused, ${error.message}`);
        throw new StripeNotConfiguredError();
      }
      // Subscription-mode sessions, subscriptions and invoices are billing's; payment-mode sessions are orders'.
      const billing = getService(strapi, 'billing-events');
      let outcome: string;
      try {
        outcome = billing.handles(event) ? await billing.apply(event) : await getService(strapi, 'stripe-events').apply(event);
      } catch (error) {
        received.inc({ type: event.type, outcome: 'error' });
        throw error;
      }
      received.inc({ type: event.type, outcome });
      if (outcome === 'duplicate') strapi.log.info(`[api-suite] stripe: event ${event.id} was applied before, acknowledged again`);
      ctx.body = { received: true };
    },
  };
};
