import type { Core } from '@strapi/strapi';
import { UIDS } from '../../../constants';
import { registerDatabaseModels, type DatabaseModel } from '../../../db';

/**
 * Billing's own tables (plugin database models, not content types: nobody edits them by hand).
 *
 * - customers: the one Stripe Customer of each consumer. The unique consumer id is what keeps it
 *   one even when two first requests race (the loser reads the winner's row). `trial_started_at`
 *   records the consumer's one trial, once Stripe reports a subscription with one, and
 *   `trial_email_digest` the address it was given to, which outlives the account.
 * - subscriptions: the consumer's subscription as last read from Stripe, one row per consumer
 *   (a consumer has at most one live subscription; buying again after a cancellation reuses the
 *   row). `effective_plan_id` is the plan the consumer's keys are on now, which differs from
 *   `plan_id` once a past-due subscription's grace period is over.
 * - reports: overage sent to Stripe as meter events, written before each send (pending) and marked
 *   sent after, so a crash in between re-sends the same batch under the same identifier.
 */
export const billingTables: DatabaseModel[] = [
  {
    uid: UIDS.billingCustomer,
    singularName: 'billing-customer',
    tableName: 'api_suite_billing_customers',
    attributes: {
      id: { type: 'increments' },
      consumer_id: { type: 'string' },
      user_id: { type: 'integer' },
      stripe_customer_id: { type: 'string' },
      trial_started_at: { type: 'datetime' },
      /** The keyed digest of the e-mail address the trial was given to (trial-email.ts): kept when the account closes. */
      trial_email_digest: { type: 'string' },
      created_at: { type: 'datetime' },
    },
    indexes: [
      { name: 'api_suite_billing_customers_consumer', columns: ['consumer_id'], type: 'unique' },
      { name: 'api_suite_billing_customers_trial_email', columns: ['trial_email_digest'] },
      { name: 'api_suite_billing_customers_stripe', columns: ['stripe_customer_id'], type: 'unique' },
    ],
  },
  {
    uid: UIDS.billingSubscription,
    singularName: 'billing-subscription',
    tableName: 'api_suite_billing_subscriptions',
    attributes: {
      id: { type: 'increments' },
      consumer_id: { type: 'string' },
      user_id: { type: 'integer' },
      stripe_customer_id: { type: 'string' },
      stripe_subscription_id: { type: 'string' },
      plan_id: { type: 'integer' },
      effective_plan_id: { type: 'integer' },
      status: { type: 'string' },
      /** `month` or `year`: how the flat price is billed. */
      billing_interval: { type: 'string' },
      current_period_start: { type: 'datetime' },
      current_period_end: { type: 'datetime' },
      /**
       * When the metered (overage) item's current period began: overage is billed monthly, so for
       * a yearly subscription this is the month's start, not the year's. Null without that item.
       */
      overage_period_start: { type: 'datetime' },
      cancel_at_period_end: { type: 'boolean' },
      grace_until: { type: 'datetime' },
      trial_end: { type: 'datetime' },
      created_at: { type: 'datetime' },
      updated_at: { type: 'datetime' },
    },
    indexes: [
      { name: 'api_suite_billing_subscriptions_consumer', columns: ['consumer_id'], type: 'unique' },
      { name: 'api_suite_billing_subscriptions_stripe', columns: ['stripe_subscription_id'] },
      { name: 'api_suite_billing_subscriptions_grace', columns: ['status', 'grace_until'] },
    ],
  },
  {
    uid: UIDS.billingReport,
    singularName: 'billing-report',
    tableName: 'api_suite_billing_reports',
    attributes: {
      id: { type: 'increments' },
      consumer_id: { type: 'string' },
      stripe_customer_id: { type: 'string' },
      identifier: { type: 'string' },
      value: { type: 'integer' },
      /** The last usage record counted in this report: the next report starts after it. */
      up_to_usage_id: { type: 'integer' },
      status: { type: 'string' },
      created_at: { type: 'datetime' },
      sent_at: { type: 'datetime' },
    },
    indexes: [
      { name: 'api_suite_billing_reports_identifier', columns: ['identifier'], type: 'unique' },
      { name: 'api_suite_billing_reports_consumer', columns: ['consumer_id', 'up_to_usage_id'] },
      { name: 'api_suite_billing_reports_status', columns: ['status'] },
    ],
  },
];

export function registerBillingTables(strapi: Core.Strapi): void {
  registerDatabaseModels(strapi, billingTables);
}
