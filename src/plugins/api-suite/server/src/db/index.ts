import type { Core } from '@strapi/strapi';
import type { DatabaseModel, Knex } from './types';

/**
 * The few things hot paths need when they write through knex rather than the document service:
 * batched inserts, one-statement updates of many rows with different values, and reading back
 * values whose type differs between PostgreSQL, MySQL and SQLite (dates, JSON, booleans). Its
 * parts: the bulk writes (`writes.ts`) with PostgreSQL's JSON-document form of them
 * (`recordset.ts`), the readers of column values (`reads.ts`), per-key locks and locking reads
 * (`locks.ts`), writes that answer what RETURNING answers elsewhere (`returning.ts`) and the
 * retention purge's batches (`purge.ts`). Each takes the dialect (`dialectOf`): `sqlite`,
 * `postgres` or `mysql` (MySQL 8 and MariaDB).
 */

export type { Column, ColumnKind, DatabaseModel, Knex } from './types';
export { forUpdate, lockKey, lockTables } from './locks';
export { insertNew, insertReturningId, updateReturning } from './returning';
export { deleteInChunks, INSERT_CHUNK, insertChunked, insertRows, updateMany, writeMany, type RowWrite, type UpdateColumn } from './writes';
export { pgTimestamp, recordsetJson } from './recordset';
export { cutoffOf, keysetPurge, lastIdBefore, lockedForPurge, purgeTransaction } from './purge';
export { fromJson, pageOwned, rowsOf, toBool, toCount, toDate, toIso, toIsoRequired, toText } from './reads';

export function dialectOf(strapi: Core.Strapi): string {
  return strapi.db.dialect.client as string;
}

export function tableOf(strapi: Core.Strapi, uid: string): string {
  return strapi.db.metadata.get(uid as Parameters<Core.Strapi['db']['metadata']['get']>[0]).tableName;
}

/**
 * Run `work` with knex on the transaction Strapi is in (an administrator's delete, say), or on the
 * connection when none: inside a transaction on SQLite, a second connection would wait for it forever.
 */
export async function inCurrentTransaction<T>(strapi: Core.Strapi, work: (connection: Knex) => Promise<T>): Promise<T> {
  if (!strapi.db.inTransaction()) return work(strapi.db.connection);
  let result: T | undefined;
  await strapi.db.transaction(async ({ trx }) => {
    result = await work(trx as unknown as Knex);
  });
  return result as T;
}

/** Declare plugin tables to Strapi's database layer; call it in register, before Strapi syncs the schema. */
export function registerDatabaseModels(strapi: Core.Strapi, models: DatabaseModel[]): void {
  const registry = strapi.get('models') as { add(model: DatabaseModel): unknown };
  const mysql = dialectOf(strapi) === 'mysql';
  for (const model of models) registry.add(asDeclared(model, mysql));
}

/** The model as Strapi takes it: a `mysqlLength` string is a column type of that length on MySQL, and gone elsewhere. */
function asDeclared(model: DatabaseModel, mysql: boolean): DatabaseModel {
  const attributes = Object.fromEntries(
    Object.entries(model.attributes).map(([name, { mysqlLength, ...attribute }]) => [
      name,
      mysql && mysqlLength !== undefined ? { ...attribute, columnType: { type: 'string', args: [mysqlLength] } } : attribute,
    ])
  );
  return { ...model, attributes };
}

/**
 * Run a transaction again when the database chose it as a deadlock's victim (PostgreSQL's 40P01,
 * MySQL's ER_LOCK_DEADLOCK): the deadlock detector aborts one of the transactions in a cycle, and
 * running the victim again, after the other has finished, is the remedy both manuals give.
 * Anything else throws.
 */
export async function retryOnDeadlock<T>(transaction: () => Promise<T>, attempts = 3): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await transaction();
    } catch (error) {
      if (attempt >= attempts || !DEADLOCK.has(String((error as { code?: unknown } | undefined)?.code))) throw error;
    }
  }
}

const DEADLOCK = new Set(['40P01', 'ER_LOCK_DEADLOCK']);
