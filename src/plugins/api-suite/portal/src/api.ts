import type * as Contract from '../../server/src/contract';
import { download, pathWith, request } from './http';

/**
 * The one typed client of the portal: only the public routes a customer's own code calls
 * (users-permissions sign-in, /api/v1 keys, usage, plans, billing, scrapers, /api/webhooks).
 * Answers take their types from the plugin's contract module, the zod schemas the routes answer
 * in; request bodies from the schemas the routes validate them with (zod's input types), except
 * the scrapers', written here.
 */
export type ApiKey = Contract.ApiKey;
export type NewApiKey = Contract.NewApiKey;
export type RerolledKey = Contract.RerolledKey;
export type Plan = Contract.Plan;
export type UsageReport = Contract.UsageReport;
export type BillingPlan = Contract.BillingPlan;
export type BillingSubscription = Contract.BillingSubscription;
export type Subscription = Contract.Subscription;
export type Delivery = Contract.Delivery;
export type DeliveryStatus = Delivery['status'];
export type DeliveryDetail = Contract.DeliveryDetail;
export type TestOutcome = Contract.TestOutcome;
/** `schema` (JSON Schema of the event's data) is newer than some servers: shown when present. */
export type EventType = Contract.EventType & { schema?: unknown };
export type Scraper = Contract.Scraper;
export type ScraperRun = Contract.ScraperRun;

export interface PageOf<T> {
  data: T[];
  meta: { page: number; limit: number; total: number };
}

export interface SignedIn {
  jwt: string;
  user: { id: number; username: string; email: string };
}

/** Request bodies come from the routes' own zod schemas (the scrapers' cannot be followed here, see below). */
export type KeyInput = Contract.CreateKeyInput;
export type EndpointInput = Contract.CreateSubscriptionInput;

/** Written here by hand: the scrapers' request schemas use server-side checks (cron, selectors) this browser-only build cannot follow. */
export interface ScraperInput {
  name: string;
  url: string;
  schedule?: string | null;
  max_pages?: number;
  follow_links?: boolean;
  selectors?: { item?: string; fields: Record<string, string> } | null;
  /** Compare each completed run with the last by this field (or the item's url). */
  change_detection?: { key?: string } | null;
}

export const PAGE_SIZE = 10;

export const api = {
  signIn: (identifier: string, password: string) =>
    request<SignedIn>('POST', '/api/auth/local', { identifier, password }, { anonymous: true }),
  signUp: (username: string, email: string, password: string) =>
    request<SignedIn>('POST', '/api/auth/local/register', { username, email, password }, { anonymous: true }),

  keys: (page: number) => request<PageOf<ApiKey>>('GET', pathWith('/api/v1/keys', { page, limit: PAGE_SIZE })),
  createKey: (input: KeyInput) => request<{ data: NewApiKey }>('POST', '/api/v1/keys', input),
  revokeKey: (id: number) => request<void>('DELETE', `/api/v1/keys/${id}`),
  rerollKey: (id: number, graceSeconds: number) =>
    request<{ data: RerolledKey }>('POST', `/api/v1/keys/${id}/reroll`, { grace_seconds: graceSeconds } satisfies Contract.RerollInput),

  plans: () => request<{ data: Plan[] }>('GET', '/api/v1/plans'),
  usage: () => request<{ data: UsageReport }>('GET', '/api/v1/usage'),
  /** The live usage stream's path: the last hour by minute, a new figure every 2 seconds. */
  usageStreamPath: () =>
    pathWith('/api/v1/usage/stream', { from: new Date(Date.now() - 3_600_000).toISOString(), granularity: 'minute', interval: 2 }),

  billingPlans: () => request<{ data: BillingPlan[] }>('GET', '/api/v1/billing/plans'),
  billingSubscription: () => request<{ data: BillingSubscription }>('GET', '/api/v1/billing/subscription'),
  checkout: (planId: number) =>
    request<{ data: { session_id: string; url: string } }>('POST', '/api/v1/billing/checkout', { plan_id: planId }),
  changePlan: (planId: number) => request<{ data: BillingSubscription }>('POST', '/api/v1/billing/change-plan', { plan_id: planId }),
  billingPortal: () => request<{ data: { url: string } }>('POST', '/api/v1/billing/portal'),

  endpoints: (page: number) => request<PageOf<Subscription>>('GET', pathWith('/api/webhooks/subscriptions', { page, limit: PAGE_SIZE })),
  endpoint: (id: string) => request<Subscription>('GET', `/api/webhooks/subscriptions/${encodeURIComponent(id)}`),
  createEndpoint: (input: EndpointInput) => request<Subscription & { secret: string }>('POST', '/api/webhooks/subscriptions', input),
  updateEndpoint: (id: string, patch: Contract.UpdateSubscriptionInput) =>
    request<Subscription>('PATCH', `/api/webhooks/subscriptions/${encodeURIComponent(id)}`, patch),
  deleteEndpoint: (id: string) => request<void>('DELETE', `/api/webhooks/subscriptions/${encodeURIComponent(id)}`),
  testEndpoint: (id: string) => request<TestOutcome>('POST', `/api/webhooks/subscriptions/${encodeURIComponent(id)}/test`),
  rotateSecret: (id: string) =>
    request<{ secret: string; valid_until: string; note: string }>(
      'POST',
      `/api/webhooks/subscriptions/${encodeURIComponent(id)}/rotate-secret`
    ),
  recover: (id: string, since: string, until?: string) =>
    request<Contract.Recovered>(
      'POST',
      `/api/webhooks/subscriptions/${encodeURIComponent(id)}/recover`,
      (until ? { since, until } : { since }) satisfies Contract.RecoverInput
    ),
  deliveries: (id: string, page: number, status?: DeliveryStatus) =>
    request<PageOf<Delivery>>(
      'GET',
      pathWith(`/api/webhooks/subscriptions/${encodeURIComponent(id)}/deliveries`, { page, limit: PAGE_SIZE, status })
    ),
  delivery: (id: string) => request<DeliveryDetail>('GET', `/api/webhooks/deliveries/${encodeURIComponent(id)}`),
  retryDelivery: (id: string) =>
    request<{ delivery_id: string; status: 'queued' }>('POST', `/api/webhooks/deliveries/${encodeURIComponent(id)}/retry`),
  eventTypes: () => request<{ data: EventType[] }>('GET', '/api/webhooks/event-types'),

  scrapers: (page: number) => request<PageOf<Scraper>>('GET', pathWith('/api/v1/scrapers', { page, limit: PAGE_SIZE })),
  scraper: (id: number) => request<Scraper>('GET', `/api/v1/scrapers/${id}`),
  createScraper: (input: ScraperInput) => request<Scraper>('POST', '/api/v1/scrapers', input),
  deleteScraper: (id: number) => request<void>('DELETE', `/api/v1/scrapers/${id}`),
  runScraper: (id: number) => request<{ run_id: number; status: 'started' }>('POST', `/api/v1/scrapers/${id}/run`),
  stopScraper: (id: number) => request<{ run_id: number; status: 'stopped' }>('POST', `/api/v1/scrapers/${id}/stop`),
  runs: (id: number, page: number) =>
    request<PageOf<ScraperRun>>('GET', pathWith(`/api/v1/scrapers/${id}/runs`, { page, limit: PAGE_SIZE })),
  downloadResults: (id: number, runId: number, format: 'csv' | 'ndjson', change?: 'new,changed') =>
    download(
      pathWith(`/api/v1/scrapers/${id}/results`, { run_id: runId, format, change }),
      `scraper-${id}-run-${runId}${change ? '-changes' : ''}.${format}`
    ),
};
