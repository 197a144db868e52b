import { UIDS } from '../constants';
import type { DatabaseModel, Knex } from './types';

/**
 * A lock of one key (a consumer, a user) held until the transaction that takes it ends, so that
 * a count and the write it allows run one after another for that key across every instance:
 * - PostgreSQL: a transaction-scoped advisory lock, `pg_advisory_xact_lock(class, key)`.
 * - MySQL and MariaDB: an exclusive lock on the key's row of `api_suite_locks`. Their named locks
 *   (`GET_LOCK`) belong to the connection, not the transaction, and would have to be released
 *   after the commit on a connection knex has by then given back to its pool; a row lock ends
 *   with the transaction, commit or rollback. `INSERT … ON DUPLICATE KEY UPDATE` takes that lock
 *   whether the row is new or not (InnoDB locks a duplicate exclusively), in one statement; an
 *   `INSERT IGNORE` then `SELECT … FOR UPDATE` would take a shared lock first, and two
 *   transactions each holding one would deadlock upgrading them.
 * - SQLite: nothing, since knex keeps a single connection and transactions run one at a time.
 *
 * On MySQL, take it before the transaction's first plain read: under REPEATABLE READ (InnoDB's
 * default) that read fixes the snapshot every later plain read sees, and one fixed before the
 * lock was granted would not see what the previous holder committed.
 */
export async function lockKey(trx: Knex, client: string, lockClass: number, key: string | number): Promise<void> {
  if (client === 'postgres') {
    // A number is the key itself; a string (a consumer id) is hashed to one, as before.
    await trx.raw(`SELECT pg_advisory_xact_lock(?, ${typeof key === 'number' ? '?' : 'hashtext(?)'})`, [lockClass, key]);
    return;
  }
  if (client === 'mysql') {
    await trx.raw(`INSERT INTO \`${LOCK_TABLE}\` (\`name\`) VALUES (?) ON DUPLICATE KEY UPDATE \`name\` = \`name\``, [
      `${lockClass.toString(16)}:${key}`,
    ]);
  }
}

const LOCK_TABLE = 'api_suite_locks';

/**
 * The rows MySQL's locks are taken on, one a key ever locked (a consumer's few classes: a small
 * table). Declared on every database so that a site's schema does not depend on which it runs;
 * only MySQL writes it. The name's collation is the database's, often case-insensitive: two keys
 * differing only in case share a row, which only makes them wait for each other.
 */
export const lockTables: DatabaseModel[] = [
  {
    uid: UIDS.lock,
    singularName: 'lock',
    tableName: LOCK_TABLE,
    attributes: {
      id: { type: 'increments' },
      name: { type: 'string' },
    },
    indexes: [{ name: 'api_suite_locks_name', columns: ['name'], type: 'unique' }],
  },
];

/**
 * A select whose rows stay locked until the transaction ends, where another transaction could
 * otherwise write them meanwhile: PostgreSQL and MySQL (`FOR UPDATE`; on MySQL a locking read
 * also reads the latest committed rows, whatever the transaction's snapshot). SQLite has one
 * writer at a time, and the query is left as it is.
 */
export function forUpdate<Q extends { forUpdate(): Q }>(query: Q, client: string): Q {
  return client === 'postgres' || client === 'mysql' ? query.forUpdate() : query;
}
