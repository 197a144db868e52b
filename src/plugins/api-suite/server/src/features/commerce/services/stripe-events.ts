import type { Core } from '@strapi/strapi';
import type Stripe from 'stripe';
import { UIDS } from '../../../constants';
import { dialectOf, tableOf, type Knex } from '../../../db';
import { getService } from '../../../utils';
import type { Announcement } from './orders';
import { toMinorUnits } from '../../../stripe';
import { recordStripeEvent } from '../../../stripe/ledger';

export type EventOutcome = 'applied' | 'duplicate' | 'ignored';

/** The Checkout Session events that change an order; every other type is acknowledged and left alone. */
const HANDLED = new Set([
  'checkout.session.completed',
  'checkout.session.async_payment_succeeded',
  'checkout.session.async_payment_failed',
  'checkout.session.expired',
]);

/**
 * Stripe's notifications applied to orders, each event once. The event id is recorded in the
 * transaction that applies it, under a unique index: a second delivery of the same event, even
 * one racing the first on another connection, inserts nothing and changes nothing. If applying
 * fails, the record rolls back with it and Stripe's retry applies the event then.
 *
 * - completed (paid, or no payment required) and async_payment_succeeded: pending → paid, with
 *   payment_id and paid_at; order.updated and order.paid.
 * - completed while still unpaid (a delayed payment method): nothing yet, its async event follows.
 * - expired and async_payment_failed: pending → cancelled, stock returned; order.updated.
 */
const stripeEventsService = ({ strapi }: { strapi: Core.Strapi }) => {
  const eventsTable = () => tableOf(strapi, UIDS.stripeEvent);
  const orders = () => getService(strapi, 'orders');

  /** Record the event id; false when it was recorded before (the event was applied already). */
  const claim = (trx: Knex, event: Stripe.Event, orderUuid: string | null): Promise<boolean> =>
    recordStripeEvent(trx, dialectOf(strapi), eventsTable(), event, orderUuid);

  return {
    async apply(event: Stripe.Event): Promise<EventOutcome> {
      if (!HANDLED.has(event.type)) return 'ignored';
      const session = event.data.object as Stripe.Checkout.Session;
      const orderUuid =
        typeof session.metadata?.order_id === 'string' && session.metadata.order_id !== '' ? session.metadata.order_id : null;
      const announcement: Announcement = { orders: [] };

      const outcome = await strapi.db.transaction(async ({ trx, onCommit }): Promise<EventOutcome> => {
        if (!(await claim(trx, event, orderUuid))) return 'duplicate';
        if (!orderUuid) {
          strapi.log.warn(`[api-suite] stripe: ${event.type} ${event.id} names no order (metadata.order_id), acknowledged`);
          return 'applied';
        }

        if (event.type === 'checkout.session.expired' || event.type === 'checkout.session.async_payment_failed') {
          const cancelled = await orders().cancelPending(trx, orderUuid);
          if (!cancelled) {
            strapi.log.info(`[api-suite] stripe: ${event.type} ${event.id}: order ${orderUuid} is not pending, left as it is`);
            return 'applied';
          }
          announcement.orders.push({ type: 'order.updated', order: cancelled.order });
        } else {
          if (event.type === 'checkout.session.completed' && session.payment_status === 'unpaid') {
            strapi.log.info(`[api-suite] stripe: session ${session.id} of order ${orderUuid} completed unpaid, waiting for its payment`);
            return 'applied';
          }
          const paymentId =
            typeof session.payment_intent === 'string' ? session.payment_intent : (session.payment_intent?.id ?? session.id);
          const paid = await orders().markPaid(trx, orderUuid, paymentId, new Date());
          if (!paid) {
            strapi.log.info(`[api-suite] stripe: ${event.type} ${event.id}: order ${orderUuid} is unknown or not pending, left as it is`);
            return 'applied';
          }
          if (typeof session.amount_total === 'number' && session.amount_total !== toMinorUnits(paid.total)) {
            strapi.log.warn(
              `[api-suite] stripe: order ${orderUuid} was paid ${session.amount_total} minor units, its total is ${paid.total}`
            );
          }
          announcement.orders.push({ type: 'order.updated', order: paid }, { type: 'order.paid', order: paid });
        }
        onCommit(() => setImmediate(() => void orders().announce(announcement)));
        return 'applied';
      });
      return outcome;
    },
  };
};

export type StripeEventsService = ReturnType<typeof stripeEventsService>;
export default stripeEventsService;
