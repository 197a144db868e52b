/** Every UID and name the plugin refers to, in one place. */
export const PLUGIN_ID = 'api-suite';

export const UIDS = {
  user: 'plugin::users-permissions.user',
  role: 'plugin::users-permissions.role',
  plan: 'plugin::api-suite.plan',
  apiKey: 'plugin::api-suite.api-key',
  usageRecord: 'plugin::api-suite.usage-record',
  usageRollup: 'plugin::api-suite.usage-rollup',
  consumerPlan: 'plugin::api-suite.consumer-plan',
  quotaAlert: 'plugin::api-suite.quota-alert',
  webhookSubscription: 'plugin::api-suite.webhook-subscription',
  webhookTopic: 'plugin::api-suite.webhook-topic',
  webhookEventType: 'plugin::api-suite.webhook-event-type',
  webhookDelivery: 'plugin::api-suite.webhook-delivery',
  webhookAttempt: 'plugin::api-suite.webhook-attempt',
  scraper: 'plugin::api-suite.scraper',
  scraperRun: 'plugin::api-suite.scraper-run',
  scraperResult: 'plugin::api-suite.scraper-result',
  scraperItemState: 'plugin::api-suite.scraper-item-state',
  scraperTargetEntry: 'plugin::api-suite.scraper-target-entry',
  scraperTargetWrite: 'plugin::api-suite.scraper-target-write',
  order: 'plugin::api-suite.order',
  stripeEvent: 'plugin::api-suite.stripe-event',
  billingCustomer: 'plugin::api-suite.billing-customer',
  billingSubscription: 'plugin::api-suite.billing-subscription',
  billingReport: 'plugin::api-suite.billing-report',
  retentionState: 'plugin::api-suite.retention-state',
  contentOutbox: 'plugin::api-suite.content-outbox',
  lock: 'plugin::api-suite.lock',
} as const;

/** The users-permissions role whose members are the API's administrators (docs/access.md#credentials-and-identity). */
export const ADMINISTRATOR_ROLE = {
  type: 'administrator',
  name: 'Administrator',
  description: "API administrators: see and change every consumer's resources, publish events, read sales reports.",
} as const;

/**
 * In place of a consumer id: every consumer's resources at once. Only the admin panel's routes,
 * which Strapi's admin permissions guard, ask for it; the API always names the caller.
 */
export const ALL_CONSUMERS = Symbol('all consumers');
export type Owner = string | typeof ALL_CONSUMERS;
