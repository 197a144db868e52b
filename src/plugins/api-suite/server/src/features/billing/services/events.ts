import type { Core } from '@strapi/strapi';
import type Stripe from 'stripe';
import { UIDS } from '../../../constants';
import { dialectOf, tableOf } from '../../../db';
import { recordStripeEvent } from '../../../stripe/ledger';
import { getService } from '../../../utils';
import type { BillingAnnouncement } from './subscriptions';

export type BillingEventOutcome = 'applied' | 'duplicate' | 'ignored';

const SUBSCRIPTION_EVENTS = new Set(['customer.subscription.created', 'customer.subscription.updated', 'customer.subscription.deleted']);
const INVOICE_EVENTS = new Set(['invoice.paid', 'invoice.payment_failed']);

/** The subscription an event is about, or null when it is not one of billing's. */
function subscriptionIdOf(event: Stripe.Event): string | null {
  const object = event.data.object as unknown as Record<string, unknown>;
  if (event.type === 'checkout.session.completed') {
    const session = object as unknown as Stripe.Checkout.Session;
    if (session.mode !== 'subscription' || !session.subscription) return null;
    return typeof session.subscription === 'string' ? session.subscription : session.subscription.id;
  }
  if (SUBSCRIPTION_EVENTS.has(event.type)) return (object as unknown as Stripe.Subscription).id;
  if (INVOICE_EVENTS.has(event.type)) {
    const invoice = object as unknown as Stripe.Invoice;
    const subscription = invoice.parent?.subscription_details?.subscription;
    if (!subscription) return null;
    return typeof subscription === 'string' ? subscription : subscription.id;
  }
  return null;
}

/**
 * Stripe's billing notifications (docs/billing.md#what-stripes-events-do), each event id applied
 * once. The event only says which subscription changed: its state is read back from Stripe and
 * applied, so repeated, late and reordered events all converge to Stripe's latest state. Events
 * of one subscription are applied one at a time on this instance.
 */
const billingEventsService = ({ strapi }: { strapi: Core.Strapi }) => {
  const chains = new Map<string, Promise<unknown>>();

  const table = () => tableOf(strapi, UIDS.stripeEvent);

  const seen = async (event: Stripe.Event): Promise<boolean> =>
    (await strapi.db.connection(table()).where({ event_id: event.id }).first('id')) !== undefined;

  /** Recorded after the event is applied: a crash before that leaves it unrecorded, and Stripe's retry applies it (applying is idempotent). */
  const record = async (event: Stripe.Event): Promise<void> => {
    await recordStripeEvent(strapi.db.connection, dialectOf(strapi), table(), event);
  };

  const applyOne = async (event: Stripe.Event, subscriptionId: string): Promise<BillingEventOutcome> => {
    if (await seen(event)) return 'duplicate';
    const subscriptions = getService(strapi, 'billing-subscriptions');
    // A yearly subscription gets its monthly overage item here, before it is applied (docs/billing.md#yearly-prices).
    const subscription = await subscriptions.withOverage(
      await getService(strapi, 'stripe').client().subscriptions.retrieve(subscriptionId)
    );
    const announce: BillingAnnouncement[] = [];
    if (event.type === 'invoice.payment_failed') {
      const invoice = event.data.object as Stripe.Invoice;
      announce.push({
        userId: 0,
        type: 'billing.payment_failed',
        payload: { invoice_id: invoice.id, amount_due: invoice.amount_due, currency: invoice.currency },
      });
    }
    const applied = await subscriptions.apply(subscription, { announce });
    await record(event);
    return applied ? 'applied' : 'ignored';
  };

  return {
    handles(event: Stripe.Event): boolean {
      return subscriptionIdOf(event) !== null || SUBSCRIPTION_EVENTS.has(event.type) || INVOICE_EVENTS.has(event.type);
    },

    async apply(event: Stripe.Event): Promise<BillingEventOutcome> {
      const subscriptionId = subscriptionIdOf(event);
      if (!subscriptionId) return 'ignored';
      const previous = chains.get(subscriptionId) ?? Promise.resolve();
      const next = previous.catch(() => undefined).then(() => applyOne(event, subscriptionId));
      chains.set(subscriptionId, next);
      try {
        return await next;
      } finally {
        if (chains.get(subscriptionId) === next) chains.delete(subscriptionId);
      }
    },
  };
};

export type BillingEventsService = ReturnType<typeof billingEventsService>;
export default billingEventsService;
