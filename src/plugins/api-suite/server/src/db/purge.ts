import { toDate } from './reads';
import type { Knex } from './types';

/**
 * The last id of the rows older than `cutoff`, found by a binary search over the primary key
 * (about 30 lookups of one row each, whatever the table's size), for tables whose ids grow with
 * their time column: rows are written in time order, give or take the second a batched write
 * waits. A purge then reads candidates by id range, the primary key's own order, and needs no
 * index on time, which the hot paths writing these tables would pay for on every row.
 *
 * A row older than the cutoff past the boundary (written late) is left to the next purge, and
 * every candidate is compared with the cutoff again: the boundary only bounds the scan.
 * null when no row is older.
 */
export async function lastIdBefore(knex: Knex, table: string, column: string, cutoff: Date): Promise<number | null> {
  const bounds = (await knex(table).min({ low: 'id' }).max({ high: 'id' }).first()) as { low: unknown; high: unknown } | undefined;
  if (bounds?.low == null || bounds.high == null) return null;
  let low = Number(bounds.low);
  let high = Number(bounds.high);
  let found: number | null = null;
  while (low <= high) {
    const middle = Math.floor((low + high) / 2);
    const row = (await knex(table).where('id', '>=', middle).orderBy('id', 'asc').first('id', column)) as
      Record<string, unknown> | undefined;
    const id = row ? Number(row.id) : null;
    if (id === null || id > high) {
      high = middle - 1;
      continue;
    }
    const at = toDate(row?.[column]);
    if (at !== null && at.getTime() < cutoff.getTime()) {
      found = id;
      low = id + 1;
    } else high = middle - 1;
  }
  return found;
}

/**
 * Lock the rows a select returns, so two purges that ever ran at once (a lease lost mid-batch)
 * never both count and delete one row. PostgreSQL passes over rows another transaction holds, so
 * the two take different rows. MySQL and MariaDB wait for them instead (`SKIP LOCKED` needs
 * MySQL 8 or MariaDB 10.6, and Strapi runs on 10.3): the locking read then sees them deleted and
 * leaves them out, which keeps the guarantee at the cost of a wait a purge at a time never has.
 * SQLite serialises writes, and the query is left as it is.
 */
export function lockedForPurge<Q extends { forUpdate(): Q; skipLocked(): Q }>(query: Q, client: string): Q {
  if (client === 'postgres') return query.forUpdate().skipLocked();
  return client === 'mysql' ? query.forUpdate() : query;
}

/** The cutoff of a limit in days: now less that many days; null for 0, which keeps forever. */
export function cutoffOf(days: number, now: Date): Date | null {
  if (days <= 0) return null;
  return new Date(now.getTime() - days * 86_400_000);
}

/**
 * Codes of a transaction the database turned away for a moment: PostgreSQL's deadlock victim and
 * serialization failure, SQLite's busy database, MySQL's deadlock victim and lock wait timeout.
 */
const TRANSIENT = new Set([
  '40P01',
  '40001',
  'SQLITE_BUSY',
  'SQLITE_BUSY_SNAPSHOT',
  'SQLITE_LOCKED',
  'ER_LOCK_DEADLOCK',
  'ER_LOCK_WAIT_TIMEOUT',
]);

/**
 * One purge batch as one transaction, run again (up to `attempts` times, a moment apart) when the
 * database turned it away for a moment: SQLite answers a transaction that read before another
 * process wrote with SQLITE_BUSY at its first write, without waiting. The batch reads its rows
 * afresh each time, so callers move their cursor only with what the committed run returns.
 */
export async function purgeTransaction<T>(knex: Knex, work: (trx: Knex) => Promise<T>, attempts = 5): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await knex.transaction(work);
    } catch (error) {
      const code = (error as { code?: unknown } | undefined)?.code;
      if (attempt >= attempts || typeof code !== 'string' || !TRANSIENT.has(code)) throw error;
      await new Promise((resolve) => setTimeout(resolve, 25 * attempt));
    }
  }
}

/**
 * The batches of a keyset purge: rows of `table` older than `cutoff` (by `timeColumn`, whose order
 * its ids follow: `lastIdBefore`), taken in id order. Each batch runs `batch` in a transaction of
 * its own (`purgeTransaction`) over the ids after the last one it reached, up to the boundary;
 * `batch` answers what it purged and the last id it looked at, or null when nothing is left.
 * null when there is nothing to purge (no cutoff: kept forever, or no row older).
 */
export async function keysetPurge<T>(
  knex: Knex,
  options: {
    table: string;
    timeColumn?: string;
    cutoff: Date | null;
    batch(trx: Knex, range: { after: number; upTo: number; cutoff: Date }): Promise<{ last: number; purged: T } | null>;
  }
): Promise<(() => Promise<T | null>) | null> {
  const { cutoff } = options;
  if (!cutoff) return null;
  const upTo = await lastIdBefore(knex, options.table, options.timeColumn ?? 'created_at', cutoff);
  if (upTo === null) return null;
  let after = 0;
  return async () => {
    if (after >= upTo) return null;
    const done = await purgeTransaction(knex, (trx) => options.batch(trx, { after, upTo, cutoff }));
    if (!done) return null;
    after = done.last;
    return done.purged;
  };
}
