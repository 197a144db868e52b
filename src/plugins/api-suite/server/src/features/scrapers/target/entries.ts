import type { Core } from '@strapi/strapi';
import { UIDS } from '../../../constants';
import { registerDatabaseModels, tableOf, type DatabaseModel, type Knex } from '../../../db';

/**
 * What a scraper with a target has written: one row per key it has met, with the document it
 * wrote, the hash of the values it wrote last (so an item that has not changed writes nothing),
 * the last run that collected the key, and whether the scraper created the document (`owned`):
 * only those are unpublished or deleted when their key is gone. A plugin database model, not a
 * content type: only the run worker reads and writes it.
 *
 * The row is written before the document is created, so a run killed between the two leaves the
 * key owned, and the next run finds the document by its key and takes it up: no duplicate, and
 * the document still counts as the scraper's own.
 */
export const targetEntryTables: DatabaseModel[] = [
  {
    uid: UIDS.scraperTargetEntry,
    singularName: 'scraper-target-entry',
    tableName: 'api_suite_scraper_target_entries',
    attributes: {
      id: { type: 'increments' },
      scraper_id: { type: 'integer' },
      // sha256 of the key's value, as change detection keys its state: a long key fits any index.
      key_hash: { type: 'string', mysqlLength: 64 },
      item_key: { type: 'text' },
      document_id: { type: 'string' },
      content_hash: { type: 'string' },
      owned: { type: 'boolean' },
      last_run_id: { type: 'integer' },
      // The run that found the key gone and applied `removed` to its document; null while it is collected.
      removed_run_id: { type: 'integer' },
    },
    indexes: [{ name: 'api_suite_scraper_target_entries_key', columns: ['scraper_id', 'key_hash'], type: 'unique' }],
  },
  {
    // What each run wrote, for editors: a run's page lists it, and the Content Manager shows who last wrote a document.
    uid: UIDS.scraperTargetWrite,
    singularName: 'scraper-target-write',
    tableName: 'api_suite_scraper_target_writes',
    attributes: {
      id: { type: 'increments' },
      scraper_id: { type: 'integer' },
      run_id: { type: 'integer' },
      content_type: { type: 'string' },
      document_id: { type: 'string' },
      item_key: { type: 'text' },
      // created, updated, unpublished or deleted
      action: { type: 'string' },
      written_at: { type: 'datetime' },
    },
    indexes: [
      { name: 'api_suite_scraper_target_writes_run', columns: ['run_id', 'id'] },
      { name: 'api_suite_scraper_target_writes_document', columns: ['document_id'] },
    ],
  },
];

/** One document a run wrote, and how. */
export interface TargetWrite {
  scraper_id: number;
  run_id: number;
  content_type: string;
  document_id: string;
  item_key: string | null;
  action: 'created' | 'updated' | 'unpublished' | 'deleted';
  written_at: Date;
}

export interface TargetEntry {
  id: number;
  scraper_id: number;
  key_hash: string;
  item_key: string | null;
  document_id: string | null;
  content_hash: string | null;
  owned: unknown;
  last_run_id: number | null;
  removed_run_id: number | null;
}

/** Declare the table to Strapi's database layer (in register, before Strapi syncs the schema). */
export function registerTargetEntryTables(strapi: Core.Strapi): void {
  registerDatabaseModels(strapi, targetEntryTables);
}

/** Forget what a scraper wrote: its target changed type or key, or the scraper was deleted (its documents stay). */
export async function forgetTargetEntries(strapi: Core.Strapi, scraperId: number, trx: Knex = strapi.db.connection): Promise<void> {
  await trx(tableOf(strapi, UIDS.scraperTargetEntry)).where({ scraper_id: scraperId }).delete();
}
