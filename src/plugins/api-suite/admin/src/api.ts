import { isFetchError, useFetchClient } from '@strapi/strapi/admin';
import { useMemo } from 'react';
import type * as Contract from '../../shared/api-types';
import { pathWith, problemOf, type Page } from '../../shared/http';
import { PLUGIN_ID } from './pluginId';

/**
 * The one typed client for the plugin's admin routes (`/api-suite/*`, server `routes.admin` of
 * each feature). Every call goes through the admin's fetch client, which sends the session's
 * token and refreshes it; a failure is thrown as the shared ApiProblem, read from the admin
 * routes' error body.
 *
 * Answers and bodies take their types from the shared API types (the zod schemas the routes
 * validate with and answer in), extended by what the admin routes add; a field changed there
 * breaks this type check, not the screen.
 */

export type { Page } from '../../shared/http';

export interface Overview {
  jobs: { driver: 'bullmq' | 'in-process' };
  outbound: { allowPrivate: boolean };
  database: { client: string };
  access: { routePrefixes: string[]; sharedKey: boolean; endpointGroups: { public: string[]; private: string[]; content: string[] } };
  commerce: { currency: string };
  activity: Contract.Activity;
}

export interface Consumer {
  id: number;
  username: string;
  email: string;
  consumer_id: string;
}

/** A body as a form sends it: a choice left empty goes as null, and the server says what is missing. */
type LeftEmpty<T, K extends keyof T> = Omit<T, K> & { [P in K]-?: Exclude<T[P], undefined> | null };

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

/* Scrapers -------------------------------------------------------------------------------- */

export type Run = Contract.ScraperRun;
export type RunStatus = Run['status'];
export type Selectors = NonNullable<Contract.Scraper['selectors']>;
export type Change = NonNullable<Contract.ScraperResult['change']>;

/** A scraper as the admin routes answer it: the API's, with its owner and latest run. */
export interface Scraper extends Contract.Scraper {
  owner: Consumer | null;
  latest_run: Run | null;
}

/** A number left out is the server's default (on create) or unchanged (on edit). */
export type ScraperInput = Contract.CreateScraperInput;

export type ScrapeResult = Contract.ScraperResult;

/* Access ---------------------------------------------------------------------------------- */

/** A plan as the admin routes answer it: the API's, with endpoints as stored (`@public`, …), the default flag and what it holds now. */
export interface Plan extends Contract.Plan, Contract.PlanHolding {
  is_default: boolean;
  /** The plan's own currency, or null for the shop's. */
  currency: string | null;
  /** Minor units per 1,000 requests over the monthly quota; null: a hard limit. */
  overage_unit_amount: number | null;
  stripe_product_id: string | null;
  stripe_price_id: string | null;
  stripe_metered_price_id: string | null;
}

export type PlanInput = LeftEmpty<Contract.PlanInput, 'requests_per_month' | 'requests_per_minute' | 'price_monthly'>;

export type Scope = Contract.ApiKey['scopes'][number];

/** A key as the admin routes list it: the API's, with its user, its plan and why (its own, or its owner's), and the owner's plan and why. */
export type ApiKey = Contract.AdminApiKey;
export type PlanSource = Contract.AdminApiKey['plan_source'];
export type OwnerPlanSource = Contract.ConsumerPlanAnswer['plan_source'];

/** A consumer as the Consumers tab lists them: the plan they are on now and why, their grant and their active keys. */
export type PlanConsumer = Contract.AdminConsumer;

/** The answer to issuing a key: the only time the key itself is seen. */
export type IssuedKey = Contract.NewApiKey;

/** Without `plan_id` the key follows its owner's plan. */
export type IssueKeyInput = LeftEmpty<Contract.IssueKeyInput, 'user_id'>;

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
export type BillingSubscriptionStatus = NonNullable<Contract.AdminSubscriptionsQuery['status']>;

export type SalesPeriod = Contract.ReportPeriod;

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

export type OrderStatus = NonNullable<Contract.AdminOrdersQuery['status']>;

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

export function useApiSuiteClient() {
  const { get: fetchGet, post: fetchPost, put: fetchPut, del: fetchDel } = useFetchClient();
  return useMemo(() => {
    // The fetch client's FetchError carries the body: failures leave here as ApiProblems.
    const get = failingWithProblems(fetchGet);
    const post = failingWithProblems(fetchPost);
    const put = failingWithProblems(fetchPut);
    const del = failingWithProblems(fetchDel);
    const data = async <T>(request: Promise<{ data: { data: T } }>): Promise<T> => (await request).data.data;
    return {
      getOverview: () => data<Overview>(get(`${base}/overview`)),
      consumers: async (search: string): Promise<Page<Consumer>> =>
        (await get<Page<Consumer>>(pathWith(`${base}/consumers`, { q: search, limit: 20 }))).data,

      webhooks: {
        subscriptions: async (page: number): Promise<Page<Subscription>> =>
          (await get<Page<Subscription>>(pathWith(`${base}/webhooks/subscriptions`, { page, limit: 20 }))).data,
        subscription: (id: string) => data<Subscription>(get(`${base}/webhooks/subscriptions/${id}`)),
        setActive: (id: string, isActive: boolean) =>
          data<Subscription>(
            put(`${base}/webhooks/subscriptions/${id}`, { is_active: isActive } satisfies Contract.AdminSubscriptionUpdateInput)
          ),
        /** Set a subscription's payload filter, or clear it (null); 422 invalid_filter where it cannot be applied to its types. */
        setFilter: (id: string, filter: Record<string, unknown> | null) =>
          data<Subscription>(put(`${base}/webhooks/subscriptions/${id}`, { filter } satisfies Contract.AdminSubscriptionUpdateInput)),
        /** Whether a filter matches an event type's example (or a payload given). */
        filterTest: (input: Contract.FilterTestInput) => data<Contract.FilterTestOutcome>(post(`${base}/webhooks/filter-test`, input)),
        sendTest: (id: string) => data<TestOutcome>(post(`${base}/webhooks/subscriptions/${id}/test`)),
        deliveries: async (id: string, page: number, status?: DeliveryStatus): Promise<Page<Delivery>> =>
          (await get<Page<Delivery>>(pathWith(`${base}/webhooks/subscriptions/${id}/deliveries`, { page, limit: 20, status }))).data,
        delivery: (id: string) => data<DeliveryDetail>(get(`${base}/webhooks/deliveries/${id}`)),
        retry: (id: string) => data<{ delivery_id: string; status: 'queued' }>(post(`${base}/webhooks/deliveries/${id}/retry`)),
        recover: (id: string, range: Contract.RecoverInput) =>
          data<Contract.Recovered>(post(`${base}/webhooks/subscriptions/${id}/recover`, range)),
        eventTypes: () => data<EventType[]>(get(`${base}/webhooks/event-types`)),
        updateEventType: (name: string, patch: Contract.EventTypeUpdateInput) =>
          data<EventType>(put(`${base}/webhooks/event-types/${name}`, patch)),
      },

      scrapers: {
        list: async (page: number): Promise<Page<Scraper>> =>
          (await get<Page<Scraper>>(pathWith(`${base}/scrapers`, { page, limit: 20 }))).data,
        options: () => data<{ proxy_pools: string[] }>(get(`${base}/scrapers/options`)),
        get: (id: number) => data<Scraper>(get(`${base}/scrapers/${id}`)),
        create: (input: LeftEmpty<Contract.AdminCreateScraperInput, 'user_id'>) => data<Scraper>(post(`${base}/scrapers`, input)),
        update: (id: number, input: Contract.UpdateScraperInput) => data<Scraper>(put(`${base}/scrapers/${id}`, input)),
        remove: async (id: number): Promise<void> => {
          await del(`${base}/scrapers/${id}`);
        },
        run: (id: number) => data<{ run_id: number; status: 'started' }>(post(`${base}/scrapers/${id}/run`)),
        stop: (id: number) => data<{ run_id: number; status: 'stopped' }>(post(`${base}/scrapers/${id}/stop`)),
        runs: async (id: number, page: number): Promise<Page<Run>> =>
          (await get<Page<Run>>(pathWith(`${base}/scrapers/${id}/runs`, { page, limit: 10 }))).data,
        /** `change` narrows to results with one of these changes (none: every result). */
        results: async (id: number, runId: number, page: number, change: Change[] = []): Promise<Page<ScrapeResult>> =>
          (
            await get<Page<ScrapeResult>>(
              pathWith(`${base}/scrapers/${id}/results`, {
                run_id: runId,
                page,
                limit: 20,
                change: change.length > 0 ? change.join(',') : undefined,
              })
            )
          ).data,
      },

      access: {
        plans: () => data<Plan[]>(get(`${base}/access/plans`)),
        createPlan: (input: PlanInput) => data<Plan>(post(`${base}/access/plans`, input)),
        updatePlan: (id: number, input: Partial<PlanInput>) => data<Plan>(put(`${base}/access/plans/${id}`, input)),
        keys: async (page: number): Promise<Page<ApiKey>> =>
          (await get<Page<ApiKey>>(pathWith(`${base}/access/keys`, { page, limit: 20 }))).data,
        issueKey: (input: IssueKeyInput) => data<IssuedKey>(post(`${base}/access/keys`, input)),
        consumers: async (search: string, page: number): Promise<Page<PlanConsumer>> =>
          (await get<Page<PlanConsumer>>(pathWith(`${base}/access/consumers`, { q: search || undefined, page, limit: 20 }))).data,
        /** Grant a consumer a plan, or take the grant back (null): their keys without a plan of their own follow it. */
        grantPlan: (userId: number, planId: number | null) =>
          data<Contract.ConsumerPlanAnswer>(
            put(`${base}/access/consumers/${userId}/plan`, { plan_id: planId } satisfies Contract.GrantPlanInput)
          ),
        setKeyLimits: (id: number, input: Contract.KeyLimitsInput) => data<Contract.KeyWithLimits>(put(`${base}/access/keys/${id}`, input)),
        revokeKey: async (id: number): Promise<void> => {
          await del(`${base}/access/keys/${id}`);
        },
        usage: (keyId?: number) => data<Usage>(get(pathWith(`${base}/access/usage`, { key_id: keyId }))),
        /** The path of the usage stream (an SSE body read over fetch). */
        usageStreamPath: (keyId?: number) => pathWith(`${base}/access/usage/stream`, { key_id: keyId }),
      },

      billing: {
        subscriptions: async (
          page: number,
          status?: BillingSubscriptionStatus
        ): Promise<Page<BillingSubscription> & { meta: { billing: BillingState } }> =>
          (
            await get<Page<BillingSubscription> & { meta: { billing: BillingState } }>(
              pathWith(`${base}/billing/subscriptions`, { page, limit: 20, status })
            )
          ).data,
      },

      sales: {
        report: () => data<SalesReport>(get(`${base}/sales/report`)),
        orders: async (page: number, status?: OrderStatus): Promise<Page<OrderListing>> =>
          (await get<Page<OrderListing>>(pathWith(`${base}/sales/orders`, { page, limit: 20, status }))).data,
      },
    };
  }, [fetchGet, fetchPost, fetchPut, fetchDel]);
}

export type ApiSuiteClient = ReturnType<typeof useApiSuiteClient>;

/** A fetch client method that fails with an ApiProblem. */
function failingWithProblems<F extends (...args: never[]) => Promise<unknown>>(method: F): F {
  return ((...args: Parameters<F>) => method(...args).catch((error: unknown) => Promise.reject(toProblem(error)))) as F;
}

/** A FetchError carries the admin routes' error body (`{ error: { status, name, message, details.errors } }`). */
function toProblem(error: unknown): unknown {
  if (!isFetchError(error)) return error;
  const body = error.response?.data as { error?: { status?: unknown } } | undefined;
  const status = typeof body?.error?.status === 'number' ? body.error.status : (error.status ?? 0);
  return problemOf(status, body, error.message);
}
