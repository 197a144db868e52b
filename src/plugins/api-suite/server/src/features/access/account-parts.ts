import type { Core } from '@strapi/strapi';
import { UIDS } from '../../constants';
import { dialectOf, tableOf } from '../../db';
import { getService } from '../../utils';
import { everyPage, type AccountPart } from '../accounts/types';

/** Keys read a page at a time for the export: a consumer may hold many. */
const PAGE = 100;
/**
 * A request on another instance that read a key just before it was deleted may cache it just
 * after the deletion was announced; the keys are announced again this much later.
 */
const LATE_CACHE_MS = 500;
/**
 * Usage records are written in batches off the request path, every second on each instance:
 * records of the leaving consumer still buffered elsewhere are detached by a second pass this
 * much later.
 */
const LATE_RECORDS_MS = 5_000;
/** Usage records detached per statement, so a heavy consumer's millions never hold one long write. */
const DETACH_BATCH = 5_000;

/**
 * A consumer's keys and plan (docs/accounts.md): exported as `GET /api/v1/keys` shows them (never
 * a key or its hash); on closing, the keys are deleted first of everything, through the query
 * engine one by one, so the access feature's lifecycle on keys drops each from the cache here and,
 * through Redis, on every instance, as a revocation does (401 from then on), and the plan the user
 * held is taken back.
 */
export function keysAccountPart(strapi: Core.Strapi): AccountPart {
  return {
    name: 'keys',
    phase: 'access',
    async export({ userId }) {
      const keys = await everyPage(async (page) => {
        const { data, total } = await getService(strapi, 'keys').list({ userId, page, limit: PAGE });
        return { items: data, total };
      });
      return { keys };
    },
    async prepareClosing({ userId }) {
      // Found through the user relation, which goes with the user row: read before anything changes.
      const rows = (await strapi.db.query(UIDS.apiKey).findMany({ where: { user: { id: userId } }, select: ['id'] })) as Array<{
        id: number;
      }>;
      const keyIds = rows.map((row) => row.id);
      return {
        async carryOut(later) {
          for (const id of keyIds) await strapi.db.query(UIDS.apiKey).delete({ where: { id } });
          if (keyIds.length > 0) {
            const keys = getService(strapi, 'keys');
            later(LATE_CACHE_MS, 'announcing deleted keys again', () => Promise.all(keyIds.map((id) => keys.invalidate(id))));
          }
          await getService(strapi, 'consumer-plans').grant(userId, null);
        },
        confirmation: () => 'Its API keys no longer work.',
      };
    },
  };
}

/**
 * A consumer's requests (docs/accounts.md): exported by month; on closing, the usage records stay
 * for accounting (and billed overage) under the consumer id, without the user, detached in
 * batches once this instance's buffer is written, and again a little later for records still
 * buffered on other instances.
 */
export function usageAccountPart(strapi: Core.Strapi): AccountPart {
  const detach = async (userId: number, consumerId: string | null): Promise<number> => {
    const knex = strapi.db.connection;
    const table = tableOf(strapi, UIDS.usageRecord);
    let detached = 0;
    // MySQL refuses LIMIT in an IN subquery, and takes it on the UPDATE itself, which the others refuse.
    const mysql = dialectOf(strapi) === 'mysql';
    for (;;) {
      const rows = mysql
        ? knex(table).where({ user_id: userId }).limit(DETACH_BATCH)
        : knex(table).whereIn('id', knex(table).select('id').where({ user_id: userId }).limit(DETACH_BATCH));
      const changed = Number(await rows.update({ user_id: null, consumer_id: consumerId }));
      detached += changed;
      if (changed < DETACH_BATCH) return detached;
    }
  };
  return {
    name: 'usage',
    phase: 'records',
    async export({ userId, consumerId }) {
      return { usage: await getService(strapi, 'usage').months(userId, consumerId || null) };
    },
    async prepareClosing({ userId, consumerId }) {
      return {
        async carryOut(later) {
          await getService(strapi, 'usage').flush();
          await detach(userId, consumerId);
          later(LATE_RECORDS_MS, 'detaching late usage records', () => detach(userId, consumerId));
        },
        confirmation: () => 'Records of the requests made with it are kept for accounting, without your name.',
      };
    },
  };
}
