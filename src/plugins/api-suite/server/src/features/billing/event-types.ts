import { z } from 'zod';
import { defineEvent } from '../webhooks/events/registry';
import { billingStatus } from './validation/responses';

/** Billing events (docs/billing.md#events): to the consumer's own subscriptions and the administrators'. */
const at = (description: string) => z.iso.datetime().nullable().meta({ description });

export const billingSubscriptionEventData = z.strictObject({
  consumer_id: z.uuid(),
  subscription_id: z.string().meta({ description: "The Stripe subscription's id." }),
  plan_id: z.int().min(1).nullable().meta({ description: 'The plan bought (null if it has since been deleted).' }),
  status: billingStatus,
  current_period_end: at('When the paid period ends.'),
  cancel_at_period_end: z.boolean(),
  grace_until: at('While past due: when the keys fall back to the default plan.'),
});
export type BillingSubscriptionEventData = z.infer<typeof billingSubscriptionEventData>;

export const billingPaymentFailedEventData = billingSubscriptionEventData.extend({
  invoice_id: z.string().meta({ description: 'The Stripe invoice that was not paid.' }),
  amount_due: z.int().min(0).meta({ description: "In the currency's minor units." }),
  currency: z.string().meta({ description: 'ISO 4217, lower case.' }),
});
export type BillingPaymentFailedEventData = z.infer<typeof billingPaymentFailedEventData>;

const subscription: BillingSubscriptionEventData = {
  consumer_id: '9b2e7c1a-4f3d-4e5a-8b6c-1d2e3f4a5b6c',
  subscription_id: 'sub_1Qx2k1LmNoPqRsTu',
  plan_id: 2,
  status: 'active',
  current_period_end: '2026-02-01T12:00:00.000Z',
  cancel_at_period_end: false,
  grace_until: null,
};

const defineSubscription = (name: string, description: string, example: BillingSubscriptionEventData) =>
  defineEvent({ name, description, schema: billingSubscriptionEventData, example, audience: 'named', owner: 'billing' });

export const BILLING_EVENTS = [
  defineSubscription('billing.subscription.created', 'A consumer bought a plan: their subscription is live.', subscription),
  defineSubscription(
    'billing.subscription.updated',
    'A subscription changed plan, status, renewal or cancellation, or its grace period ended.',
    { ...subscription, cancel_at_period_end: true }
  ),
  defineSubscription('billing.subscription.canceled', "A subscription ended; the consumer's keys are back on the default plan.", {
    ...subscription,
    status: 'canceled',
  }),
  defineEvent({
    name: 'billing.payment_failed',
    description: "A subscription's payment failed; its plan holds until the grace period ends.",
    schema: billingPaymentFailedEventData,
    example: {
      ...subscription,
      status: 'past_due',
      grace_until: '2026-01-08T12:00:00.000Z',
      invoice_id: 'in_1Qx2k1LmNoPqRsTu',
      amount_due: 4900,
      currency: 'eur',
    },
    audience: 'named',
    owner: 'billing',
  }),
];

declare module '../webhooks/events/registry' {
  interface EventPayloads {
    'billing.subscription.created': BillingSubscriptionEventData;
    'billing.subscription.updated': BillingSubscriptionEventData;
    'billing.subscription.canceled': BillingSubscriptionEventData;
    'billing.payment_failed': BillingPaymentFailedEventData;
  }
}
