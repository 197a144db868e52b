import type { Core } from '@strapi/strapi';
import { UIDS } from '../../constants';
import { getService } from '../../utils';
import { limitsOf, type KeyDetails, type KeyRow } from './key-rows';
import type { AdminApiKey } from './validation/responses';

/**
 * What the admin panel adds to a key: its own limits, whether its plan is its own (`key`) or
 * its owner's (`consumer`), and the key that replaced it (id and prefix).
 */
async function keyDetails(strapi: Core.Strapi, ids: number[]): Promise<Map<number, KeyDetails>> {
  if (ids.length === 0) return new Map();
  const rows = (await strapi.db.query(UIDS.apiKey).findMany({
    where: { id: { $in: ids } },
    select: ['id', 'requests_per_minute', 'requests_per_month', 'replaced_by'],
    populate: { plan: { select: ['id'] } },
  })) as KeyRow[];
  const successors = rows.flatMap((row) => (row.replaced_by ? [row.replaced_by] : []));
  const prefixes = new Map(
    successors.length === 0
      ? []
      : (
          (await strapi.db.query(UIDS.apiKey).findMany({ where: { id: { $in: successors } }, select: ['id', 'key_prefix'] })) as KeyRow[]
        ).map((row) => [row.id, row.key_prefix])
  );
  return new Map(
    rows.map((row) => [
      row.id,
      {
        ...limitsOf(row),
        plan_source: row.plan ? 'key' : 'consumer',
        replaced_by: row.replaced_by ?? null,
        replaced_by_prefix: row.replaced_by ? (prefixes.get(row.replaced_by) ?? null) : null,
      },
    ])
  );
}

/**
 * A page of keys as the admin panel lists them: each with its owner, its plan and why, and the
 * owner's plan and why. Owners, plans, details and owners' plans are read in batches, not per key.
 */
export async function adminKeyList(
  strapi: Core.Strapi,
  options: { userId?: number; page: number; limit: number }
): Promise<{ data: AdminApiKey[]; total: number }> {
  const keys = getService(strapi, 'keys');
  const { data, total } = await keys.list(options);
  const ownerIds = [...new Set(data.flatMap((key) => (key.user_id === null ? [] : [key.user_id])))];
  const [owners, planList, details, ownerPlans] = await Promise.all([
    getService(strapi, 'consumers').describeUsers(ownerIds),
    getService(strapi, 'plans').list(),
    keyDetails(
      strapi,
      data.map((key) => key.id)
    ),
    getService(strapi, 'consumer-plans').describeMany(ownerIds),
  ]);
  const planNames = new Map(planList.map((plan) => [plan.id, plan.name]));
  const named = (id: number | null) => (id === null ? null : { id, name: planNames.get(id) ?? '' });
  const listed = data.map((key): AdminApiKey => {
    const owner = key.user_id === null ? undefined : ownerPlans.get(key.user_id);
    return {
      ...key,
      ...(details.get(key.id) ?? {
        requests_per_minute: null,
        requests_per_month: null,
        plan_source: 'consumer',
        replaced_by: null,
        replaced_by_prefix: null,
      }),
      user: key.user_id === null ? null : (owners.get(key.user_id) ?? null),
      plan: named(key.plan_id),
      // What the owner is on and why, so an editor sees a grant or a subscription behind a key's plan.
      owner_plan: owner
        ? {
            id: owner.effective_plan_id,
            name: planNames.get(owner.effective_plan_id) ?? '',
            source: owner.plan_source,
            granted: named(owner.plan_id),
          }
        : null,
    };
  });
  return { data: listed, total };
}
