import type { Core } from '@strapi/strapi';
import { UIDS } from '../../constants';
import { tableOf, toCount } from '../../db';
import { getService } from '../../utils';
import type { AdminConsumer } from './validation/responses';

/**
 * Which plan each consumer is on, and what each plan holds, for many consumers at once: the rule
 * of the consumer-plans service (a live subscription's plan, else an administrator's grant, else
 * the default plan; a plan since deleted no longer counts), read in a few queries for a whole
 * page or the whole site rather than one consumer at a time.
 */

/** Why a consumer is on their plan: a live subscription's, an administrator's grant, or the default. */
export type PlanSource = 'subscription' | 'grant' | 'default';

export interface ConsumerPlanOf {
  effective: number;
  source: PlanSource;
  /** The plan an administrator granted, whether or not it is the one that applies. */
  granted: number | null;
}

interface Rules {
  planIds: Set<number>;
  defaultId: number;
}

async function rules(strapi: Core.Strapi): Promise<Rules> {
  const plans = getService(strapi, 'plans');
  const [rows, defaultId] = await Promise.all([plans.rows(), plans.defaultPlanId()]);
  return { planIds: new Set(rows.map((row) => row.id)), defaultId };
}

/** Subscriptions that entitle their consumer to their plan now (as `planForUser` decides), by user. */
async function subscribedPlans(strapi: Core.Strapi, userIds: number[] | 'all'): Promise<Map<number, number>> {
  let query = strapi.db
    .connection(tableOf(strapi, UIDS.billingSubscription))
    .whereIn('status', ['trialing', 'active', 'past_due'])
    .whereNotNull('plan_id')
    .whereRaw('effective_plan_id = plan_id');
  if (userIds !== 'all') {
    if (userIds.length === 0) return new Map();
    query = query.whereIn('user_id', userIds);
  }
  const rows = (await query.select('user_id', 'plan_id')) as Array<{ user_id: number; plan_id: number }>;
  return new Map(rows.map((row) => [Number(row.user_id), Number(row.plan_id)]));
}

async function allGrants(strapi: Core.Strapi): Promise<Map<number, number>> {
  const rows = (await strapi.db.connection(tableOf(strapi, UIDS.consumerPlan)).select('user_id', 'plan_id')) as Array<{
    user_id: number;
    plan_id: number;
  }>;
  return new Map(rows.map((row) => [Number(row.user_id), Number(row.plan_id)]));
}

function resolve(rule: Rules, subscribed: number | undefined, granted: number | undefined): ConsumerPlanOf {
  const candidates: Array<[number | undefined, PlanSource]> = [
    [subscribed, 'subscription'],
    [granted, 'grant'],
  ];
  const found = candidates.find(([id]) => id !== undefined && rule.planIds.has(id));
  return { effective: found ? (found[0] as number) : rule.defaultId, source: found ? found[1] : 'default', granted: granted ?? null };
}

/** The plan of each of these consumers, in three queries whatever their number. */
export async function plansOfConsumers(strapi: Core.Strapi, userIds: number[]): Promise<Map<number, ConsumerPlanOf>> {
  const ids = [...new Set(userIds)];
  if (ids.length === 0) return new Map();
  const [rule, subscribed, granted] = await Promise.all([
    rules(strapi),
    subscribedPlans(strapi, ids),
    getService(strapi, 'consumer-plans').grantsOf(ids),
  ]);
  return new Map(ids.map((id) => [id, resolve(rule, subscribed.get(id), granted.get(id))]));
}

interface KeyLink {
  id: number;
  user?: { id: number } | null;
  plan?: { id: number } | null;
}

/** Active keys (not revoked, not expired) of these consumers, or of everyone: each with its owner and its own plan. */
async function activeKeys(strapi: Core.Strapi, userIds?: number[]): Promise<KeyLink[]> {
  const now = new Date();
  const where: Record<string, unknown> = {
    status: 'active',
    $or: [{ expires_at: null }, { expires_at: { $gt: now } }],
  };
  if (userIds) where.user = { id: { $in: userIds } };
  return (await strapi.db.query(UIDS.apiKey).findMany({
    where,
    select: ['id'],
    populate: { user: { select: ['id'] }, plan: { select: ['id'] } },
  })) as KeyLink[];
}

/** Active keys per consumer. */
export async function activeKeyCounts(strapi: Core.Strapi, userIds: number[]): Promise<Map<number, number>> {
  const counts = new Map<number, number>();
  if (userIds.length === 0) return counts;
  for (const key of await activeKeys(strapi, userIds)) {
    if (key.user) counts.set(key.user.id, (counts.get(key.user.id) ?? 0) + 1);
  }
  return counts;
}

export interface PlanHolding {
  /** Consumers on the plan now. */
  consumers: number;
  /** Active keys on the plan now: issued on it, or following an owner who is on it. */
  keys: number;
}

/**
 * What each plan holds now, by the access model's rule: every consumer without a subscription or
 * grant that applies is on the default plan, and a key without a plan of its own follows its
 * owner's. Reads the subscriptions, the grants and the active keys, and counts the users.
 */
export async function planHoldings(strapi: Core.Strapi): Promise<Map<number, PlanHolding>> {
  const [rule, subscribed, granted, keys, users] = await Promise.all([
    rules(strapi),
    subscribedPlans(strapi, 'all'),
    allGrants(strapi),
    activeKeys(strapi),
    strapi.db.connection(tableOf(strapi, UIDS.user)).count({ count: '*' }).first(),
  ]);
  const holdings = new Map<number, PlanHolding>([...rule.planIds].map((id) => [id, { consumers: 0, keys: 0 }]));
  const held = (id: number): PlanHolding => {
    const found = holdings.get(id);
    if (found) return found;
    const added = { consumers: 0, keys: 0 };
    holdings.set(id, added);
    return added;
  };
  const planOf = new Map<number, number>();
  for (const userId of new Set([...subscribed.keys(), ...granted.keys()])) {
    planOf.set(userId, resolve(rule, subscribed.get(userId), granted.get(userId)).effective);
  }
  for (const planId of planOf.values()) held(planId).consumers += 1;
  const total = toCount((users as { count?: unknown } | undefined)?.count);
  held(rule.defaultId).consumers += Math.max(0, total - planOf.size);
  for (const key of keys) {
    const own = key.plan?.id;
    const planId = own !== undefined && rule.planIds.has(own) ? own : key.user ? (planOf.get(key.user.id) ?? rule.defaultId) : null;
    if (planId !== null) held(planId).keys += 1;
  }
  return holdings;
}

/** A page of consumers as the admin panel lists them: the plan each is on and why, their grant and their active keys, one query per kind. */
export async function describeConsumers(
  strapi: Core.Strapi,
  consumers: Array<Omit<AdminConsumer, 'plan' | 'granted' | 'keys'>>,
  plans: Array<{ id: number; name: string }>
): Promise<AdminConsumer[]> {
  const ids = consumers.map((consumer) => consumer.id);
  const [planOf, keyCounts] = await Promise.all([plansOfConsumers(strapi, ids), activeKeyCounts(strapi, ids)]);
  const planNames = new Map(plans.map((plan) => [plan.id, plan.name]));
  return consumers.map((consumer) => {
    const plan = planOf.get(consumer.id) as ConsumerPlanOf;
    return {
      ...consumer,
      plan: { id: plan.effective, name: planNames.get(plan.effective) ?? '', source: plan.source },
      granted: plan.granted === null ? null : { id: plan.granted, name: planNames.get(plan.granted) ?? '' },
      keys: keyCounts.get(consumer.id) ?? 0,
    };
  });
}
