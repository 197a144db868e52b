import type * as Contract from '../../shared/api-types';
import { contractClient, contractPath } from '../../shared/client';
import { download, request } from './http';
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

/** Every call but Strapi's own sign-in goes by its route's contract (shared/client.ts): path, parts and answer typed from the server's. */
const call = contractClient((method, path, body) => request(method, path, body));

export const api = {
  signIn: (identifier: string, password: string) =>
    request<SignedIn>('POST', '/api/auth/local', { identifier, password }, { anonymous: true }),
  signUp: (username: string, email: string, password: string) =>
    request<SignedIn>('POST', '/api/auth/local/register', { username, email, password }, { anonymous: true }),

  keys: (page: number) => call('GET /api/v1/keys', { query: { page, limit: PAGE_SIZE } }),
  createKey: (input: KeyInput) => call('POST /api/v1/keys', { body: input }),
  revokeKey: (id: number) => call('DELETE /api/v1/keys/{id}', { params: { id } }),
  rerollKey: (id: number, graceSeconds: number) =>
    call('POST /api/v1/keys/{id}/reroll', { params: { id }, body: { grace_seconds: graceSeconds } }),

  /** Everything the site holds about the signed-in consumer, saved as a JSON file. */
  exportAccount: () => download(contractPath('GET /api/v1/account/export'), 'account-export.json'),
  /** Close the account (the password asked again); the session ends with it. */
  deleteAccount: (password: string) => call('DELETE /api/v1/account', { body: { password } }),

  plans: () => call('GET /api/v1/plans'),
  usage: () => call('GET /api/v1/usage'),
  /** The live usage stream's path: the last hour by minute, a new figure every 2 seconds. */
  usageStreamPath: () =>
    contractPath('GET /api/v1/usage/stream', {
      query: { from: new Date(Date.now() - 3_600_000).toISOString(), granularity: 'minute', interval: 2 },
    }),

  billingPlans: () => call('GET /api/v1/billing/plans'),
  billingSubscription: () => call('GET /api/v1/billing/subscription'),
  checkout: (planId: number, interval: BillingInterval = 'month') =>
    call('POST /api/v1/billing/checkout', { body: { plan_id: planId, interval } }),
  changePlan: (planId: number) => call('POST /api/v1/billing/change-plan', { body: { plan_id: planId } }),
  billingPortal: () => call('POST /api/v1/billing/portal'),

  endpoints: (page: number) => call('GET /api/webhooks/subscriptions', { query: { page, limit: PAGE_SIZE } }),
  endpoint: (id: string) => call('GET /api/webhooks/subscriptions/{id}', { params: { id } }),
  createEndpoint: (input: EndpointInput) => call('POST /api/webhooks/subscriptions', { body: input }),
  updateEndpoint: (id: string, patch: Contract.UpdateSubscriptionInput) =>
    call('PATCH /api/webhooks/subscriptions/{id}', { params: { id }, body: patch }),
  deleteEndpoint: (id: string) => call('DELETE /api/webhooks/subscriptions/{id}', { params: { id } }),
  testEndpoint: (id: string) => call('POST /api/webhooks/subscriptions/{id}/test', { params: { id } }),
  rotateSecret: (id: string) => call('POST /api/webhooks/subscriptions/{id}/rotate-secret', { params: { id } }),
  recover: (id: string, since: string, until?: string) =>
    call('POST /api/webhooks/subscriptions/{id}/recover', { params: { id }, body: until ? { since, until } : { since } }),
  deliveries: (id: string, page: number, status?: DeliveryStatus) =>
    call('GET /api/webhooks/subscriptions/{id}/deliveries', { params: { id }, query: { page, limit: PAGE_SIZE, status } }),
  delivery: (id: string) => call('GET /api/webhooks/deliveries/{id}', { params: { id } }),
  retryDelivery: (id: string) => call('POST /api/webhooks/deliveries/{id}/retry', { params: { id } }),
  eventTypes: () => call('GET /api/webhooks/event-types'),
  /** Whether a payload filter matches an event type's example (422 invalid_filter where it cannot be applied to the type). */
  filterTest: (input: Contract.FilterTestInput) => call('POST /api/webhooks/filter-test', { body: input }),

  /** The served OpenAPI document (open to anyone), read by the API reference page. */
  openApiDocument: () => request<OpenApiDocument>('GET', OPENAPI_JSON_PATH, undefined, { anonymous: true }),

  scrapers: (page: number) => call('GET /api/v1/scrapers', { query: { page, limit: PAGE_SIZE } }),
  scraper: (id: number) => call('GET /api/v1/scrapers/{id}', { params: { id } }),
  createScraper: (input: ScraperInput) => call('POST /api/v1/scrapers', { body: input }),
  updateScraper: (id: number, patch: Contract.UpdateScraperInput) => call('PATCH /api/v1/scrapers/{id}', { params: { id }, body: patch }),
  deleteScraper: (id: number) => call('DELETE /api/v1/scrapers/{id}', { params: { id } }),
  runScraper: (id: number) => call('POST /api/v1/scrapers/{id}/run', { params: { id } }),
  stopScraper: (id: number) => call('POST /api/v1/scrapers/{id}/stop', { params: { id } }),
  runs: (id: number, page: number) => call('GET /api/v1/scrapers/{id}/runs', { params: { id }, query: { page, limit: PAGE_SIZE } }),
  downloadResults: (id: number, runId: number, format: 'csv' | 'ndjson', change?: 'new,changed') =>
    download(
      contractPath('GET /api/v1/scrapers/{id}/results', { params: { id }, query: { run_id: runId, format, change } }),
      `scraper-${id}-run-${runId}${change ? '-changes' : ''}.${format}`
    ),
};
