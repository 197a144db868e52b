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
 * This file declares no answer type: every answer is a type inferred from a zod schema in the
 * `validation/responses.ts` of the route's feature (the admin's own answers too, e.g.
 * `adminPlan`, `orderListing`), taken through the shared API types; the names below are aliases
 * for the pages. Bodies are the schemas' input types, `LeftEmpty` where a form sends an empty
 * choice as null. A field changed on the server breaks this type check, not the screen.
 */

export type { Page } from '../../shared/http';

export type Overview = Contract.Overview;
export type Consumer = Contract.Consumer;

/** A body as a form sends it: a choice left empty goes as null, and the server says what is missing. */
type LeftEmpty<T, K extends keyof T> = Omit<T, K> & { [P in K]-?: Exclude<T[P], undefined> | null };

/* Webhooks -------------------------------------------------------------------------------- */

export type Subscription = Contract.AdminSubscription;

export type Delivery = Contract.Delivery;
export type DeliveryStatus = Delivery['status'];
export type Attempt = Contract.Attempt;
export type DeliveryDetail = Contract.DeliveryDetail;
export type TestOutcome = Contract.TestOutcome;

export type EventType = Contract.AdminEventType;

/* Scrapers -------------------------------------------------------------------------------- */

export type Run = Contract.ScraperRun;
export type RunStatus = Run['status'];
export type Selectors = NonNullable<Contract.Scraper['selectors']>;
export type Change = NonNullable<Contract.ScraperResult['change']>;

export type Scraper = Contract.AdminScraper;

/** A number left out is the server's default (on create) or unchanged (on edit). */
export type ScraperInput = Contract.CreateScraperInput;

export type ScrapeResult = Contract.ScraperResult;

/* Access ---------------------------------------------------------------------------------- */

/** A plan as the admin routes answer it, with what it holds now. */
export type Plan = Contract.AdminPlan;

export type PlanInput = LeftEmpty<Contract.PlanInput, 'requests_per_month' | 'requests_per_minute' | 'price_monthly' | 'trial_days'>;

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

export type Usage = Contract.AdminUsage;

/* Sales ----------------------------------------------------------------------------------- */

export type BillingSubscription = Contract.AdminBillingSubscription;
export type BillingState = Contract.BillingState;
export type BillingSubscriptionStatus = NonNullable<Contract.AdminSubscriptionsQuery['status']>;

export type SalesPeriod = Contract.ReportPeriod;

export type SalesFigures = Contract.SalesFigures;
export type SalesReport = Contract.SalesReport;

export type OrderStatus = NonNullable<Contract.AdminOrdersQuery['status']>;

export type OrderListing = Contract.OrderListing;

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
        retry: (id: string) => data<Contract.RetryQueued>(post(`${base}/webhooks/deliveries/${id}/retry`)),
        recover: (id: string, range: Contract.RecoverInput) =>
          data<Contract.Recovered>(post(`${base}/webhooks/subscriptions/${id}/recover`, range)),
        eventTypes: () => data<EventType[]>(get(`${base}/webhooks/event-types`)),
        /** Publish one event by hand to every subscriber of its type (422 for a type the plugin alone publishes, or a payload that does not fit). */
        publish: (event: Contract.PublishEventInput) => data<Contract.AdminPublished>(post(`${base}/webhooks/events`, event)),
        updateEventType: (name: string, patch: Contract.EventTypeUpdateInput) =>
          data<EventType>(put(`${base}/webhooks/event-types/${name}`, patch)),
      },

      scrapers: {
        list: async (page: number): Promise<Page<Scraper>> =>
          (await get<Page<Scraper>>(pathWith(`${base}/scrapers`, { page, limit: 20 }))).data,
        options: () => data<Contract.ScraperOptions>(get(`${base}/scrapers/options`)),
        get: (id: number) => data<Scraper>(get(`${base}/scrapers/${id}`)),
        create: (input: LeftEmpty<Contract.AdminCreateScraperInput, 'user_id'>) => data<Scraper>(post(`${base}/scrapers`, input)),
        update: (id: number, input: Contract.UpdateScraperInput) => data<Scraper>(put(`${base}/scrapers/${id}`, input)),
        remove: async (id: number): Promise<void> => {
          await del(`${base}/scrapers/${id}`);
        },
        run: (id: number) => data<Contract.RunStarted>(post(`${base}/scrapers/${id}/run`)),
        stop: (id: number) => data<Contract.RunStopped>(post(`${base}/scrapers/${id}/stop`)),
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
        subscriptions: async (page: number, status?: BillingSubscriptionStatus): Promise<Contract.AdminBillingSubscriptionPage> =>
          (await get<Contract.AdminBillingSubscriptionPage>(pathWith(`${base}/billing/subscriptions`, { page, limit: 20, status }))).data,
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
