import type { Core } from '@strapi/strapi';
import Stripe from 'stripe';
import { UIDS } from '../../../constants';
import { tableOf } from '../../../db';
import { getConfig, getService } from '../../../utils';
import { yearlyPriceOf, type PlanRow } from '../../access/services/plans';
import { toMinorUnits } from '../../../stripe';

/** A plan's prices in Stripe: flat monthly, flat yearly, and the metered overage (monthly). */
export type PriceKind = 'flat' | 'flat-yearly' | 'metered';

/** The `lookup_key` of one of a plan's prices: `api-suite:<plan id>:flat`, `…:flat-yearly` or `…:metered`. */
export const lookupKeyOf = (planId: number, kind: PriceKind) => `api-suite:${planId}:${kind}`;

/** `api-suite:<plan id>:<kind>` → the plan id, or null for any other key. */
export function planIdOfLookupKey(key: string | null | undefined): number | null {
  const match = /^api-suite:(\d+):(flat|flat-yearly|metered)$/.exec(key ?? '');
  return match ? Number(match[1]) : null;
}

/** A plan is sold through Stripe when it costs something a month. */
export const isSellable = (plan: Pick<PlanRow, 'price_monthly'>) => Number(plan.price_monthly) > 0;

/** What a consumer pays for a plan: its flat price of the interval bought and, with overage, its metered price (always monthly). */
export interface PlanPrices {
  flat: string;
  /** Null when the plan has no yearly price. */
  yearly: string | null;
  metered: string | null;
}

export interface CatalogStatus {
  /** STRIPE_SECRET_KEY is set. */
  configured: boolean;
  /** The meter and every sellable plan's products and prices exist in Stripe. */
  ready: boolean;
  /** Why billing is not ready, as logged. */
  reason: string | null;
}

const RETRY_MAX_MS = 60_000;

/**
 * Plans as Stripe sees them: one Billing Meter for overage, and for each sellable plan a Product,
 * a flat monthly Price, with a yearly price a flat yearly Price, and with overage a monthly metered
 * Price on that meter. Everything is found by `lookup_key` (`api-suite:<plan id>:flat|flat-yearly|metered`)
 * before anything is created, and creations carry
 * idempotency keys, so running it again, on every instance, at every boot, makes nothing twice.
 * Stripe prices cannot change their amount: a new amount is a new price that takes the lookup key
 * over (`transfer_lookup_key`), and the old one is archived.
 *
 * It runs at boot in the background and again on every plan change. Stripe being unreachable or
 * refusing never stops the app: the failure is logged, billing's routes answer 503
 * `billing_not_configured` meanwhile, and it retries with a growing delay (at most a minute).
 */
const billingCatalogService = ({ strapi }: { strapi: Core.Strapi }) => {
  const settings = () => getConfig(strapi);
  const stripe = () => getService(strapi, 'stripe').client();
  const plansTable = () => tableOf(strapi, UIDS.plan);

  let ready = false;
  let reason: string | null = 'Stripe products and prices are not provisioned yet';
  let meterId: string | null = null;
  let running: Promise<void> | null = null;
  let rerun = false;
  let retryTimer: NodeJS.Timeout | null = null;
  let failures = 0;
  let stopped = false;

  const ensureMeter = async (): Promise<string> => {
    const eventName = settings().billing.meterEventName;
    const meters = await stripe().billing.meters.list({ status: 'active', limit: 100 });
    const found = meters.data.find((meter) => meter.event_name === eventName);
    if (found) return found.id;
    const created = await stripe().billing.meters.create(
      {
        display_name: `API requests (${eventName})`,
        event_name: eventName,
        default_aggregation: { formula: 'sum' },
        customer_mapping: { event_payload_key: 'stripe_customer_id', type: 'by_id' },
        value_settings: { event_payload_key: 'value' },
      },
      { idempotencyKey: `api-suite-meter-${eventName}` }
    );
    strapi.log.info(`[api-suite] billing: created the Stripe meter ${created.id} (${eventName})`);
    return created.id;
  };

  const productOf = (price: Stripe.Price | undefined): string | null =>
    price ? (typeof price.product === 'string' ? price.product : price.product.id) : null;

  /** The price to use for `kind`: the existing one when it still says what the plan says, else a new one that takes the lookup key. */
  const ensurePrice = async (
    plan: PlanRow,
    kind: PriceKind,
    existing: Stripe.Price | undefined,
    wanted: Omit<Stripe.PriceCreateParams, 'lookup_key' | 'transfer_lookup_key'>,
    matches: (price: Stripe.Price) => boolean
  ): Promise<string> => {
    if (existing && matches(existing)) return existing.id;
    const created = await stripe().prices.create(
      { ...wanted, lookup_key: lookupKeyOf(plan.id, kind), transfer_lookup_key: true, metadata: { plan_id: String(plan.id), kind } },
      // The old price's id is part of the key: going back to an earlier amount makes a new price, not the archived one.
      {
        idempotencyKey: `api-suite-price-${plan.id}-${kind}-${existing?.id ?? 'none'}-${wanted.currency}-${wanted.unit_amount ?? wanted.unit_amount_decimal}`,
      }
    );
    if (existing) await stripe().prices.update(existing.id, { active: false });
    strapi.log.info(`[api-suite] billing: plan ${plan.id} (${plan.name}) has the ${kind} price ${created.id}`);
    return created.id;
  };

  const ensurePlan = async (plan: PlanRow, meter: string): Promise<void> => {
    if (!isSellable(plan)) return;
    const currency = plan.currency || settings().commerce.currency;
    const kinds: PriceKind[] = ['flat', 'flat-yearly', 'metered'];
    const listed = await stripe().prices.list({ lookup_keys: kinds.map((kind) => lookupKeyOf(plan.id, kind)), active: true, limit: 10 });
    const [flat, yearly, metered] = kinds.map((kind) => listed.data.find((price) => price.lookup_key === lookupKeyOf(plan.id, kind)));

    let productId = productOf(flat) ?? productOf(yearly) ?? productOf(metered) ?? plan.stripe_product_id ?? null;
    if (!productId) {
      const product = await stripe().products.create(
        { name: plan.name, metadata: { plan_id: String(plan.id) } },
        { idempotencyKey: `api-suite-product-${plan.id}` }
      );
      productId = product.id;
    }

    // Flat (licensed) prices on the one Product: monthly always, and yearly when the plan has a yearly price.
    const product = productId;
    const flatPrice = (kind: 'flat' | 'flat-yearly', existing: Stripe.Price | undefined, amount: number, interval: 'month' | 'year') =>
      ensurePrice(
        plan,
        kind,
        existing,
        {
          currency,
          unit_amount: amount,
          product,
          nickname: `${plan.name} ${interval === 'month' ? 'monthly' : 'yearly'}`,
          recurring: { interval, usage_type: 'licensed' },
        },
        (price) => price.unit_amount === amount && price.currency === currency && price.recurring?.interval === interval
      );
    const flatId = await flatPrice('flat', flat, toMinorUnits(Number(plan.price_monthly)), 'month');

    // Without a yearly price any earlier one is archived.
    const yearlyPrice = yearlyPriceOf(plan);
    let yearlyId: string | null = null;
    if (yearlyPrice !== null) {
      yearlyId = await flatPrice('flat-yearly', yearly, toMinorUnits(yearlyPrice), 'year');
    } else if (yearly) {
      await stripe().prices.update(yearly.id, { active: false });
    }

    let meteredId: string | null = null;
    if (plan.overage_unit_amount !== null && plan.overage_unit_amount !== undefined) {
      // Per request: the plan's price is per 1,000 requests, and the meter counts requests.
      const perRequest = String(plan.overage_unit_amount / 1000);
      meteredId = await ensurePrice(
        plan,
        'metered',
        metered,
        {
          currency,
          unit_amount_decimal: Stripe.Decimal.from(perRequest),
          product: productId,
          nickname: `${plan.name} overage`,
          recurring: { interval: 'month', usage_type: 'metered', meter },
        },
        (price) =>
          Number(String(price.unit_amount_decimal)) === Number(perRequest) &&
          price.currency === currency &&
          price.recurring?.meter === meter
      );
    } else if (metered) {
      await stripe().prices.update(metered.id, { active: false });
    }

    await strapi.db.connection(plansTable()).where({ id: plan.id }).update({
      stripe_product_id: productId,
      stripe_price_id: flatId,
      stripe_yearly_price_id: yearlyId,
      stripe_metered_price_id: meteredId,
    });
  };

  const provisionAll = async (): Promise<void> => {
    meterId = await ensureMeter();
    const plans = (await strapi.db.connection(plansTable()).select('*').orderBy('id')) as PlanRow[];
    for (const plan of plans) await ensurePlan(plan, meterId);
  };

  const schedule = (): void => {
    if (stopped || retryTimer) return;
    const delay = Math.min(RETRY_MAX_MS, 1000 * 2 ** Math.min(failures - 1, 6));
    retryTimer = setTimeout(() => {
      retryTimer = null;
      void service.sync();
    }, delay);
    retryTimer.unref();
  };

  const service = {
    status(): CatalogStatus {
      const configured = getService(strapi, 'stripe').configured();
      if (!configured) return { configured, ready: false, reason: 'STRIPE_SECRET_KEY is not set' };
      return { configured, ready, reason: ready ? null : reason };
    },

    meterId(): string | null {
      return meterId;
    },

    /**
     * Provision every plan now, or once more after the run in progress (a plan edited while it
     * runs is not missed). Never throws: a failure is logged and retried later.
     */
    sync(): Promise<void> {
      if (!getService(strapi, 'stripe').configured() || stopped) return Promise.resolve();
      if (running) {
        rerun = true;
        return running;
      }
      running = (async () => {
        try {
          do {
            rerun = false;
            await provisionAll();
          } while (rerun);
          if (!ready || failures > 0) strapi.log.info('[api-suite] billing: Stripe products, prices and meter are in place');
          ready = true;
          reason = null;
          failures = 0;
        } catch (error) {
          failures += 1;
          ready = false;
          reason = `Stripe provisioning failed: ${(error as Error).message}`;
          strapi.log.warn(`[api-suite] billing: ${reason}; billing routes answer 503 until it succeeds (retry ${failures})`);
          schedule();
        } finally {
          running = null;
        }
      })();
      return running;
    },

    /** The plan's Stripe ids, provisioning it first when they are missing (a plan created a moment ago). */
    async pricesOf(planId: number): Promise<PlanPrices | null> {
      const read = async () => (await strapi.db.connection(plansTable()).where({ id: planId }).first()) as PlanRow | undefined;
      let plan = await read();
      if (!plan || !isSellable(plan)) return null;
      const missing = (row: PlanRow) =>
        !row.stripe_price_id ||
        (row.overage_unit_amount != null && !row.stripe_metered_price_id) ||
        (yearlyPriceOf(row) !== null && !row.stripe_yearly_price_id);
      if (missing(plan)) {
        await ensurePlan(plan, meterId ?? (meterId = await ensureMeter()));
        plan = await read();
      }
      return plan?.stripe_price_id
        ? {
            flat: plan.stripe_price_id,
            yearly: yearlyPriceOf(plan) === null ? null : (plan.stripe_yearly_price_id ?? null),
            metered: plan.stripe_metered_price_id ?? null,
          }
        : null;
    },

    stop(): void {
      stopped = true;
      if (retryTimer) clearTimeout(retryTimer);
      retryTimer = null;
    },
  };
  return service;
};

export type BillingCatalogService = ReturnType<typeof billingCatalogService>;
export default billingCatalogService;
