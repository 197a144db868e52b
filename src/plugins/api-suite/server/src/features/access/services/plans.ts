import type { Core } from '@strapi/strapi';
import { configuredApiPath, DEFAULT_PREFIX, restPrefix, sitePathOf } from '../../../http/site-paths';
import { UIDS } from '../../../constants';
import { resolveEndpoints, type EndpointGroups } from '../endpoints';
import { endpointGroupsOf } from '../content-api/groups';
import type { AdminPlan, Plan } from '../validation/responses';
import { planHoldings } from '../plan-holdings';

const NOTHING_HELD = { keys: 0, consumers: 0 };

/** The three tiers every site starts with (docs/access.md#keys-and-plans); editors change them in the admin panel. */
export const DEFAULT_PLANS = [
  { name: 'free', requests_per_month: 1_000, requests_per_minute: 10, endpoints: ['@public'], price_monthly: 0, is_default: true },
  {
    name: 'pro',
    requests_per_month: 100_000,
    requests_per_minute: 100,
    endpoints: ['@public', '@private'],
    price_monthly: 49,
    is_default: false,
  },
  { name: 'enterprise', requests_per_month: -1, requests_per_minute: 1_000, endpoints: ['* *'], price_monthly: 499, is_default: false },
];

/** A plan as `GET /api/v1/plans` answers it: the response schema's type. */
export type PublicPlan = Plan;

const plansService = ({ strapi }: { strapi: Core.Strapi }) => ({
  /** First boot: create the three tiers when no plan exists at all. */
  async ensureDefaults(): Promise<void> {
    if ((await strapi.db.query(UIDS.plan).count({})) > 0) return;
    for (const plan of DEFAULT_PLANS) await strapi.db.query(UIDS.plan).create({ data: plan });
    strapi.log.info('[api-suite] created the plans free, pro and enterprise');
  },

  /** The plan new keys of non-administrators get: the one marked default, else the cheapest. */
  async defaultPlanId(): Promise<number> {
    const marked = await strapi.db.query(UIDS.plan).findOne({ where: { is_default: true }, select: ['id'], orderBy: { id: 'asc' } });
    if (marked) return marked.id;
    const cheapest = await strapi.db.query(UIDS.plan).findOne({ select: ['id'], orderBy: [{ price_monthly: 'asc' }, { id: 'asc' }] });
    if (!cheapest) throw new Error('no API plan exists; create one in the admin panel');
    return cheapest.id;
  },

  async exists(id: number): Promise<boolean> {
    return (await strapi.db.query(UIDS.plan).count({ where: { id } })) > 0;
  },

  async list(): Promise<PublicPlan[]> {
    return (await this.rows()).map(this.resolved);
  },

  /** Every plan as stored, cheapest first. */
  async rows(): Promise<PlanRow[]> {
    return (await strapi.db.query(UIDS.plan).findMany({ orderBy: [{ price_monthly: 'asc' }, { id: 'asc' }] })) as PlanRow[];
  },

  /**
   * A stored plan as the API shows it: `@public`, `@private` and `@content` resolved to their
   * patterns, each path as the site serves it (under its REST prefix, http/site-paths.ts).
   */
  resolved(row: PlanRow): PublicPlan {
    const prefix = restPrefix(strapi);
    const resolved = resolveEndpoints(row.endpoints, endpointGroupsOf(strapi));
    if (prefix === DEFAULT_PREFIX) return { ...toPublic(row), endpoints: resolved };
    const endpoints = resolved.map((pattern) =>
      pattern.replace(
        /^(\S+\s+)(\/\S*)$/,
        (_, method: string, path: string) => `${method}${sitePathOf(prefix, configuredApiPath(prefix, path))}`
      )
    );
    return { ...toPublic(row), endpoints: [...new Set(endpoints)] };
  },

  /** What a plan's group entries stand for. */
  endpointGroups(): EndpointGroups {
    return endpointGroupsOf(strapi);
  },

  /**
   * Plans as stored, for editing: `endpoints` keeps the `@public`/`@private` group names an editor
   * wrote (the API shows them resolved), plus `is_default` and how many keys use each plan.
   */
  async listStored(): Promise<StoredPlan[]> {
    const [rows, holdings] = await Promise.all([
      strapi.db.query(UIDS.plan).findMany({ orderBy: [{ price_monthly: 'asc' }, { id: 'asc' }] }) as Promise<PlanRow[]>,
      planHoldings(strapi),
    ]);
    return rows.map((row) => ({ ...toStored(row), ...(holdings.get(row.id) ?? NOTHING_HELD) }));
  },

  /** A plan as stored, with what it holds now (`plan-holdings.ts`). */
  async get(id: number): Promise<StoredPlan | null> {
    const row = (await strapi.db.query(UIDS.plan).findOne({ where: { id } })) as PlanRow | null;
    return row ? { ...toStored(row), ...((await planHoldings(strapi)).get(id) ?? NOTHING_HELD) } : null;
  },

  /**
   * A yearly price is a second way to buy a plan sold monthly: a plan whose monthly price is 0
   * (free, or not for sale) has none. The problem with a plan's prices as `change` would leave
   * them (`id`: the stored plan it changes), or null. Checked by the admin panel's routes and, for
   * the Content Manager's edits, by the plan's lifecycle.
   */
  async yearlyPriceProblem(
    change: { price_monthly?: number | string | null; price_yearly?: number | string | null },
    id?: number
  ): Promise<string | null> {
    if (change.price_monthly === undefined && (change.price_yearly === undefined || change.price_yearly === null)) return null;
    const stored =
      id === undefined
        ? null
        : ((await strapi.db.query(UIDS.plan).findOne({ where: { id }, select: ['price_monthly', 'price_yearly'] })) as Pick<
            PlanRow,
            'price_monthly' | 'price_yearly'
          > | null);
    const yearly = change.price_yearly !== undefined ? change.price_yearly : (stored?.price_yearly ?? null);
    const monthly = Number(change.price_monthly ?? stored?.price_monthly ?? 0);
    if (yearly !== null && yearly !== '' && !(monthly > 0)) {
      return 'needs a monthly price above 0 (a plan is sold yearly as well as monthly, not instead)';
    }
    return null;
  },

  async findByName(name: string): Promise<{ id: number } | null> {
    return (await strapi.db.query(UIDS.plan).findOne({ where: { name }, select: ['id'] })) as { id: number } | null;
  },

  /**
   * Create a plan. Written through the query engine so the plan lifecycles run (keys cached with
   * an edited plan are dropped on every instance); marking it default unmarks the others.
   */
  async create(input: PlanInput): Promise<StoredPlan> {
    const row = (await strapi.db.transaction(async () => {
      if (input.is_default) await strapi.db.query(UIDS.plan).updateMany({ where: { is_default: true }, data: { is_default: false } });
      return strapi.db.query(UIDS.plan).create({ data: { ...input, is_default: input.is_default ?? false } });
    })) as PlanRow;
    return this.get(row.id) as Promise<StoredPlan>;
  },

  async update(id: number, patch: Partial<PlanInput>): Promise<StoredPlan | null> {
    const updated = (await strapi.db.transaction(async () => {
      if (patch.is_default)
        await strapi.db.query(UIDS.plan).updateMany({ where: { is_default: true, id: { $ne: id } }, data: { is_default: false } });
      return strapi.db.query(UIDS.plan).update({ where: { id }, data: patch });
    })) as PlanRow | null;
    return updated ? this.get(id) : null;
  },
});

export interface PlanRow {
  id: number;
  name: string;
  requests_per_month: number;
  requests_per_minute: number;
  endpoints: unknown;
  price_monthly: number | string;
  is_default?: boolean | null;
  currency?: string | null;
  overage_unit_amount?: number | null;
  price_yearly?: number | string | null;
  trial_days?: number | null;
  stripe_product_id?: string | null;
  stripe_price_id?: string | null;
  stripe_metered_price_id?: string | null;
  stripe_yearly_price_id?: string | null;
}

export interface PlanInput {
  name: string;
  requests_per_month: number;
  requests_per_minute: number;
  endpoints: string[];
  price_monthly: number;
  is_default?: boolean;
  currency?: string | null;
  overage_unit_amount?: number | null;
  price_yearly?: number | null;
  trial_days?: number;
}

/** A plan as the admin routes answer it: the admin response schema's type. */
export type StoredPlan = AdminPlan;

export function toPublic(row: PlanRow): PublicPlan {
  const endpoints = Array.isArray(row.endpoints) ? row.endpoints.filter((entry): entry is string => typeof entry === 'string') : [];
  return {
    id: row.id,
    name: row.name,
    requests_per_month: row.requests_per_month,
    requests_per_minute: row.requests_per_minute,
    endpoints,
    price_monthly: Number(row.price_monthly),
  };
}

function toStored(row: PlanRow): Omit<StoredPlan, 'keys' | 'consumers'> {
  return {
    ...toPublic(row),
    is_default: Boolean(row.is_default),
    currency: row.currency || null,
    overage_unit_amount: row.overage_unit_amount ?? null,
    price_yearly: yearlyPriceOf(row),
    trial_days: trialDaysOf(row),
    stripe_product_id: row.stripe_product_id || null,
    stripe_price_id: row.stripe_price_id || null,
    stripe_metered_price_id: row.stripe_metered_price_id || null,
    stripe_yearly_price_id: row.stripe_yearly_price_id || null,
  };
}

/** The plan's yearly price, or null when it is sold monthly only (empty, or 0 written in the Content Manager). */
export function yearlyPriceOf(row: Pick<PlanRow, 'price_yearly'>): number | null {
  const value = row.price_yearly === null || row.price_yearly === undefined ? NaN : Number(row.price_yearly);
  return Number.isFinite(value) && value > 0 ? value : null;
}

/** The plan's free days on a first purchase (0: none). */
export function trialDaysOf(row: Pick<PlanRow, 'trial_days'>): number {
  return Math.max(0, Math.min(90, Math.trunc(Number(row.trial_days ?? 0)) || 0));
}

export type PlansService = ReturnType<typeof plansService>;
export default plansService;
