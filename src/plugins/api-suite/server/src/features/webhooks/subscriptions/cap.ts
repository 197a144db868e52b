import type { Core } from '@strapi/strapi';
import { maxSubscriptionsOf } from '../config';
import { dialectOf, lockKey, type Knex } from '../../../db';
import { TooManySubscriptionsError } from '../errors';
import { getConfig, getService } from '../../../utils';

/**
 * How many webhook subscriptions one consumer may hold (docs/webhooks.md#creating-and-changing-a-subscription):
 * `webhooks.maxSubscriptions` by the name of their plan. Counted and enforced in the transaction
 * that inserts the subscription (services/subscriptions.ts).
 */
export interface SubscriptionCap {
  limit: number;
  /** The plan's name, for the refusal's message. */
  plan: string;
}

/** Who a subscription is created for: its consumer, and what decides their cap. */
export interface SubscriptionCreator {
  consumerId: string;
  userId: number;
  isAdmin: boolean;
}

/** The class of the per-consumer lock (db/locks.ts), so it meets no other lock of the database. */
const CAP_LOCK_CLASS = 0x574853; // "WHS"

/** The creator's cap, from their plan now (the consumer's, whatever key they call with); null for administrators, who are not capped. */
export async function capOf(strapi: Core.Strapi, creator: SubscriptionCreator): Promise<SubscriptionCap | null> {
  if (creator.isAdmin) return null;
  const plan = (await getService(strapi, 'consumer-plans').of(creator.userId)).rule.name;
  return { limit: maxSubscriptionsOf(getConfig(strapi).webhooks.maxSubscriptions, plan), plan };
}

/**
 * Refuses (409 too_many_subscriptions) when the consumer already holds `cap.limit` subscriptions,
 * active or not. Run inside the transaction that then inserts, first thing in it: it takes the
 * consumer's lock (db/locks.ts), so concurrent creates of one consumer count one after another
 * and cannot all pass.
 */
export async function assertBelowCap(
  strapi: Core.Strapi,
  trx: Knex,
  table: string,
  consumerId: string,
  cap: SubscriptionCap
): Promise<void> {
  await lockKey(trx, dialectOf(strapi), CAP_LOCK_CLASS, consumerId);
  const [row] = (await trx(table).where({ consumer_id: consumerId }).count({ count: '*' })) as Array<{ count: number | string }>;
  const held = Number(row?.count ?? 0);
  if (held >= cap.limit) throw new TooManySubscriptionsError(cap.plan, cap.limit, held);
}

/**
 * Boot: plan names in `webhooks.maxSubscriptions.plans` that no plan is called (a typo, or a plan
 * renamed since) are logged, since the plan they meant gets the default cap without a word.
 */
export async function warnOfUnknownPlans(strapi: Core.Strapi): Promise<void> {
  const named = Object.keys(getConfig(strapi).webhooks.maxSubscriptions.plans);
  if (named.length === 0) return;
  const known = new Set((await getService(strapi, 'plans').rows()).map((plan) => plan.name.trim().toLowerCase()));
  const unknown = named.filter((name) => !known.has(name.trim().toLowerCase()));
  if (unknown.length === 0) return;
  const { default: fallback } = getConfig(strapi).webhooks.maxSubscriptions;
  strapi.log.warn(
    `[api-suite] webhooks: WEBHOOK_MAX_SUBSCRIPTIONS_BY_PLAN (webhooks.maxSubscriptions.plans) names ${unknown.map((name) => `"${name}"`).join(', ')}, ` +
      `which no plan is called (a typo, or a plan renamed since): that cap applies to no one, and every plan it does not name gets WEBHOOK_MAX_SUBSCRIPTIONS (${fallback})`
  );
}
