import { useFetchClient } from '@strapi/strapi/admin';
import { useMemo } from 'react';
import type * as Contract from '../../server/src/contract';
import { PLUGIN_ID } from './pluginId';

/**
 * The one typed client for the plugin's admin routes (`/api-suite/*`, server `routes.admin` of
 * each feature). Every call goes through the admin's fetch client, which sends the session's
 * token and refreshes it; failures throw its FetchError, read by `utils/errors`.
 *
 * Resources the public API also answers (scrapers, runs, results, keys, plans, usage) take their
 * types from the server's contract (the zod schemas the routes answer in), extended by what the
 * admin routes add; a field changed there breaks this type check, not the screen.
 */

export interface Overview {
  jobs: { driver: 'bullmq' | 'in-process' };
  outbound: { allowPrivate: boolean };
  database: { client: string };
  access: { routePrefixes: string[]; sharedKey: boolean; endpointGroups: { public: string[]; private: string[] } };
  commerce: { currency: string };
}

export interface Page<T> {
  data: T[];
  meta: { page: number; limit: number; total: number };
}

export interface Consumer {
  id: number;
  username: string;
  email: string;
  consumer_id: string;
}

/* Webhooks -------------------------------------------------------------------------------- */

/** A subscription as the admin routes answer it: the API's, with its consumer. */
export interface Subscription extends Contract.Subscription {
  consumer: Consumer | null;
}

export type Delivery = Contract.Delivery;
export type DeliveryStatus = Delivery['status'];
export type Attempt = Contract.Attempt;
export type DeliveryDetail = Contract.DeliveryDetail;
export type TestOutcome = Contract.TestOutcome;

/** An event type as the admin routes answer it: the API's, with whether it is switched on. */
export interface EventType extends Contract.EventType {
  is_active: boolean;
}

export type EventTypePatch = Partial<Pick<EventType, 'description' | 'example_payload' | 'is_active'>>;

/* Scrapers -------------------------------------------------------------------------------- */

export type Run = Contract.ScraperRun;
export type RunStatus = Run['status'];
export type Selectors = NonNullable<Contract.Scraper['selectors']>;
export type ChangeDetection = NonNullable<Contract.Scraper['change_detection']>;
export type Change = NonNullable<Contract.ScraperResult['change']>;

/** A scraper as the admin routes answer it: the API's, with its owner and latest run. */
export interface Scraper extends Contract.Scraper {
  owner: Consumer | null;
  latest_run: Run | null;
}

export interface ScraperInput {
  name: string;
  url: string;
  schedule: string | null;
  proxy_pool: string | null;
  /** Left out: the server's default (on create) or unchanged (on edit). */
  rate_limit?: number;
  headers: Record<string, string>;
  max_pages?: number;
  follow_links: boolean;
  selectors: Selectors | null;
  respect_robots_txt: boolean;
  change_detection: ChangeDetection | null;
}

export type ScrapeResult = Contract.ScraperResult;

/* Access ---------------------------------------------------------------------------------- */

/** A plan as the admin routes answer it: the API's, with endpoints as stored (`@public`, …), the default flag and its number of keys. */
export interface Plan extends Contract.Plan {
  is_default: boolean;
  /** The plan's own currency, or null for the shop's. */
  currency: string | null;
  /** Minor units per 1,000 requests over the monthly quota; null: a hard limit. */
  overage_unit_amount: number | null;
  stripe_product_id: string | null;
  stripe_price_id: string | null;
  stripe_metered_price_id: string | null;
  keys: number;
}

/** A plan as the form sends it: a number left empty is null, and the server says what is missing. */
export interface PlanInput {
  name: string;
  requests_per_month: number | null;
  requests_per_minute: number | null;
  endpoints: string[];
  price_monthly: number | null;
  is_default: boolean;
  currency: string | null;
  overage_unit_amount: number | null;
}

export type Scope = Contract.ApiKey['scopes'][number];

/** A key as the admin routes list it: the API's, with its user, its plan and why (its own, or its owner's), and the owner's plan and why. */
export type ApiKey = Contract.AdminApiKey;
export type PlanSource = Contract.AdminApiKey['plan_source'];
export type OwnerPlanSource = Contract.ConsumerPlanAnswer['plan_source'];

export interface KeyLimitsInput {
  requests_per_minute: number | null;
  requests_per_month: number | null;
}

/** The answer to issuing a key: the only time the key itself is seen. */
export type IssuedKey = Contract.NewApiKey;

export interface IssueKeyInput {
  user_id: number | null;
  /** Left out: the key follows its owner's plan. */
  plan_id?: number;
  name?: string;
  scopes: Scope[];
}

/** Usage as the admin routes answer it: the API's report, for one key or all, with its range. */
export interface Usage extends Omit<Contract.UsageReport, 'month'> {
  month: Contract.UsageReport['month'] | null;
  key_id: number | null;
  from: string;
  to: string;
}

/* Sales ----------------------------------------------------------------------------------- */

export type BillingSubscription = Contract.AdminBillingSubscription;
export type BillingState = Contract.BillingState;
export type BillingSubscriptionStatus = BillingSubscription['status'];

export type SalesPeriod = 'day' | 'week' | 'month';

export interface SalesFigures {
  count: number;
  revenue: number;
  avgOrder: number;
  period: SalesPeriod;
}

export interface SalesReport {
  currency: string;
  periods: Record<SalesPeriod, SalesFigures>;
}

export type OrderStatus = 'pending' | 'paid' | 'shipped' | 'delivered' | 'cancelled';

export interface OrderListing {
  id: string;
  document_id: string;
  status: OrderStatus;
  total: number;
  currency: string | null;
  items: number;
  buyer: { id: number; username: string; email: string } | null;
  created_at: string | null;
  paid_at: string | null;
  payment_id: string | null;
}

const base = `/${PLUGIN_ID}`;
const query = (params: Record<string, string | number | undefined>) => {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value !== undefined && value !== '') search.set(key, String(value));
  const text = search.toString();
  return text ? `?${text}` : '';
};

export function useApiSuiteClient() {
  const { get, post, put, del } = useFetchClient();
  return useMemo(() => {
    const data = async <T>(request: Promise<{ data: { data: T } }>): Promise<T> => (await request).data.data;
    return {
      getOverview: () => data<Overview>(get(`${base}/overview`)),
      consumers: async (search: string): Promise<Page<Consumer>> =>
        (await get<Page<Consumer>>(`${base}/consumers${query({ q: search, limit: 20 })}`)).data,

      webhooks: {
        subscriptions: async (page: number): Promise<Page<Subscription>> =>
          (await get<Page<Subscription>>(`${base}/webhooks/subscriptions${query({ page, limit: 20 })}`)).data,
        subscription: (id: string) => data<Subscription>(get(`${base}/webhooks/subscriptions/${id}`)),
        setActive: (id: string, isActive: boolean) =>
          data<Subscription>(put(`${base}/webhooks/subscriptions/${id}`, { is_active: isActive })),
        sendTest: (id: string) => data<TestOutcome>(post(`${base}/webhooks/subscriptions/${id}/test`)),
        deliveries: async (id: string, page: number, status?: DeliveryStatus): Promise<Page<Delivery>> =>
          (await get<Page<Delivery>>(`${base}/webhooks/subscriptions/${id}/deliveries${query({ page, limit: 20, status })}`)).data,
        delivery: (id: string) => data<DeliveryDetail>(get(`${base}/webhooks/deliveries/${id}`)),
        retry: (id: string) => data<{ delivery_id: string; status: 'queued' }>(post(`${base}/webhooks/deliveries/${id}/retry`)),
        recover: (id: string, range: { since: string; until?: string }) =>
          data<Contract.Recovered>(post(`${base}/webhooks/subscriptions/${id}/recover`, range)),
        eventTypes: () => data<EventType[]>(get(`${base}/webhooks/event-types`)),
        updateEventType: (name: string, patch: EventTypePatch) => data<EventType>(put(`${base}/webhooks/event-types/${name}`, patch)),
      },

      scrapers: {
        list: async (page: number): Promise<Page<Scraper>> =>
          (await get<Page<Scraper>>(`${base}/scrapers${query({ page, limit: 20 })}`)).data,
        options: () => data<{ proxy_pools: string[] }>(get(`${base}/scrapers/options`)),
        get: (id: number) => data<Scraper>(get(`${base}/scrapers/${id}`)),
        create: (input: ScraperInput & { user_id: number | null }) => data<Scraper>(post(`${base}/scrapers`, input)),
        update: (id: number, input: Partial<ScraperInput>) => data<Scraper>(put(`${base}/scrapers/${id}`, input)),
        remove: async (id: number): Promise<void> => {
          await del(`${base}/scrapers/${id}`);
        },
        run: (id: number) => data<{ run_id: number; status: 'started' }>(post(`${base}/scrapers/${id}/run`)),
        stop: (id: number) => data<{ run_id: number; status: 'stopped' }>(post(`${base}/scrapers/${id}/stop`)),
        runs: async (id: number, page: number): Promise<Page<Run>> =>
          (await get<Page<Run>>(`${base}/scrapers/${id}/runs${query({ page, limit: 10 })}`)).data,
        /** `change` narrows to results with one of these changes (none: every result). */
        results: async (id: number, runId: number, page: number, change: Change[] = []): Promise<Page<ScrapeResult>> =>
          (
            await get<Page<ScrapeResult>>(
              `${base}/scrapers/${id}/results${query({ run_id: runId, page, limit: 20, change: change.length > 0 ? change.join(',') : undefined })}`
            )
          ).data,
      },

      access: {
        plans: () => data<Plan[]>(get(`${base}/access/plans`)),
        createPlan: (input: PlanInput) => data<Plan>(post(`${base}/access/plans`, input)),
        updatePlan: (id: number, input: Partial<PlanInput>) => data<Plan>(put(`${base}/access/plans/${id}`, input)),
        keys: async (page: number): Promise<Page<ApiKey>> =>
          (await get<Page<ApiKey>>(`${base}/access/keys${query({ page, limit: 20 })}`)).data,
        issueKey: (input: IssueKeyInput) => data<IssuedKey>(post(`${base}/access/keys`, input)),
        /** Grant a consumer a plan, or take the grant back (null): their keys without a plan of their own follow it. */
        grantPlan: (userId: number, planId: number | null) =>
          data<Contract.ConsumerPlanAnswer>(put(`${base}/access/consumers/${userId}/plan`, { plan_id: planId })),
        setKeyLimits: (id: number, input: KeyLimitsInput) => data<Contract.KeyWithLimits>(put(`${base}/access/keys/${id}`, input)),
        revokeKey: async (id: number): Promise<void> => {
          await del(`${base}/access/keys/${id}`);
        },
        usage: (keyId?: number) => data<Usage>(get(`${base}/access/usage${query({ key_id: keyId })}`)),
        /** The path of the usage stream, read with `streamEvents` (an SSE body over fetch). */
        usageStreamPath: (keyId?: number) => `${base}/access/usage/stream${query({ key_id: keyId })}`,
      },

      billing: {
        subscriptions: async (
          page: number,
          status?: BillingSubscriptionStatus
        ): Promise<Page<BillingSubscription> & { meta: { billing: BillingState } }> =>
          (
            await get<Page<BillingSubscription> & { meta: { billing: BillingState } }>(
              `${base}/billing/subscriptions${query({ page, limit: 20, status })}`
            )
          ).data,
      },

      sales: {
        report: () => data<SalesReport>(get(`${base}/sales/report`)),
        orders: async (page: number, status?: OrderStatus): Promise<Page<OrderListing>> =>
          (await get<Page<OrderListing>>(`${base}/sales/orders${query({ page, limit: 20, status })}`)).data,
      },
    };
  }, [get, post, put, del]);
}

export type ApiSuiteClient = ReturnType<typeof useApiSuiteClient>;
