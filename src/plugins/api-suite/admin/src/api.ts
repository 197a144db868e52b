import { isFetchError, useFetchClient } from '@strapi/strapi/admin';
import { useMemo } from 'react';
import type * as Contract from '../../shared/api-types';
import { contractClient, contractPath } from '../../shared/client';
import { problemOf } from '../../shared/http';

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
export type TargetWrite = Contract.TargetWrite;
export type TargetType = Contract.ScraperOptions['target_types'][number];
export type ScraperTarget = NonNullable<Contract.Scraper['target']>;

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

export function useApiSuiteClient() {
  const { get, post, put, del } = useFetchClient();
  return useMemo(() => {
    // Every admin route is called by its contract (shared/client.ts); the fetch client's FetchError
    // carries the body, and failures leave here as ApiProblems.
    const call = contractClient(async (method, path, body) => {
      const sent = method === 'GET' ? get(path) : method === 'POST' ? post(path, body) : method === 'PUT' ? put(path, body) : del(path);
      const response = await sent.catch((error: unknown) => Promise.reject(toProblem(error)));
      return response.data;
    });
    return {
      getOverview: async () => (await call('GET /api-suite/overview')).data,
      consumers: (search: string) => call('GET /api-suite/consumers', { query: { q: search, limit: 20 } }),

      webhooks: {
        subscriptions: (page: number) => call('GET /api-suite/webhooks/subscriptions', { query: { page, limit: 20 } }),
        subscription: async (id: string) => (await call('GET /api-suite/webhooks/subscriptions/{id}', { params: { id } })).data,
        setActive: async (id: string, isActive: boolean) =>
          (await call('PUT /api-suite/webhooks/subscriptions/{id}', { params: { id }, body: { is_active: isActive } })).data,
        /** Set a subscription's payload filter, or clear it (null); 422 invalid_filter where it cannot be applied to its types. */
        setFilter: async (id: string, filter: Record<string, unknown> | null) =>
          (await call('PUT /api-suite/webhooks/subscriptions/{id}', { params: { id }, body: { filter } })).data,
        /** Whether a filter matches an event type's example (or a payload given). */
        filterTest: async (input: Contract.FilterTestInput) => (await call('POST /api-suite/webhooks/filter-test', { body: input })).data,
        sendTest: async (id: string) => (await call('POST /api-suite/webhooks/subscriptions/{id}/test', { params: { id } })).data,
        deliveries: (id: string, page: number, status?: DeliveryStatus) =>
          call('GET /api-suite/webhooks/subscriptions/{id}/deliveries', { params: { id }, query: { page, limit: 20, status } }),
        delivery: async (id: string) => (await call('GET /api-suite/webhooks/deliveries/{id}', { params: { id } })).data,
        retry: async (id: string) => (await call('POST /api-suite/webhooks/deliveries/{id}/retry', { params: { id } })).data,
        recover: async (id: string, range: Contract.RecoverInput) =>
          (await call('POST /api-suite/webhooks/subscriptions/{id}/recover', { params: { id }, body: range })).data,
        eventTypes: async () => (await call('GET /api-suite/webhooks/event-types')).data,
        /** Publish one event by hand to every subscriber of its type (422 for a type the plugin alone publishes, or a payload that does not fit). */
        publish: async (event: Contract.PublishEventInput) => (await call('POST /api-suite/webhooks/events', { body: event })).data,
        updateEventType: async (name: string, patch: Contract.EventTypeUpdateInput) =>
          (await call('PUT /api-suite/webhooks/event-types/{name}', { params: { name }, body: patch })).data,
      },

      scrapers: {
        list: (page: number) => call('GET /api-suite/scrapers', { query: { page, limit: 20 } }),
        options: async () => (await call('GET /api-suite/scrapers/options')).data,
        get: async (id: number) => (await call('GET /api-suite/scrapers/{id}', { params: { id } })).data,
        create: async (input: LeftEmpty<Contract.AdminCreateScraperInput, 'user_id'>) =>
          (await call('POST /api-suite/scrapers', { body: input as Contract.AdminCreateScraperInput })).data,
        update: async (id: number, input: Contract.UpdateScraperInput) =>
          (await call('PUT /api-suite/scrapers/{id}', { params: { id }, body: input })).data,
        remove: async (id: number): Promise<void> => {
          await call('DELETE /api-suite/scrapers/{id}', { params: { id } });
        },
        run: async (id: number) => (await call('POST /api-suite/scrapers/{id}/run', { params: { id } })).data,
        stop: async (id: number) => (await call('POST /api-suite/scrapers/{id}/stop', { params: { id } })).data,
        runs: (id: number, page: number) => call('GET /api-suite/scrapers/{id}/runs', { params: { id }, query: { page, limit: 10 } }),
        /** The documents a run wrote into its scraper's target, with how (created, updated, unpublished, deleted). */
        runWrites: (id: number, runId: number, page: number) =>
          call('GET /api-suite/scrapers/{id}/runs/{runId}/writes', { params: { id, runId }, query: { page, limit: 20 } }),
        /** The scraper and run that last wrote a document of the site, or null. */
        writtenBy: async (type: string, documentId: string) =>
          (await call('GET /api-suite/scrapers/written-by', { query: { type, document_id: documentId } })).data,
        /** `change` narrows to results with one of these changes (none: every result). */
        results: (id: number, runId: number, page: number, change: Change[] = []) =>
          call('GET /api-suite/scrapers/{id}/results', {
            params: { id },
            query: { run_id: runId, page, limit: 20, change: change.length > 0 ? change.join(',') : undefined },
          }),
      },

      access: {
        plans: async () => (await call('GET /api-suite/access/plans')).data,
        createPlan: async (input: PlanInput) => (await call('POST /api-suite/access/plans', { body: input as Contract.PlanInput })).data,
        updatePlan: async (id: number, input: Partial<PlanInput>) =>
          (await call('PUT /api-suite/access/plans/{id}', { params: { id }, body: input as Contract.PlanInput })).data,
        keys: (page: number) => call('GET /api-suite/access/keys', { query: { page, limit: 20 } }),
        issueKey: async (input: IssueKeyInput) =>
          (await call('POST /api-suite/access/keys', { body: input as Contract.IssueKeyInput })).data,
        consumers: (search: string, page: number) =>
          call('GET /api-suite/access/consumers', { query: { q: search || undefined, page, limit: 20 } }),
        /** Grant a consumer a plan, or take the grant back (null): their keys without a plan of their own follow it. */
        grantPlan: async (userId: number, planId: number | null) =>
          (await call('PUT /api-suite/access/consumers/{id}/plan', { params: { id: userId }, body: { plan_id: planId } })).data,
        setKeyLimits: async (id: number, input: Contract.KeyLimitsInput) =>
          (await call('PUT /api-suite/access/keys/{id}', { params: { id }, body: input })).data,
        revokeKey: async (id: number): Promise<void> => {
          await call('DELETE /api-suite/access/keys/{id}', { params: { id } });
        },
        usage: async (keyId?: number) => (await call('GET /api-suite/access/usage', { query: { key_id: keyId } })).data,
        /** The path of the usage stream (an SSE body read over fetch). */
        usageStreamPath: (keyId?: number) => contractPath('GET /api-suite/access/usage/stream', { query: { key_id: keyId } }),
      },

      billing: {
        subscriptions: (page: number, status?: BillingSubscriptionStatus) =>
          call('GET /api-suite/billing/subscriptions', { query: { page, limit: 20, status } }),
      },

      sales: {
        report: async () => (await call('GET /api-suite/sales/report')).data,
        orders: (page: number, status?: OrderStatus) => call('GET /api-suite/sales/orders', { query: { page, limit: 20, status } }),
      },
    };
  }, [get, post, put, del]);
}

export type ApiSuiteClient = ReturnType<typeof useApiSuiteClient>;

/** A FetchError carries the admin routes' error body (`{ error: { status, name, message, details.errors } }`). */
function toProblem(error: unknown): unknown {
  if (!isFetchError(error)) return error;
  const body = error.response?.data as { error?: { status?: unknown } } | undefined;
  const status = typeof body?.error?.status === 'number' ? body.error.status : (error.status ?? 0);
  return problemOf(status, body, error.message);
}
