import type * as Contract from '../../shared/api-types';
import type { Page } from '../../shared/http';
import { download, pathWith, request } from './http';
import type { OpenApiDocument } from './pages/Reference/document';

/** The API's description and its TypeScript types, as the server serves them (both open to anyone). */
export const OPENAPI_JSON_PATH = '/api/v1/openapi.json';
export const OPENAPI_TYPES_PATH = '/api/v1/openapi.d.ts';

/**
 * The one typed client of the portal: only the public routes a customer's own code calls
 * (users-permissions sign-in, /api/v1 keys, usage, plans, billing, scrapers, the account, /api/webhooks).
 * Answers and request bodies take their types from the shared API types: the zod schemas the
 * routes answer in and validate with.
 */
export type ApiKey = Contract.ApiKey;
export type NewApiKey = Contract.NewApiKey;
export type RerolledKey = Contract.RerolledKey;
export type Plan = Contract.Plan;
export type UsageReport = Contract.UsageReport;
export type BillingPlan = Contract.BillingPlan;
export type BillingSubscription = Contract.BillingSubscription;
/** How a plan is bought: monthly, or yearly where the plan has a yearly price. */
export type BillingInterval = NonNullable<Contract.CheckoutInput['interval']>;
export type Subscription = Contract.Subscription;
export type Delivery = Contract.Delivery;
export type DeliveryStatus = Delivery['status'];
export type DeliveryDetail = Contract.DeliveryDetail;
export type TestOutcome = Contract.TestOutcome;
export type EventType = Contract.EventType;
export type Scraper = Contract.Scraper;
export type ScraperRun = Contract.ScraperRun;

export interface SignedIn {
  jwt: string;
  user: { id: number; username: string; email: string };
}

export type KeyInput = Contract.CreateKeyInput;
export type EndpointInput = Contract.CreateSubscriptionInput;
export type ScraperInput = Contract.CreateScraperInput;

export const PAGE_SIZE = 10;

export const api = {
  signIn: (identifier: string, password: string) =>
    request<SignedIn>('POST', '/api/auth/local', { identifier, password }, { anonymous: true }),
  signUp: (username: string, email: string, password: string) =>
    request<SignedIn>('POST', '/api/auth/local/register', { username, email, password }, { anonymous: true }),

  keys: (page: number) => request<Page<ApiKey>>('GET', pathWith('/api/v1/keys', { page, limit: PAGE_SIZE })),
  createKey: (input: KeyInput) => request<{ data: NewApiKey }>('POST', '/api/v1/keys', input),
  revokeKey: (id: number) => request<void>('DELETE', `/api/v1/keys/${id}`),
  rerollKey: (id: number, graceSeconds: number) =>
    request<{ data: RerolledKey }>('POST', `/api/v1/keys/${id}/reroll`, { grace_seconds: graceSeconds } satisfies Contract.RerollInput),

  /** Everything the site holds about the signed-in consumer, saved as a JSON file. */
  exportAccount: () => download('/api/v1/account/export', 'account-export.json'),
  /** Close the account (the password asked again); the session ends with it. */
  deleteAccount: (password: string) => request<void>('DELETE', '/api/v1/account', { password } satisfies Contract.DeleteAccountInput),

  plans: () => request<{ data: Plan[] }>('GET', '/api/v1/plans'),
  usage: () => request<{ data: UsageReport }>('GET', '/api/v1/usage'),
  /** The live usage stream's path: the last hour by minute, a new figure every 2 seconds. */
  usageStreamPath: () =>
    pathWith('/api/v1/usage/stream', { from: new Date(Date.now() - 3_600_000).toISOString(), granularity: 'minute', interval: 2 }),

  billingPlans: () => request<{ data: BillingPlan[] }>('GET', '/api/v1/billing/plans'),
  billingSubscription: () => request<{ data: BillingSubscription }>('GET', '/api/v1/billing/subscription'),
  checkout: (planId: number, interval: BillingInterval = 'month') =>
    request<Contract.CheckoutSession>('POST', '/api/v1/billing/checkout', {
      plan_id: planId,
      interval,
    } satisfies Contract.CheckoutInput),
  changePlan: (planId: number) =>
    request<{ data: BillingSubscription }>('POST', '/api/v1/billing/change-plan', { plan_id: planId } satisfies Contract.PlanChoiceInput),
  billingPortal: () => request<Contract.BillingPortalSession>('POST', '/api/v1/billing/portal'),

  endpoints: (page: number) => request<Page<Subscription>>('GET', pathWith('/api/webhooks/subscriptions', { page, limit: PAGE_SIZE })),
  endpoint: (id: string) => request<Subscription>('GET', `/api/webhooks/subscriptions/${encodeURIComponent(id)}`),
  createEndpoint: (input: EndpointInput) => request<Contract.SubscriptionCreated>('POST', '/api/webhooks/subscriptions', input),
  updateEndpoint: (id: string, patch: Contract.UpdateSubscriptionInput) =>
    request<Subscription>('PATCH', `/api/webhooks/subscriptions/${encodeURIComponent(id)}`, patch),
  deleteEndpoint: (id: string) => request<void>('DELETE', `/api/webhooks/subscriptions/${encodeURIComponent(id)}`),
  testEndpoint: (id: string) => request<TestOutcome>('POST', `/api/webhooks/subscriptions/${encodeURIComponent(id)}/test`),
  rotateSecret: (id: string) =>
    request<Contract.SecretRotated>('POST', `/api/webhooks/subscriptions/${encodeURIComponent(id)}/rotate-secret`),
  recover: (id: string, since: string, until?: string) =>
    request<Contract.Recovered>(
      'POST',
      `/api/webhooks/subscriptions/${encodeURIComponent(id)}/recover`,
      (until ? { since, until } : { since }) satisfies Contract.RecoverInput
    ),
  deliveries: (id: string, page: number, status?: DeliveryStatus) =>
    request<Page<Delivery>>(
      'GET',
      pathWith(`/api/webhooks/subscriptions/${encodeURIComponent(id)}/deliveries`, { page, limit: PAGE_SIZE, status })
    ),
  delivery: (id: string) => request<DeliveryDetail>('GET', `/api/webhooks/deliveries/${encodeURIComponent(id)}`),
  retryDelivery: (id: string) => request<Contract.RetryQueued>('POST', `/api/webhooks/deliveries/${encodeURIComponent(id)}/retry`),
  eventTypes: () => request<{ data: EventType[] }>('GET', '/api/webhooks/event-types'),
  /** Whether a payload filter matches an event type's example (422 invalid_filter where it cannot be applied to the type). */
  filterTest: (input: Contract.FilterTestInput) => request<Contract.FilterTestOutcome>('POST', '/api/webhooks/filter-test', input),

  /** The served OpenAPI document (open to anyone), read by the API reference page. */
  openApiDocument: () => request<OpenApiDocument>('GET', OPENAPI_JSON_PATH, undefined, { anonymous: true }),

  scrapers: (page: number) => request<Page<Scraper>>('GET', pathWith('/api/v1/scrapers', { page, limit: PAGE_SIZE })),
  scraper: (id: number) => request<Scraper>('GET', `/api/v1/scrapers/${id}`),
  createScraper: (input: ScraperInput) => request<Scraper>('POST', '/api/v1/scrapers', input),
  updateScraper: (id: number, patch: Contract.UpdateScraperInput) => request<Scraper>('PATCH', `/api/v1/scrapers/${id}`, patch),
  deleteScraper: (id: number) => request<void>('DELETE', `/api/v1/scrapers/${id}`),
  runScraper: (id: number) => request<Contract.RunStarted>('POST', `/api/v1/scrapers/${id}/run`),
  stopScraper: (id: number) => request<Contract.RunStopped>('POST', `/api/v1/scrapers/${id}/stop`),
  runs: (id: number, page: number) => request<Page<ScraperRun>>('GET', pathWith(`/api/v1/scrapers/${id}/runs`, { page, limit: PAGE_SIZE })),
  downloadResults: (id: number, runId: number, format: 'csv' | 'ndjson', change?: 'new,changed') =>
    download(
      pathWith(`/api/v1/scrapers/${id}/results`, { run_id: runId, format, change }),
      `scraper-${id}-run-${runId}${change ? '-changes' : ''}.${format}`
    ),
};
