import type { Core } from '@strapi/strapi';
import Stripe from 'stripe';
import { getConfig } from '../utils';
import { InvalidPayloadError, InvalidSignatureError, MissingSignatureError } from './errors';

/** One line of a Checkout Session: a product at its captured unit price (an order's item). */
export interface CheckoutLine {
  name: string;
  price: number;
  quantity: number;
}

export interface CheckoutSession {
  id: string;
  url: string;
}

/** Thrown when Stripe cannot be used as configured; the caller answers 500 and logs the reason. */
export class StripeUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StripeUnavailableError';
  }
}

/**
 * The one place that talks to Stripe, through the official SDK: Checkout Sessions for orders,
 * the signature check of Stripe's webhooks, and the client billing and access use. Registered by
 * the platform feature, since commerce, billing and access all use it and none of them owns it.
 * Host, port and protocol come from the config so that tests point the SDK at a local stub.
 */
const stripeService = ({ strapi }: { strapi: Core.Strapi }) => {
  const settings = () => getConfig(strapi).commerce;
  let client: Stripe | undefined;

  const sdk = (): Stripe => {
    const { stripeSecretKey, stripeApi } = settings();
    if (!stripeSecretKey) throw new StripeUnavailableError('STRIPE_SECRET_KEY is not set');
    client ??= new Stripe(stripeSecretKey, {
      host: stripeApi.host,
      port: stripeApi.port,
      protocol: stripeApi.protocol,
      maxNetworkRetries: stripeApi.maxNetworkRetries,
      timeout: stripeApi.timeoutMs,
      appInfo: { name: 'strapi-plugin-api-suite' },
    });
    return client;
  };

  return {
    /** The configured SDK client; StripeUnavailableError without a secret key. */
    client(): Stripe {
      return sdk();
    },

    /** Whether checkout can create sessions at all. */
    configured(): boolean {
      return Boolean(settings().stripeSecretKey);
    },

    /**
     * A hosted Checkout Session for an order: one line per product at the captured price, in
     * minor units (the price times 100), card only, the order's id in the metadata. The
     * idempotency key is the order's, so the SDK's retries (and any retry of this call for the
     * same order) get the session made the first time rather than a second one.
     */
    async createSession(order: { uuid: string; items: CheckoutLine[] }): Promise<CheckoutSession> {
      const { currency, successUrl, cancelUrl, sessionExpiresMinutes } = settings();
      const fill = (template: string) => template.split('{ORDER_ID}').join(encodeURIComponent(order.uuid));
      const params: Stripe.Checkout.SessionCreateParams = {
        mode: 'payment',
        // Stripe's API (2026) names the card-only restriction allowed_payment_method_types.
        allowed_payment_method_types: ['card'],
        line_items: order.items.map((item) => ({
          quantity: item.quantity,
          price_data: { currency, unit_amount: toMinorUnits(item.price), product_data: { name: item.name } },
        })),
        metadata: { order_id: order.uuid },
        client_reference_id: order.uuid,
        payment_intent_data: { metadata: { order_id: order.uuid } },
        success_url: fill(successUrl),
        cancel_url: fill(cancelUrl),
        expires_at: Math.floor(Date.now() / 1000) + sessionExpiresMinutes * 60,
      };
      const session = await sdk().checkout.sessions.create(params, { idempotencyKey: `checkout-session-${order.uuid}` });
      if (!session.url) throw new Error(`Stripe answered session ${session.id} without a URL`);
      return { id: session.id, url: session.url };
    },

    /**
     * The event Stripe sent, once its `Stripe-Signature` is verified over the exact bytes
     * received (400 otherwise). Without a webhook secret nothing can be verified: that is the
     * site's configuration, a 500, so Stripe keeps retrying until it is fixed.
     */
    verify(raw: Buffer, signature: string | undefined): Stripe.Event {
      const secret = settings().stripeWebhookSecret;
      if (!secret) throw new StripeUnavailableError('STRIPE_WEBHOOK_SECRET is not set');
      if (!signature) throw new MissingSignatureError();
      let event: Stripe.Event;
      try {
        event = Stripe.webhooks.constructEvent(raw, signature, secret);
      } catch (error) {
        if (error instanceof Stripe.errors.StripeSignatureVerificationError) throw new InvalidSignatureError();
        // A verified body that is not JSON: not something Stripe sends.
        if (error instanceof SyntaxError) throw new InvalidPayloadError();
        throw error;
      }
      // Signed is not the same as well formed: every handler reads `data.object` of an event with an id and a type.
      const shape = event as unknown as { id?: unknown; type?: unknown; data?: { object?: unknown } };
      if (
        typeof shape.id !== 'string' ||
        typeof shape.type !== 'string' ||
        typeof shape.data?.object !== 'object' ||
        shape.data.object === null
      ) {
        throw new InvalidPayloadError('Invalid payload: a Stripe event has an id, a type and data.object');
      }
      return event;
    },
  };
};

/** 12.5 → 1250. Rounded, since 19.99 × 100 is 1998.9999999999998 in floating point. */
export function toMinorUnits(amount: number): number {
  return Math.round(amount * 100);
}

export type StripeService = ReturnType<typeof stripeService>;
export default stripeService;
