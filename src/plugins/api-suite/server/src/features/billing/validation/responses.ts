import { z } from 'zod';
import { pageMeta } from '../../../contract/common';

/** What the billing routes answer: the one description behind validation of answers in tests, the OpenAPI document and the portal's types. */

const id = z.int().min(1);

export const billingPlan = z.object({
  id,
  name: z.string(),
  price_monthly: z.number().min(0).meta({ description: "In the currency's major unit (49 for 49.00)." }),
  currency: z.string().regex(/^[a-z]{3}$/),
  requests_per_month: z.int().min(-1).meta({ description: '-1 for unlimited.' }),
  requests_per_minute: z.int().min(0),
  overage_unit_amount: z
    .int()
    .min(0)
    .nullable()
    .meta({ description: 'Minor units per 1,000 requests over the monthly quota; null: the quota is a hard limit (429).' }),
  price_yearly: z.number().positive().nullable().meta({
    description: "The price of a year, in the currency's major unit; null: sold monthly only. Overage is billed monthly either way.",
  }),
  trial_days: z
    .int()
    .min(0)
    .max(90)
    .meta({ description: "Free days before the first payment, on a consumer's first purchase only (0: no trial)." }),
  endpoints: z.array(z.string().regex(/^\S+ \S+$/)),
});
export type BillingPlan = z.infer<typeof billingPlan>;
export const billingPlanList = z.object({ data: z.array(billingPlan) });

export const checkoutSession = z.object({
  data: z.object({
    session_id: z.string().meta({ description: 'The Stripe Checkout Session id (`cs_…`).' }),
    url: z.string().url().meta({ description: 'Where to send the consumer to pay.' }),
  }),
});
export type CheckoutSession = z.infer<typeof checkoutSession>;

export const billingStatus = z
  .enum(['none', 'trialing', 'active', 'past_due', 'canceled', 'unpaid'])
  .meta({ description: '`trialing` and `active` hold the plan bought, and so does `past_due` within its grace period.' });

export const billingSubscription = z.object({
  plan_id: id.meta({
    description:
      "The plan the consumer's keys are on now (the default plan without a paid subscription, or after a past-due grace period).",
  }),
  status: billingStatus,
  interval: z.enum(['month', 'year']).nullable().meta({ description: 'How the flat price is billed; null without a subscription.' }),
  current_period_end: z.iso.datetime().nullable(),
  cancel_at_period_end: z.boolean(),
  grace_until: z.iso.datetime().nullable().meta({ description: 'While past due: when the keys fall back to the default plan.' }),
  trial_end: z.iso
    .datetime()
    .nullable()
    .meta({ description: 'When the free trial ends and the first payment is due; null without a trial.' }),
  overage: z.object({
    unit_amount: z.int().min(0).nullable().meta({ description: "The plan's price per 1,000 requests over quota, in minor units." }),
    requests_this_period: z.int().min(0).meta({ description: 'Requests served over the quota since the billing period began.' }),
    reported: z
      .int()
      .min(0)
      .meta({ description: 'Of those, already sent to Stripe as meter events (reports go out about once a minute).' }),
  }),
});
export type BillingSubscription = z.infer<typeof billingSubscription>;
export const billingSubscriptionResponse = z.object({ data: billingSubscription });

export const portalSession = z.object({ data: z.object({ url: z.string().url() }) });
export type BillingPortalSession = z.infer<typeof portalSession>;

const planRef = z.object({ id, name: z.string() }).nullable();

/** Admin panel: a subscription with its consumer and plans, for the Sales page. */
export const adminBillingSubscription = z.object({
  subscription_id: z.string().meta({ description: 'The Stripe subscription id (`sub_…`).' }),
  customer_id: z.string(),
  consumer: z.object({ id, username: z.string(), email: z.string(), consumer_id: z.string() }).nullable(),
  plan: planRef.meta({ description: 'The plan bought.' }),
  effective_plan: planRef.meta({
    description: 'The plan the keys are on now (the default plan once a past-due grace period is over, or after cancellation).',
  }),
  status: billingStatus.exclude(['none']),
  current_period_end: z.iso.datetime().nullable(),
  cancel_at_period_end: z.boolean(),
  grace_until: z.iso.datetime().nullable(),
  overage_reported: z.int().min(0).meta({ description: 'Requests over quota sent to Stripe as meter events since the period began.' }),
  updated_at: z.iso.datetime().nullable(),
});
export type AdminBillingSubscription = z.infer<typeof adminBillingSubscription>;

export const billingState = z.object({ configured: z.boolean(), ready: z.boolean(), reason: z.string().nullable() });
export type BillingState = z.infer<typeof billingState>;

/** Admin panel: `GET /api-suite/billing/subscriptions`, a page of subscriptions with whether billing is set up. */
export const adminBillingSubscriptionPage = z.object({
  data: z.array(adminBillingSubscription),
  meta: pageMeta.extend({ billing: billingState }),
});
export type AdminBillingSubscriptionPage = z.infer<typeof adminBillingSubscriptionPage>;

/** A consumer's billing state as the account export (`GET /api/v1/account/export`) shows it. */
export const accountBilling = z
  .object({
    customer_id: z.string().nullable().meta({ description: 'The Stripe customer (`cus_…`) made for the consumer.' }),
    subscription: z
      .object({
        subscription_id: z.string().meta({ description: 'The Stripe subscription (`sub_…`).' }),
        plan_id: id.nullable(),
        status: billingStatus.exclude(['none']),
        current_period_end: z.iso.datetime().nullable(),
        cancel_at_period_end: z.boolean(),
        grace_until: z.iso.datetime().nullable(),
      })
      .nullable(),
  })
  .meta({ description: 'What billing keeps about the consumer; null when they never bought a plan.' });
export type AccountBilling = z.infer<typeof accountBilling>;
