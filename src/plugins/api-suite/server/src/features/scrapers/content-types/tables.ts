import type { Core } from '@strapi/strapi';
import { UIDS } from '../../../constants';
import { registerDatabaseModels, type DatabaseModel } from '../../../db';

/**
 * Change detection's state: for each scraper with change detection on, the latest content hash of
 * each item key its last compared run collected. One row per distinct key, replaced in place, so it
 * grows with a scraper's distinct items, never with its runs. A plugin database model, not a
 * content type: only the run worker reads and writes it.
 *
 * Keys are stored as their sha256 (`key_hash`), so a long key (a URL, a description) costs a
 * fixed 64 characters and fits any index. The one index, unique on `scraper_id, key_hash`, serves
 * every query: reading a scraper's state in key order a batch at a time, upserting new and changed
 * keys (its conflict target), deleting removed ones, and dropping a scraper's whole state (prefix).
 */
export const changeDetectionTables: DatabaseModel[] = [
  {
    uid: UIDS.scraperItemState,
    singularName: 'scraper-item-state',
    tableName: 'api_suite_scraper_item_states',
    attributes: {
      id: { type: 'increments' },
      scraper_id: { type: 'integer' },
      key_hash: { type: 'string' },
      content_hash: { type: 'string' },
    },
    indexes: [{ name: 'api_suite_scraper_item_states_key', columns: ['scraper_id', 'key_hash'], type: 'unique' }],
  },
];

/** Declare the table to Strapi's database layer (in register: it creates and syncs it before any bootstrap). */
export function registerChangeDetectionTables(strapi: Core.Strapi): void {
  registerDatabaseModels(strapi, changeDetectionTables);
}
