import type { Core } from '@strapi/strapi';

/**
 * The few things hot paths need when they write through knex rather than the document service:
 * batched inserts, one-statement updates of many rows with different values, and reading back
 * values whose type differs between PostgreSQL and SQLite (dates, JSON, booleans). Its parts: the
 * bulk writes (`writes.ts`) with PostgreSQL's JSON-document form of them (`recordset.ts`), and the
 * readers of column values (`reads.ts`).
 */

export type { Column, ColumnKind, Knex } from './types';
export { INSERT_CHUNK, insertChunked, insertRows, updateMany, writeMany, type RowWrite, type UpdateColumn } from './writes';
export { pgTimestamp, recordsetJson } from './recordset';
export { cutoffOf, lastIdBefore, lockedForPurge, purgeTransaction } from './purge';
export { fromJson, pageOwned, rowsOf, toBool, toCount, toDate, toIso, toIsoRequired, toText } from './reads';

export function dialectOf(strapi: Core.Strapi): string {
  return strapi.db.dialect.client as string;
}

export function tableOf(strapi: Core.Strapi, uid: string): string {
  return strapi.db.metadata.get(uid as Parameters<Core.Strapi['db']['metadata']['get']>[0]).tableName;
}

/**
 * A table of the plugin that is not a content type: no document id, locale, publication date or
 * author columns, and only the indexes its queries need. Strapi creates it and keeps it in step
 * with the declaration at boot, as it does its own tables.
 */
export interface DatabaseModel {
  uid: string;
  singularName: string;
  tableName: string;
  attributes: Record<string, { type: string }>;
  indexes: Array<{ name: string; columns: string[]; type?: 'unique' }>;
}

/** Declare plugin tables to Strapi's database layer; call it in register, before Strapi syncs the schema. */
export function registerDatabaseModels(strapi: Core.Strapi, models: DatabaseModel[]): void {
  const registry = strapi.get('models') as { add(model: DatabaseModel): unknown };
  for (const model of models) registry.add(model);
}

/**
 * Run a transaction again when PostgreSQL chose it as a deadlock's victim (40P01): the
 * deadlock detector aborts one of the transactions in a cycle, and running the victim again,
 * after the other has finished, is the remedy PostgreSQL's manual gives. Anything else throws.
 */
export async function retryOnDeadlock<T>(transaction: () => Promise<T>, attempts = 3): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await transaction();
    } catch (error) {
      if (attempt >= attempts || (error as { code?: unknown } | undefined)?.code !== '40P01') throw error;
    }
  }
}
