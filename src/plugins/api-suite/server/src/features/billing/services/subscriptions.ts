import type { BillingSubscriptionEventData } from '../event-types';
import type { PublishableEvent } from '../../webhooks/events/registry';
import type { Core } from '@strapi/strapi';
import { trialEmailDigest } from '../trial-email';
import type Stripe from 'stripe';
import { UIDS } from '../../../constants';
import { dialectOf, forUpdate, tableOf, toBool, toCount, toIso, type Knex } from '../../../db';
import type { AdminBillingSubscription } from '../validation/responses';
import { getConfig, getService } from '../../../utils';
import { planIdOfLookupKey } from './catalog';

/** A subscription's status as the API shows it. */
export type BillingStatus = 'none' | 'trialing' | 'active' | 'past_due' | 'canceled' | 'unpaid';

/** The interval a subscription's flat price is billed at. */
export type BillingInterval = 'month' | 'year';

/** Stripe's eight statuses in the API's six (docs/billing.md): a first payment not made yet is unpaid. */
export function statusOf(status: Stripe.Subscription.Status): BillingStatus {
  switch (status) {
    case 'trialing':
      return 'trialing';
    case 'active':
      return 'active';
    case 'past_due':
      return 'past_due';
    case 'canceled':
    case 'incomplete_expired':
      return 'canceled';
    default:
      return 'unpaid';
  }
}

/** A subscription that still exists in Stripe and may be paid: buying another one is refused. */
export const isLive = (status: string | null | undefined) =>
  status === 'trialing' || status === 'active' || status === 'past_due' || status === 'unpaid';

/** Statuses that hold the bought plan (past due only within its grace period, which `effective_plan_id` says). */
export const HOLDING_STATUSES: readonly BillingStatus[] = ['trialing', 'active', 'past_due'];

/** The interval of a subscription's flat item (the one that is not metered), or null for one the plugin does not sell. */
export function intervalOf(subscription: Stripe.Subscription): BillingInterval | null {
  const interval: string | undefined = flatItemOf(subscription)?.price.recurring?.interval;
  return interval === 'month' ? 'month' : interval === 'year' ? 'year' : null;
}

const flatItemOf = (subscription: Stripe.Subscription) =>
  subscription.items.data.find((item) => item.price.recurring?.usage_type !== 'metered') ?? subscription.items.data[0];
const isMeteredItem = (item: Stripe.SubscriptionItem) => item.price.recurring?.usage_type === 'metered';

export interface SubscriptionRow {
  id: number;
  consumer_id: string;
  user_id: number;
  stripe_customer_id: string;
  stripe_subscription_id: string;
  plan_id: number | null;
  effective_plan_id: number | null;
  status: BillingStatus;
  billing_interval: BillingInterval | null;
  current_period_start: unknown;
  current_period_end: unknown;
  overage_period_start: unknown;
  cancel_at_period_end: unknown;
  grace_until: unknown;
  trial_end: unknown;
}

export type BillingEventType =
  'billing.subscription.created' | 'billing.subscription.updated' | 'billing.subscription.canceled' | 'billing.payment_failed';

export interface BillingAnnouncement {
  userId: number;
  type: BillingEventType;
  payload: Record<string, unknown>;
}

/** The subscription as webhook payloads carry it. */
export function subscriptionPayload(row: SubscriptionRow): BillingSubscriptionEventData {
  return {
    consumer_id: row.consumer_id,
    subscription_id: row.stripe_subscription_id,
    plan_id: row.plan_id,
    status: row.status,
    current_period_end: toIso(row.current_period_end),
    cancel_at_period_end: toBool(row.cancel_at_period_end),
    grace_until: toIso(row.grace_until),
  };
}

/**
 * The consumer's subscription as the plugin keeps it: Stripe's subscription object, applied. Every
 * change is applied from a subscription object just read back from Stripe, never from the
 * snapshot inside a webhook event, so events that arrive late, twice or out of order all leave
 * Stripe's latest state. The consumer's keys follow the plan: the subscribed plan while it is
 * active or past due within its grace period, the default plan otherwise.
 */
const billingSubscriptionsService = ({ strapi }: { strapi: Core.Strapi }) => {
  const table = () => tableOf(strapi, UIDS.billingSubscription);
  const customersTable = () => tableOf(strapi, UIDS.billingCustomer);
  const plansTable = () => tableOf(strapi, UIDS.plan);
  const graceMs = () => getConfig(strapi).billing.graceDays * 86_400_000;

  /** The plan a Stripe subscription sells: from its flat price's lookup key, else by the price id we stored. */
  const planOf = async (knex: Knex, subscription: Stripe.Subscription): Promise<number | null> => {
    const flat = flatItemOf(subscription);
    if (!flat) return null;
    const byKey = planIdOfLookupKey(flat.price.lookup_key);
    if (byKey !== null) return byKey;
    const row = (await knex(plansTable())
      .where({ stripe_price_id: flat.price.id })
      .orWhere({ stripe_yearly_price_id: flat.price.id })
      .first('id')) as { id: number } | undefined;
    if (row) return row.id;
    const fromMetadata = Number(subscription.metadata?.plan_id);
    return Number.isSafeInteger(fromMetadata) && fromMetadata > 0 ? fromMetadata : null;
  };

  /** The consumer's keys follow their plan: every instance looks it up again, then the events go out. */
  const afterCommit = (userId: number | null, announcements: BillingAnnouncement[]) => {
    // Here at once, so the answer to the request that changed the plan already shows the new one.
    if (userId !== null) getService(strapi, 'consumer-plans').forget(userId);
    setImmediate(() => {
      if (userId !== null) {
        void getService(strapi, 'keys')
          .invalidateConsumer(userId)
          .catch((error: Error) =>
            strapi.log.warn(`[api-suite] billing: the plan of user ${userId} not refreshed everywhere: ${error.message}`)
          );
      }
      void service.announce(announcements);
    });
  };

  const service = {
    async find(consumerId: string): Promise<SubscriptionRow | null> {
      return ((await strapi.db.connection(table()).where({ consumer_id: consumerId }).first()) as SubscriptionRow | undefined) ?? null;
    },

    /** Subscriptions for the admin panel, most recently changed first, with their consumers and plans. */
    async list(query: { page: number; limit: number; status?: string }): Promise<{ data: AdminBillingSubscription[]; total: number }> {
      const where = query.status ? { status: query.status } : {};
      const [rows, counted] = await Promise.all([
        strapi.db
          .connection(table())
          .where(where)
          .orderBy([
            { column: 'updated_at', order: 'desc' },
            { column: 'id', order: 'desc' },
          ])
          .offset((query.page - 1) * query.limit)
          .limit(query.limit) as Promise<Array<SubscriptionRow & { updated_at: unknown }>>,
        strapi.db.connection(table()).where(where).count({ total: '*' }).first() as Promise<{ total: unknown } | undefined>,
      ]);
      const consumers = await getService(strapi, 'consumers').describe(rows.map((row) => row.consumer_id));
      const planIds = [
        ...new Set(rows.flatMap((row) => [row.plan_id, row.effective_plan_id]).filter((value): value is number => value !== null)),
      ];
      const plans = new Map(
        (planIds.length === 0
          ? []
          : ((await strapi.db.connection(plansTable()).whereIn('id', planIds).select('id', 'name')) as Array<{ id: number; name: string }>)
        ).map((plan) => [plan.id, plan])
      );
      const metering = getService(strapi, 'billing-metering');
      const data = await Promise.all(
        rows.map(async (row) => ({
          subscription_id: row.stripe_subscription_id,
          customer_id: row.stripe_customer_id,
          consumer: consumers.get(row.consumer_id) ?? null,
          plan: row.plan_id === null ? null : (plans.get(row.plan_id) ?? null),
          effective_plan: row.effective_plan_id === null ? null : (plans.get(row.effective_plan_id) ?? null),
          status: row.status as AdminBillingSubscription['status'],
          current_period_end: toIso(row.current_period_end),
          cancel_at_period_end: toBool(row.cancel_at_period_end),
          grace_until: toIso(row.grace_until),
          overage_reported: (await metering.overageOf(row.consumer_id, row)).reported,
          updated_at: toIso(row.updated_at),
        }))
      );
      return { data, total: toCount(counted?.total) };
    },

    /**
     * The plan the consumer's subscription entitles them to now, or null: a subscription in its
     * trial or active, or a past-due one within its grace period (`apply` and `sweep` keep
     * `effective_plan_id` on the subscribed plan exactly then). The consumer's keys and JWT follow it.
     */
    async planForUser(userId: number): Promise<number | null> {
      const row = (await strapi.db.connection(table()).where({ user_id: userId }).first('plan_id', 'effective_plan_id', 'status')) as
        Pick<SubscriptionRow, 'plan_id' | 'effective_plan_id' | 'status'> | undefined;
      const entitled = row && HOLDING_STATUSES.includes(row.status) && row.plan_id !== null && row.effective_plan_id === row.plan_id;
      return entitled ? row.plan_id : null;
    },

    /**
     * Apply a subscription as Stripe has it now. Returns what changed, or null when the object
     * names no consumer we know (a subscription made outside the plugin) or is an older
     * subscription's end while a newer one is live.
     */
    async apply(subscription: Stripe.Subscription, extra: { announce?: BillingAnnouncement[] } = {}): Promise<SubscriptionRow | null> {
      const customerId = typeof subscription.customer === 'string' ? subscription.customer : subscription.customer.id;
      const defaultPlanId = await getService(strapi, 'plans').defaultPlanId();
      const announcements: BillingAnnouncement[] = [...(extra.announce ?? [])];

      const applied = await strapi.db.transaction(async ({ trx, onCommit }) => {
        const customer = (await trx(customersTable()).where({ stripe_customer_id: customerId }).first()) as
          { consumer_id: string; user_id: number } | undefined;
        const consumerId = customer?.consumer_id ?? subscription.metadata?.consumer_id;
        if (!consumerId) {
          strapi.log.warn(
            `[api-suite] billing: subscription ${subscription.id} belongs to customer ${customerId}, who is no consumer of this site; ignored`
          );
          return null;
        }
        const user = (await trx(tableOf(strapi, UIDS.user)).where({ consumer_id: consumerId }).first('id', 'email')) as
          { id: number; email: string | null } | undefined;
        if (!user) return null;
        if (!customer) {
          // Bought with a customer we did not make (named by the subscription's metadata): it is this consumer's from now on.
          await trx(customersTable())
            .insert({ consumer_id: consumerId, user_id: user.id, stripe_customer_id: customerId, created_at: new Date() })
            .onConflict('consumer_id')
            .ignore();
        }

        // Two events of one consumer on two instances apply one after the other (SQLite has one writer anyway).
        // A locking read, so on MySQL it reads the latest row whatever this transaction read before.
        const before =
          ((await forUpdate(trx(table()).where({ consumer_id: consumerId }), dialectOf(strapi)).first()) as SubscriptionRow | undefined) ??
          null;
        const status = statusOf(subscription.status);
        if (before && before.stripe_subscription_id !== subscription.id && isLive(before.status) && !isLive(status)) {
          strapi.log.info(
            `[api-suite] billing: ${subscription.id} ended while ${before.stripe_subscription_id} is live; kept the live one`
          );
          return null;
        }

        const now = new Date();
        const sameSubscription = before?.stripe_subscription_id === subscription.id;
        const planId = (await planOf(trx, subscription)) ?? (sameSubscription ? before.plan_id : null);
        const periods = subscription.items.data;
        const periodStart = periods.length > 0 ? Math.min(...periods.map((item) => item.current_period_start)) : null;
        const periodEnd = periods.length > 0 ? Math.max(...periods.map((item) => item.current_period_end)) : null;
        // The overage item bills monthly whatever the flat price's interval: its own period is the overage's.
        const metered = periods.find((item) => item.price.recurring?.usage_type === 'metered');
        const previousGrace = sameSubscription && before.grace_until ? new Date(toIso(before.grace_until) as string) : null;
        const graceUntil = status === 'past_due' ? (previousGrace ?? new Date(now.getTime() + graceMs())) : null;
        const entitled = status === 'trialing' || status === 'active' || (status === 'past_due' && graceUntil !== null && graceUntil > now);
        const effectivePlanId = entitled && planId !== null ? planId : defaultPlanId;

        const values = {
          consumer_id: consumerId,
          user_id: user.id,
          stripe_customer_id: customerId,
          stripe_subscription_id: subscription.id,
          plan_id: planId,
          effective_plan_id: effectivePlanId,
          status,
          billing_interval: intervalOf(subscription),
          current_period_start: periodStart === null ? null : new Date(periodStart * 1000),
          current_period_end: periodEnd === null ? null : new Date(periodEnd * 1000),
          overage_period_start: metered ? new Date(metered.current_period_start * 1000) : null,
          cancel_at_period_end: subscription.cancel_at_period_end,
          grace_until: graceUntil,
          trial_end: subscription.trial_end ? new Date(subscription.trial_end * 1000) : null,
          updated_at: now,
        };
        if (before) await trx(table()).where({ id: before.id }).update(values);
        else await trx(table()).insert({ ...values, created_at: now });
        // A consumer's trial is theirs once: recorded on their customer the first time Stripe reports a subscription with one.
        if (subscription.trial_start) {
          await trx(customersTable())
            .where({ consumer_id: consumerId })
            .whereNull('trial_started_at')
            .update({
              trial_started_at: new Date(subscription.trial_start * 1000),
              trial_email_digest: user.email ? trialEmailDigest(strapi, user.email) : null,
            });
        }
        const after = (await trx(table()).where({ consumer_id: consumerId }).first()) as SubscriptionRow;

        const payload = subscriptionPayload(after);
        if (!sameSubscription && isLive(status)) announcements.push({ userId: user.id, type: 'billing.subscription.created', payload });
        else if (status === 'canceled' && before?.status !== 'canceled')
          announcements.push({ userId: user.id, type: 'billing.subscription.canceled', payload });
        else if (before && changed(before, after)) announcements.push({ userId: user.id, type: 'billing.subscription.updated', payload });
        for (const announcement of announcements) {
          if (announcement.type !== 'billing.payment_failed') continue;
          announcement.userId = user.id;
          announcement.payload = { ...payload, ...announcement.payload };
        }
        onCommit(() => afterCommit(user.id, announcements));
        return after;
      });
      return applied;
    },

    /**
     * Past-due subscriptions whose grace period is over: their keys fall back to the default plan
     * (once, whichever instance gets there first), until Stripe reports the invoice paid.
     */
    async sweep(now = new Date()): Promise<number> {
      const defaultPlanId = await getService(strapi, 'plans').defaultPlanId();
      const due = (await strapi.db
        .connection(table())
        .where({ status: 'past_due' })
        .andWhere('grace_until', '<=', now)
        .andWhereNot({ effective_plan_id: defaultPlanId })) as SubscriptionRow[];
      let moved = 0;
      for (const row of due) {
        const announcements: BillingAnnouncement[] = [];
        await strapi.db.transaction(async ({ trx, onCommit }) => {
          const claimed = await trx(table())
            .where({ id: row.id, effective_plan_id: row.effective_plan_id, status: 'past_due' })
            .update({ effective_plan_id: defaultPlanId, updated_at: now });
          if (claimed !== 1) return;
          moved += 1;
          announcements.push({
            userId: row.user_id,
            type: 'billing.subscription.updated',
            payload: subscriptionPayload({ ...row, effective_plan_id: defaultPlanId }),
          });
          onCommit(() => afterCommit(row.user_id, announcements));
        });
        strapi.log.info(
          `[api-suite] billing: ${row.stripe_subscription_id} is past due beyond its grace period; ${row.consumer_id} is back on their granted or the default plan`
        );
      }
      return moved;
    },

    /**
     * A yearly subscription with its plan's monthly overage price added. Checkout sells the yearly
     * flat price alone (the recurring prices of one Checkout Session share their interval), and the
     * Subscriptions API then adds the monthly metered item, which a subscription in flexible billing
     * mode may hold beside a yearly one (docs/billing.md#yearly-prices). Monthly subscriptions, plans
     * without overage and subscriptions that already have the item are returned as they are. The
     * idempotency key names the subscription and the price, so every instance and every event of
     * the same subscription adds it once. A refusal is logged and the subscription applied without
     * the item; the next event of that subscription tries again.
     */
    async withOverage(subscription: Stripe.Subscription): Promise<Stripe.Subscription> {
      if (!isLive(statusOf(subscription.status)) || intervalOf(subscription) !== 'year') return subscription;
      if (subscription.items.data.some(isMeteredItem)) return subscription;
      const planId = await planOf(strapi.db.connection, subscription);
      if (planId === null) return subscription;
      const prices = await getService(strapi, 'billing-catalog').pricesOf(planId);
      if (!prices?.metered) return subscription;
      try {
        return await getService(strapi, 'stripe')
          .client()
          .subscriptions.update(
            subscription.id,
            { items: [{ price: prices.metered }], proration_behavior: 'none' },
            { idempotencyKey: `api-suite-overage-item-${subscription.id}-${prices.metered}` }
          );
      } catch (error) {
        strapi.log.warn(
          `[api-suite] billing: the overage price of plan ${planId} not added to the yearly subscription ${subscription.id} yet: ${(error as Error).message}`
        );
        return subscription;
      }
    },

    /** Publish billing events to the consumer's own subscriptions and the administrators'. */
    async announce(announcements: BillingAnnouncement[]): Promise<void> {
      for (const { userId, type, payload } of announcements) {
        try {
          const consumerIds = await getService(strapi, 'orders').audienceOf(userId);
          // Built by subscriptionPayload (typed), with the invoice's fields added for payment_failed; the tests' receivers hold every delivery to its schema.
          await getService(strapi, 'webhooks').publishMany([{ type, payload } as PublishableEvent], { consumerIds });
        } catch (error) {
          strapi.log.error(`[api-suite] billing: ${type} not published: ${(error as Error).message}`);
        }
      }
    },
  };
  return service;
};

function changed(before: SubscriptionRow, after: SubscriptionRow): boolean {
  return (
    before.plan_id !== after.plan_id ||
    before.effective_plan_id !== after.effective_plan_id ||
    before.status !== after.status ||
    toBool(before.cancel_at_period_end) !== toBool(after.cancel_at_period_end) ||
    toIso(before.current_period_end) !== toIso(after.current_period_end) ||
    toIso(before.trial_end) !== toIso(after.trial_end)
  );
}

export type BillingSubscriptionsService = ReturnType<typeof billingSubscriptionsService>;
export default billingSubscriptionsService;
