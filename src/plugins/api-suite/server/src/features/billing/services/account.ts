import type { Core } from '@strapi/strapi';
import { trialEmailDigest } from '../trial-email';
import type Stripe from 'stripe';
import { UIDS } from '../../../constants';
import { tableOf, toBool, toIso } from '../../../db';
import { getConfig, getService } from '../../../utils';
import { trialDaysOf, yearlyPriceOf, type PlanRow } from '../../access/services/plans';
import type { BillingPlan, BillingSubscription } from '../validation/responses';
import { isSellable, type PlanPrices } from './catalog';
import { isLive, type BillingInterval, type SubscriptionRow } from './subscriptions';
import {
  AlreadySubscribedError,
  BillingNotConfiguredError,
  IntervalNotOfferedError,
  InvalidPlanError,
  NoCustomerError,
  NoSubscriptionError,
} from '../errors';

/** Who is buying: the consumer behind the request. */
export interface Buyer {
  userId: number;
  consumerId: string;
}

/**
 * What a consumer does with their own billing (docs/billing.md#routes): the price list, buying a
 * plan through Checkout, changing plan, the Stripe Billing Portal, and reading their subscription.
 * One Stripe Customer per consumer, made on first need: concurrent first requests on one instance
 * share one creation, on several instances Stripe's idempotency key gives them the same customer,
 * and the unique consumer id in our table keeps one row.
 */
const billingAccountService = ({ strapi }: { strapi: Core.Strapi }) => {
  const stripe = () => getService(strapi, 'stripe').client();
  const customersTable = () => tableOf(strapi, UIDS.billingCustomer);
  const plansTable = () => tableOf(strapi, UIDS.plan);
  const creating = new Map<string, Promise<string>>();

  const returnUrl = (): string => {
    const configured = getConfig(strapi).billing.returnUrl;
    if (configured) return configured;
    const server = String(strapi.config.get('server.absoluteUrl') ?? '').replace(/\/+$/, '');
    return `${server}${getConfig(strapi).portal.path}`;
  };
  const withQuery = (url: string, query: string) => `${url}${url.includes('?') ? '&' : '?'}${query}`;

  const planRow = async (planId: number) => (await strapi.db.connection(plansTable()).where({ id: planId }).first()) as PlanRow | undefined;

  /** A plan the consumer may buy: it exists, is not the default, and costs something. */
  const sellablePlan = async (planId: number): Promise<PlanRow> => {
    const plan = await planRow(planId);
    if (!plan) throw new InvalidPlanError(planId);
    if (plan.is_default) throw new InvalidPlanError(planId, 'is the default plan, which every consumer has without buying it');
    if (!isSellable(plan)) throw new InvalidPlanError(planId, 'is not for sale (it has no monthly price)');
    return plan;
  };

  /** A yearly purchase needs a yearly price: refused with the plan's id and what it offers. */
  const assertOffered = (plan: PlanRow, interval: BillingInterval) => {
    if (interval === 'year' && yearlyPriceOf(plan) === null) throw new IntervalNotOfferedError(plan.id);
  };

  const pricesOf = async (planId: number) => {
    const prices = await getService(strapi, 'billing-catalog').pricesOf(planId);
    if (!prices) throw new BillingNotConfiguredError('The plan is not provisioned in Stripe yet');
    return prices;
  };

  /** The flat price of the interval bought; a yearly price not provisioned yet is Stripe not being ready. */
  const flatPriceOf = (prices: PlanPrices, interval: BillingInterval): string => {
    if (interval === 'month') return prices.flat;
    if (!prices.yearly) throw new BillingNotConfiguredError("The plan's yearly price is not provisioned in Stripe yet");
    return prices.yearly;
  };

  /**
   * A consumer's trial is once: only on their first purchase. Before it they have no subscription
   * row (the plugin writes one when Stripe reports their first subscription, and keeps it) and no
   * trial recorded on their customer (written when Stripe reports a subscription with a trial).
   * And once per e-mail address: no customer record, a closed account's included, holds a trial
   * given to the same address (trial-email.ts).
   */
  const trialAvailable = async (buyer: Buyer): Promise<boolean> => {
    const user = (await strapi.db.connection(tableOf(strapi, UIDS.user)).where({ id: buyer.userId }).first('email')) as
      { email: string | null } | undefined;
    const [subscribed, customer, sameAddress] = await Promise.all([
      strapi.db.connection(tableOf(strapi, UIDS.billingSubscription)).where({ consumer_id: buyer.consumerId }).first('id'),
      strapi.db.connection(customersTable()).where({ consumer_id: buyer.consumerId }).first('trial_started_at') as Promise<
        { trial_started_at: unknown } | undefined
      >,
      user?.email
        ? strapi.db
            .connection(customersTable())
            .where({ trial_email_digest: trialEmailDigest(strapi, user.email) })
            .whereNotNull('trial_started_at')
            .first('id')
        : undefined,
    ]);
    return subscribed === undefined && !customer?.trial_started_at && sameAddress === undefined;
  };

  /**
   * A consumer has one open Checkout Session at most: the newest. Two open at once could both be
   * paid (two subscriptions, billed twice) and could both carry the consumer's one trial. Each
   * checkout, once its session is made, expires the customer's other open plan sessions (those
   * this plugin opened for the consumer: subscription mode, their `consumer_id`), keeping the newest
   * by the millisecond it was opened (`metadata.opened_at`; Stripe's `created` counts seconds),
   * then by id. So two checkouts at once agree on which to keep, and one of their answers names an
   * expired session, whose page says so; paying it is refused by Stripe. Stripe failing here leaves
   * the older sessions open (as before this rule) and is logged, not answered.
   */
  const closeOtherSessions = async (customer: string, consumerId: string, kept: Stripe.Checkout.Session): Promise<void> => {
    try {
      const open: Stripe.Checkout.Session[] = [];
      for await (const session of stripe().checkout.sessions.list({ customer, status: 'open', limit: 100 })) {
        // Only the plan checkouts this plugin opened for this consumer: never a session another integration made.
        if (session.mode === 'subscription' && session.metadata?.consumer_id === consumerId) open.push(session);
      }
      if (!open.some((session) => session.id === kept.id)) open.push(kept);
      const openedAt = (session: Stripe.Checkout.Session) => Number(session.metadata?.opened_at ?? session.created * 1000) || 0;
      const newest = open.reduce((a, b) => (openedAt(b) > openedAt(a) || (openedAt(b) === openedAt(a) && b.id > a.id) ? b : a));
      for (const session of open) {
        if (session.id === newest.id) continue;
        await stripe()
          .checkout.sessions.expire(session.id)
          .catch((error: Stripe.errors.StripeError) => {
            // Paid or expired meanwhile: nothing left to close.
            if (error.type !== 'StripeInvalidRequestError') throw error;
          });
      }
    } catch (error) {
      strapi.log.warn(`[api-suite] billing: older Checkout Sessions of ${customer} not expired: ${(error as Error).message}`);
    }
  };

  const createCustomer = async (buyer: Buyer): Promise<string> => {
    const user = (await strapi.db.query(UIDS.user).findOne({ where: { id: buyer.userId }, select: ['email', 'username'] })) as {
      email?: string;
      username?: string;
    } | null;
    const customer = await stripe().customers.create(
      { email: user?.email, name: user?.username, metadata: { consumer_id: buyer.consumerId } },
      { idempotencyKey: `api-suite-customer-${buyer.consumerId}` }
    );
    await strapi.db
      .connection(customersTable())
      .insert({ consumer_id: buyer.consumerId, user_id: buyer.userId, stripe_customer_id: customer.id, created_at: new Date() })
      .onConflict('consumer_id')
      .ignore();
    const row = (await strapi.db.connection(customersTable()).where({ consumer_id: buyer.consumerId }).first('stripe_customer_id')) as {
      stripe_customer_id: string;
    };
    return row.stripe_customer_id;
  };

  const service = {
    async customerOf(consumerId: string): Promise<string | null> {
      const row = (await strapi.db.connection(customersTable()).where({ consumer_id: consumerId }).first('stripe_customer_id')) as
        { stripe_customer_id: string } | undefined;
      return row?.stripe_customer_id ?? null;
    },

    /** The consumer's Stripe Customer, created on first need, once. */
    async ensureCustomer(buyer: Buyer): Promise<string> {
      const known = await service.customerOf(buyer.consumerId);
      if (known) return known;
      let pending = creating.get(buyer.consumerId);
      if (!pending) {
        pending = createCustomer(buyer).finally(() => creating.delete(buyer.consumerId));
        creating.set(buyer.consumerId, pending);
      }
      return pending;
    },

    /** Sellable plans and the default plan, cheapest first. */
    async plans(): Promise<BillingPlan[]> {
      const shop = getConfig(strapi).commerce.currency;
      const plans = getService(strapi, 'plans');
      return (await plans.rows())
        .filter((row) => toBool(row.is_default) || isSellable(row))
        .map((row) => {
          const plan = plans.resolved(row);
          return {
            id: plan.id,
            name: plan.name,
            price_monthly: plan.price_monthly,
            currency: row.currency || shop,
            requests_per_month: plan.requests_per_month,
            requests_per_minute: plan.requests_per_minute,
            overage_unit_amount: row.overage_unit_amount ?? null,
            price_yearly: yearlyPriceOf(row),
            trial_days: trialDaysOf(row),
            endpoints: plan.endpoints,
          };
        });
    },

    /**
     * A Checkout Session in subscription mode for the plan, billed monthly or yearly, that accepts
     * promotion codes, with the plan's trial on the consumer's first purchase (docs/billing.md#checkout).
     */
    async checkout(buyer: Buyer, planId: number, interval: BillingInterval = 'month'): Promise<{ session_id: string; url: string }> {
      const plan = await sellablePlan(planId);
      assertOffered(plan, interval);
      const current = await getService(strapi, 'billing-subscriptions').find(buyer.consumerId);
      if (current && isLive(current.status)) {
        throw new AlreadySubscribedError();
      }
      const prices = await pricesOf(plan.id);
      const flat = flatPriceOf(prices, interval);
      const trialDays = trialDaysOf(plan) > 0 && (await trialAvailable(buyer)) ? trialDaysOf(plan) : 0;
      const customer = await service.ensureCustomer(buyer);
      const metadata = { plan_id: String(plan.id), consumer_id: buyer.consumerId, interval };
      const url = returnUrl();
      const session = await stripe().checkout.sessions.create({
        mode: 'subscription',
        customer,
        client_reference_id: buyer.consumerId,
        metadata: { ...metadata, opened_at: String(Date.now()) },
        subscription_data: {
          metadata,
          // Flexible billing lets a yearly subscription take the monthly metered item afterwards (`withOverage`).
          billing_mode: { type: 'flexible' },
          ...(trialDays > 0 ? { trial_period_days: trialDays } : {}),
        },
        allow_promotion_codes: true,
        // The recurring prices of one session share their interval: monthly, the flat and the metered price
        // (no quantity: Stripe bills what the meter reports); yearly, the yearly flat price alone.
        line_items: [{ price: flat, quantity: 1 }, ...(interval === 'month' && prices.metered ? [{ price: prices.metered }] : [])],
        success_url: withQuery(url, 'checkout=success&session_id={CHECKOUT_SESSION_ID}'),
        cancel_url: withQuery(url, 'checkout=cancelled'),
      });
      if (!session.url) throw new Error(`Stripe answered session ${session.id} without a URL`);
      await closeOtherSessions(customer, buyer.consumerId, session);
      return { session_id: session.id, url: session.url };
    },

    /**
     * Move the subscription to another plan: its items take the new plan's prices of the same
     * interval, prorated (a yearly subscription needs a plan with a yearly price). To the default
     * plan: cancelled at the end of the period (the consumer keeps what they paid for).
     */
    async changePlan(buyer: Buyer, planId: number): Promise<BillingSubscription> {
      const current = await getService(strapi, 'billing-subscriptions').find(buyer.consumerId);
      if (!current || !isLive(current.status)) throw new NoSubscriptionError();
      const target = await planRow(planId);
      if (!target) throw new InvalidPlanError(planId);

      let updated: Stripe.Subscription;
      if (toBool(target.is_default)) {
        updated = await stripe().subscriptions.update(current.stripe_subscription_id, { cancel_at_period_end: true });
      } else {
        const interval: BillingInterval = current.billing_interval === 'year' ? 'year' : 'month';
        assertOffered(await sellablePlan(planId), interval);
        const prices = await pricesOf(planId);
        const flat = flatPriceOf(prices, interval);
        const subscription = await stripe().subscriptions.retrieve(current.stripe_subscription_id);
        const flatItem = subscription.items.data.find((item) => item.price.recurring?.usage_type !== 'metered');
        const meteredItem = subscription.items.data.find((item) => item.price.recurring?.usage_type === 'metered');
        const items: Stripe.SubscriptionUpdateParams.Item[] = [
          flatItem ? { id: flatItem.id, price: flat, quantity: 1 } : { price: flat, quantity: 1 },
        ];
        if (meteredItem && prices.metered) items.push({ id: meteredItem.id, price: prices.metered });
        else if (meteredItem) items.push({ id: meteredItem.id, deleted: true });
        else if (prices.metered) items.push({ price: prices.metered });
        updated = await stripe().subscriptions.update(current.stripe_subscription_id, {
          items,
          proration_behavior: 'create_prorations',
          cancel_at_period_end: false,
          metadata: { plan_id: String(planId), consumer_id: buyer.consumerId, interval },
        });
      }
      await getService(strapi, 'billing-subscriptions').apply(updated);
      return service.subscription(buyer);
    },

    /** A Stripe Billing Portal session: cards, invoices, cancellation. */
    async portal(buyer: Buyer): Promise<{ url: string }> {
      const customer = await service.customerOf(buyer.consumerId);
      if (!customer) throw new NoCustomerError();
      const session = await stripe().billingPortal.sessions.create({ customer, return_url: returnUrl() });
      return { url: session.url };
    },

    /** The consumer's subscription, with the plan they are on now (without one: status `none`, a granted or the default plan). */
    async subscription(buyer: Buyer): Promise<BillingSubscription> {
      const row: SubscriptionRow | null = await getService(strapi, 'billing-subscriptions').find(buyer.consumerId);
      const planId = (await getService(strapi, 'consumer-plans').of(buyer.userId)).rule.id;
      const plan = await planRow(planId);
      const overage = await getService(strapi, 'billing-metering').overageOf(buyer.consumerId, row);
      return {
        plan_id: planId,
        status: row?.status ?? 'none',
        interval: row?.billing_interval ?? null,
        current_period_end: row ? toIso(row.current_period_end) : null,
        cancel_at_period_end: row ? toBool(row.cancel_at_period_end) : false,
        grace_until: row ? toIso(row.grace_until) : null,
        trial_end: row?.status === 'trialing' ? toIso(row.trial_end) : null,
        overage: { unit_amount: plan?.overage_unit_amount ?? null, ...overage },
      };
    },
  };
  return service;
};

export type BillingAccountService = ReturnType<typeof billingAccountService>;
export default billingAccountService;
