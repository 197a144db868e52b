/**
 * The API's types for the plugin's two browsers (the admin panel and the consumer portal): what
 * the routes answer, the `/api/v1` routes' and the admin routes' alike (zod schemas in the
 * `validation/responses.ts` of each feature; the admin consumer in `contract/common.ts`), and the
 * bodies they take, as clients send them (zod's input types of the routes' own schemas). Every
 * type here is inferred from a schema, none written by hand, so a field changed on the server
 * breaks the browsers' type check, not their screens.
 *
 * Type-only: the browsers' bundles take nothing from the server's modules. The schemas behind
 * these import only zod and pure modules; the checks only the server can make are added where
 * the routes validate (see `features/scrapers/validation/index.ts`).
 */
import type { z } from 'zod';
import type * as access from '../server/src/features/access/validation';
import type * as billing from '../server/src/features/billing/validation';
import type * as commerce from '../server/src/features/commerce/validation';
import type * as webhooks from '../server/src/features/webhooks/validation';

export type {
  AdminApiKey,
  AdminConsumer,
  AdminPlan,
  AdminUsage,
  ApiKey,
  ConsumerPlanAnswer,
  KeyWithLimits,
  NewApiKey,
  Plan,
  PlanHolding,
  RerolledKey,
  UsageReport,
} from '../server/src/features/access/validation/responses';
export type { AccountExport } from '../server/src/features/accounts/validation/responses';
export type { PortalSettings } from '../server/src/features/portal/validation/responses';
export type {
  AdminBillingSubscription,
  AdminBillingSubscriptionPage,
  BillingPlan,
  BillingPortalSession,
  BillingState,
  BillingSubscription,
  CheckoutSession,
} from '../server/src/features/billing/validation/responses';
export type { OrderListing, SalesFigures, SalesReport } from '../server/src/features/commerce/validation/responses';
export type {
  AdminScraper,
  RunStarted,
  RunStopped,
  Scraper,
  ScraperOptions,
  ScraperResult,
  ScraperRun,
  TargetWrite,
} from '../server/src/features/scrapers/validation/responses';
export type {
  AdminEventType,
  AdminPublished,
  AdminSubscription,
  Attempt,
  Delivery,
  DeliveryDetail,
  EventType,
  EventsPublished,
  FilterTestOutcome,
  Recovered,
  RetryQueued,
  SecretRotated,
  Subscription,
  SubscriptionCreated,
  TestOutcome,
} from '../server/src/features/webhooks/validation/responses';

/* Request bodies and queries, as clients send them. */

export type { CreateKeyInput, RerollInput } from '../server/src/features/access/validation';
export type { DeleteAccountInput } from '../server/src/features/accounts/validation';
export type PlanInput = z.input<typeof access.planBody>;
export type IssueKeyInput = z.input<typeof access.adminIssueKeyBody>;
export type KeyLimitsInput = z.input<typeof access.keyLimitsBody>;
export type GrantPlanInput = z.input<typeof access.grantPlanBody>;

export type PlanChoiceInput = z.input<typeof billing.planChoiceBody>;
export type CheckoutInput = z.input<typeof billing.checkoutBody>;
export type AdminSubscriptionsQuery = z.input<typeof billing.adminSubscriptionsQuery>;

export type AdminOrdersQuery = z.input<typeof commerce.adminOrdersQuery>;
export type { ReportPeriod } from '../server/src/features/commerce/validation';

export type {
  CreateSubscriptionInput,
  FilterTestInput,
  RecoverInput,
  UpdateSubscriptionInput,
} from '../server/src/features/webhooks/validation';
export type AdminSubscriptionUpdateInput = z.input<typeof webhooks.adminSubscriptionUpdateBody>;
export type EventTypeUpdateInput = z.input<typeof webhooks.eventTypeUpdateBody>;
export type PublishEventInput = z.input<typeof webhooks.publishBody>;
export type DeliveriesQuery = z.input<typeof webhooks.deliveriesQuery>;

export type { AdminCreateScraperInput, CreateScraperInput, UpdateScraperInput } from '../server/src/features/scrapers/validation/requests';

export type { Consumer } from '../server/src/contract/common';
export type { Activity } from '../server/src/features/observability/validation/responses';
export type { Overview } from '../server/src/features/platform/validation/responses';
