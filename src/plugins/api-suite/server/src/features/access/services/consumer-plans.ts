import type { Core } from '@strapi/strapi';
import { UIDS } from '../../../constants';
import { tableOf } from '../../../db';
import { getService } from '../../../utils';
import { compileEndpoints, resolveEndpoints, type EndpointGroups } from '../endpoints';
import { endpointGroupsOf } from '../content-api/groups';
import { configuredApiPath, restPrefix } from '../../../http/site-paths';
import type { KeyEntry } from './keys';
import type { PlanRow } from './plans';
import { consumerPool, keyPool } from '../quota/pools';
import type { QuotaLimits } from '../quota';
import type { ConsumerPlanAnswer } from '../validation/responses';
import type { PlanSource } from '../plan-holdings';

/** A plan as the access checks apply it: its limits and a compiled endpoint matcher. */
export interface PlanRule {
  id: number;
  name: string;
  perMinute: number;
  /** -1 = unlimited */
  perMonth: number;
  allows: (method: string, path: string) => boolean;
  /** Requests past the monthly quota are served and billed. */
  overage: boolean;
}

/** Where a consumer's plan comes from, in the order it is looked for (`plan-holdings.ts`). */
export type { PlanSource };

export interface ConsumerPlan {
  rule: PlanRule;
  source: PlanSource;
}

/** What a request is held to: the plan that decides its reach, the pool it is counted in, and that pool's limits. */
export interface QuotaTarget {
  plan: PlanRule;
  pool: string;
  limits: QuotaLimits;
}

const TTL_MS = 60_000;

/**
 * The plan each consumer is on, whatever credential they call with: their live billing
 * subscription's plan; else the plan an administrator granted them; else the default plan. Keys
 * follow their owner's plan unless an administrator issued them on a plan of their own.
 *
 * Both the plans and each consumer's answer are cached for a minute; the access feature's
 * invalidation channel (see the keys service) drops a consumer at once on every instance when
 * their subscription or grant changes, and everything when a plan is edited.
 */
const consumerPlansService = ({ strapi }: { strapi: Core.Strapi }) => {
  const consumers = new Map<number, { plan: ConsumerPlan; until: number }>();
  let rules: { byId: Map<number, PlanRule>; defaultId: number; until: number } | null = null;
  const grantsTable = () => tableOf(strapi, UIDS.consumerPlan);

  const planRules = async (missing?: number) => {
    // A plan made since the last load (a key just issued on it) is looked up again, at most once a second.
    const stale = missing !== undefined && rules !== null && !rules.byId.has(missing) && rules.until - TTL_MS < Date.now() - 1_000;
    if (rules && rules.until > Date.now() && !stale) return rules;
    const plans = getService(strapi, 'plans');
    const groups = endpointGroupsOf(strapi);
    const rows = await plans.rows();
    rules = {
      byId: new Map(rows.map((row) => [row.id, toRule(row, groups, restPrefix(strapi))])),
      defaultId: await plans.defaultPlanId(),
      until: Date.now() + TTL_MS,
    };
    return rules;
  };

  const service = {
    /** The consumer's plan now (cached for up to a minute, dropped at once when it changes). */
    async of(userId: number): Promise<ConsumerPlan> {
      const cached = consumers.get(userId);
      if (cached && cached.until > Date.now()) return cached.plan;
      const { byId, defaultId } = await planRules();
      const [subscribed, granted] = await Promise.all([
        getService(strapi, 'billing-subscriptions').planForUser(userId),
        service.grantOf(userId),
      ]);
      const candidates: Array<[number | null, PlanSource]> = [
        [subscribed, 'subscription'],
        [granted, 'grant'],
        [defaultId, 'default'],
      ];
      // A subscribed or granted plan an editor has since deleted no longer counts.
      const [planId, source] = candidates.find(([id]) => id !== null && byId.has(id)) ?? [defaultId, 'default'];
      const plan = { rule: byId.get(planId as number) as PlanRule, source };
      consumers.set(userId, { plan, until: Date.now() + TTL_MS });
      return plan;
    },

    /** A plan's rule by id (a key's own plan), or null when it no longer exists. */
    async rule(planId: number): Promise<PlanRule | null> {
      return (await planRules(planId)).byId.get(planId) ?? null;
    },

    /**
     * What a request made by `userId` (with `key`, if any) is held to. A key with limits of its
     * own is counted on its own (with the keys it was rerolled from, whose pool it carries on);
     * every other credential of the consumer shares one pool per plan, so more keys buy nothing.
     */
    async targetOf(userId: number, key?: KeyEntry | null): Promise<QuotaTarget> {
      const plan = (key?.planId != null ? await service.rule(key.planId) : null) ?? (await service.of(userId)).rule;
      const own = key?.ownLimits;
      if (key && own && (own.perMinute !== null || own.perMonth !== null)) {
        return {
          plan,
          pool: keyPool(key.poolKeyId),
          limits: { perMinute: own.perMinute ?? plan.perMinute, perMonth: own.perMonth ?? plan.perMonth },
        };
      }
      return { plan, pool: consumerPool(userId, plan.id), limits: { perMinute: plan.perMinute, perMonth: plan.perMonth } };
    },

    /** The plan an administrator granted the consumer, or null. */
    async grantOf(userId: number): Promise<number | null> {
      const row = (await strapi.db.connection(grantsTable()).where({ user_id: userId }).first('plan_id')) as
        { plan_id: number } | undefined;
      return row?.plan_id ?? null;
    },

    /** Grants of several consumers, for the admin panel's lists. */
    async grantsOf(userIds: number[]): Promise<Map<number, number>> {
      if (userIds.length === 0) return new Map();
      const rows = (await strapi.db
        .connection(grantsTable())
        .whereIn('user_id', [...new Set(userIds)])
        .select('user_id', 'plan_id')) as Array<{ user_id: number; plan_id: number }>;
      return new Map(rows.map((row) => [row.user_id, row.plan_id]));
    },

    /** Grant a plan to a consumer (null takes the grant back); every instance sees it at once. */
    async grant(userId: number, planId: number | null): Promise<void> {
      const knex = strapi.db.connection;
      const now = new Date();
      if (planId === null) await knex(grantsTable()).where({ user_id: userId }).delete();
      else
        await knex(grantsTable())
          .insert({ user_id: userId, plan_id: planId, created_at: now, updated_at: now })
          .onConflict('user_id')
          .merge(['plan_id', 'updated_at']);
      await getService(strapi, 'keys').invalidateConsumer(userId);
    },

    /** Grant (or take back) and answer as the API does: the grant and the plan the consumer is on now. */
    async grantAndDescribe(userId: number, planId: number | null): Promise<ConsumerPlanAnswer> {
      await service.grant(userId, planId);
      return service.describe(userId);
    },

    async describe(userId: number): Promise<ConsumerPlanAnswer> {
      const [granted, current] = await Promise.all([service.grantOf(userId), service.of(userId)]);
      return { id: userId, plan_id: granted, effective_plan_id: current.rule.id, plan_source: current.source };
    },

    /** The plans of several consumers, for the admin panel's lists: their grants in one query, their plans from the cache. */
    async describeMany(userIds: number[]): Promise<Map<number, ConsumerPlanAnswer>> {
      const ids = [...new Set(userIds)];
      const [grants, current] = await Promise.all([service.grantsOf(ids), Promise.all(ids.map((userId) => service.of(userId)))]);
      return new Map(
        ids.map((userId, index) => [
          userId,
          {
            id: userId,
            plan_id: grants.get(userId) ?? null,
            effective_plan_id: current[index].rule.id,
            plan_source: current[index].source,
          },
        ])
      );
    },

    /** Drop what is cached about one consumer, or about every consumer and plan. */
    forget(userId: number | '*'): void {
      if (userId === '*') {
        consumers.clear();
        rules = null;
      } else consumers.delete(userId);
    },
  };
  return service;
};

/** A plan's rule on a site whose REST prefix is `prefix` (its patterns may name it or `/api`). */
export function toRule(row: PlanRow, groups: EndpointGroups, prefix = '/api'): PlanRule {
  return {
    id: row.id,
    name: row.name,
    perMinute: row.requests_per_minute,
    perMonth: row.requests_per_month,
    allows: compileEndpoints(resolveEndpoints(row.endpoints, groups), (path) => configuredApiPath(prefix, path)),
    overage: row.overage_unit_amount !== null && row.overage_unit_amount !== undefined,
  };
}

export type ConsumerPlansService = ReturnType<typeof consumerPlansService>;
export default consumerPlansService;
