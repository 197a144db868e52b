import type { Core } from '@strapi/strapi';
import { UIDS } from '../../constants';
import { dialectOf, lockKey, type Knex } from '../../db';
import { getConfig } from '../../utils';
import { TooManyKeysError } from './errors';

/**
 * How many live API keys one consumer may hold (docs/access.md#keys-and-plans): `access.maxKeys`
 * (`ACCESS_MAX_KEYS`, 20). Live is what still works: not revoked and not past `expires_at`; the
 * old key of a reroll counts while its grace period lasts. Administrators are not capped.
 * Counted and enforced in the transaction that writes the key (services/keys.ts).
 */

/** The class of the per-consumer lock (db/locks.ts), so it meets no other lock of the database. */
const KEY_CAP_LOCK_CLASS = 0x4b4559; // "KEY"

/** The cap of a caller making a key, or null for administrators, who are not capped. */
export function keyCapOf(strapi: Core.Strapi, caller: { isAdmin: boolean }): number | null {
  return caller.isAdmin ? null : getConfig(strapi).access.maxKeys;
}

/**
 * Refuses (409 too_many_keys, `details.limit`) when `userId` already holds `limit` live keys, not
 * counting `ending` (the key a reroll with no grace period ends at once). Run inside the
 * transaction that then inserts, first thing in it: it takes the consumer's lock (db/locks.ts),
 * so concurrent creates of one consumer count one after another and cannot all pass.
 */
export async function assertBelowKeyCap(
  strapi: Core.Strapi,
  trx: Knex,
  userId: number,
  limit: number,
  options: { ending?: number; reroll?: boolean } = {}
): Promise<void> {
  await lockKey(trx, dialectOf(strapi), KEY_CAP_LOCK_CLASS, userId);
  // Inside strapi.db.transaction, the query engine runs on the same transaction.
  const held = await strapi.db.query(UIDS.apiKey).count({
    where: {
      user: { id: userId },
      status: 'active',
      $or: [{ expires_at: { $null: true } }, { expires_at: { $gt: new Date() } }],
      ...(options.ending === undefined ? {} : { id: { $ne: options.ending } }),
    },
  });
  if (held >= limit) throw new TooManyKeysError(limit, held, options.reroll === true);
}
