/**
 * The plugin's HTTP contract as code: the zod schemas of what its routes answer, the types inferred
 * from them, and the OpenAPI machinery. The admin panel (and any client in this repository)
 * imports response types from here, never copies of them, so a changed field breaks their type
 * check instead of their screen.
 */
export type { ApiDescription, Operation, OpenApiDocument, ResponseSpec, Security } from './openapi';
export type { ContractKit } from './kit';
export type {
  AdminApiKey,
  ApiKey,
  ConsumerPlanAnswer,
  KeyWithLimits,
  NewApiKey,
  Plan,
  RerolledKey,
  UsageReport,
} from '../features/access/validation/responses';
export type { Scraper, ScraperResult, ScraperRun } from '../features/scrapers/validation/responses';
export type {
  Attempt,
  Delivery,
  DeliveryDetail,
  EventType,
  Recovered,
  Subscription,
  TestOutcome,
} from '../features/webhooks/validation/responses';
export type { AdminBillingSubscription, BillingPlan, BillingState, BillingSubscription } from '../features/billing/validation/responses';

/*
 * Request bodies as clients send them (zod's input types of the routes' own schemas). Only the
 * features whose validation modules import nothing but zod are here, so a browser-only client
 * (the portal) can follow them in its type check; the scrapers' schemas use the cron and selector
 * checks of the server and are not.
 */
export type { CreateKeyInput, RerollInput } from '../features/access/validation';
export type { CreateSubscriptionInput, RecoverInput, UpdateSubscriptionInput } from '../features/webhooks/validation';
