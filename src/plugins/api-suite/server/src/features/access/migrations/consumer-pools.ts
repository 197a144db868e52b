import type { Core } from '@strapi/strapi';
import { PLUGIN_ID, UIDS } from '../../../constants';
import { tableOf } from '../../../db';
import { getConfig, getService } from '../../../utils';
import { monthWindow } from '../quota';

const STORE_KEY = 'access-model';
const VERSION = 2;

interface Link {
  name: string;
  joinColumn: { name: string };
  inverseJoinColumn: { name: string };
}

/**
 * From quotas per key to one pool per consumer and plan, once per database (boot, after the
 * tables are synced). Nobody gains or loses allowance at the switch:
 *
 * 1. usage records learn their consumer (the key's owner), so reports and billing count by consumer;
 * 2. a key whose stored plan is the plan its owner is on now becomes a key that follows its owner
 *    (it was put there by the key's issue or by billing); a key on any other plan was issued on
 *    it by an administrator and keeps it, so nobody loses what they were given;
 * 3. with Redis, this month's per-key counters are added into the pools the keys now draw on,
 *    so nobody starts the month afresh (once per Redis, whichever instance gets there first).
 *    Minute counters are left to expire: they last a minute.
 */
export async function migrateToConsumerPools(strapi: Core.Strapi): Promise<void> {
  const store = strapi.store({ type: 'plugin', name: PLUGIN_ID, key: STORE_KEY });
  const done = (await store.get()) as { version?: number } | null;
  if ((done?.version ?? 0) >= VERSION) return;

  const knex = strapi.db.connection;
  const keys = strapi.db.metadata.get(UIDS.apiKey);
  const userLink = (keys.attributes.user as unknown as { joinTable: Link }).joinTable;
  const usage = tableOf(strapi, UIDS.usageRecord);
  const backfilled = await knex(usage)
    .whereNull('user_id')
    .whereNotNull('api_key_id')
    .update({
      user_id: knex(userLink.name)
        .select(userLink.inverseJoinColumn.name)
        .where(userLink.joinColumn.name, knex.ref(`${usage}.api_key_id`))
        .limit(1),
    });

  const consumerPlans = getService(strapi, 'consumer-plans');
  consumerPlans.forget('*');
  const rows = (await strapi.db
    .query(UIDS.apiKey)
    .findMany({ select: ['id'], populate: { plan: { select: ['id'] }, user: { select: ['id'] } } })) as Array<{
    id: number;
    plan: { id: number } | null;
    user: { id: number } | null;
  }>;
  let following = 0;
  for (const row of rows) {
    if (!row.plan || !row.user) continue;
    if ((await consumerPlans.of(row.user.id)).rule.id !== row.plan.id) continue;
    await strapi.db.query(UIDS.apiKey).update({ where: { id: row.id }, data: { plan: null } });
    following += 1;
  }

  const moved = await moveMonthCounters(
    strapi,
    rows.flatMap((row) => (row.user ? [{ id: row.id, userId: row.user.id }] : []))
  );
  await store.set({ value: { version: VERSION, at: new Date().toISOString() } });
  strapi.log.info(
    `[api-suite] access: quotas are per consumer now: ${following} of ${rows.length} keys follow their owner's plan, ${backfilled} usage records got their consumer, ${moved} monthly counters went into their pools`
  );
}

async function moveMonthCounters(strapi: Core.Strapi, keys: Array<{ id: number; userId: number }>): Promise<number> {
  const redis = getService(strapi, 'platform').redis();
  if (!redis || keys.length === 0) return 0;
  const prefix = getConfig(strapi).jobs.prefix;
  const month = monthWindow(new Date());
  // One instance moves them, once: a second boot, or a second instance booting meanwhile, adds nothing twice.
  if ((await redis.set(`${prefix}:quota:pools-migrated`, '1', 'NX')) !== 'OK') return 0;
  const keysService = getService(strapi, 'keys');
  const consumerPlans = getService(strapi, 'consumer-plans');
  let moved = 0;
  for (const { id, userId } of keys) {
    const old = `${prefix}:quota:mon:${id}:${month.id}`;
    const used = Number((await redis.get(old)) ?? 0);
    if (!Number.isFinite(used) || used <= 0) continue;
    const target = await consumerPlans.targetOf(userId, await keysService.findById(id));
    const pool = `${prefix}:quota:mon:${target.pool}:${month.id}`;
    await redis
      .multi()
      .incrby(pool, used)
      .expire(pool, month.resetAt + 86_400 - Math.floor(Date.now() / 1000))
      .del(old)
      .exec();
    moved += 1;
  }
  return moved;
}
