import type { Core } from '@strapi/strapi';
import { UIDS } from '../../../constants';
import { getConfig } from '../../../utils';
import { resolveEndpoints } from '../endpoints';

/** The three tiers every site starts with (contract section 5); editors change them in the admin panel. */
export const DEFAULT_PLANS = [
  { name: 'free', requests_per_month: 1_000, requests_per_minute: 10, endpoints: ['@public'], price_monthly: 0, is_default: true },
  { name: 'pro', requests_per_month: 100_000, requests_per_minute: 100, endpoints: ['@public', '@private'], price_monthly: 49, is_default: false },
  { name: 'enterprise', requests_per_month: -1, requests_per_minute: 1_000, endpoints: ['* *'], price_monthly: 499, is_default: false },
];

export interface PublicPlan {
  id: number;
  name: string;
  requests_per_month: number;
  requests_per_minute: number;
  endpoints: string[];
  price_monthly: number;
}

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
    const groups = getConfig(strapi).access.endpointGroups;
    const rows = await strapi.db.query(UIDS.plan).findMany({ orderBy: [{ price_monthly: 'asc' }, { id: 'asc' }] });
    return rows.map((row: { id: number; name: string; requests_per_month: number; requests_per_minute: number; endpoints: unknown; price_monthly: number | string }) => ({
      id: row.id,
      name: row.name,
      requests_per_month: row.requests_per_month,
      requests_per_minute: row.requests_per_minute,
      endpoints: resolveEndpoints(row.endpoints, groups),
      price_monthly: Number(row.price_monthly),
    }));
  },
});

export type PlansService = ReturnType<typeof plansService>;
export default plansService;
