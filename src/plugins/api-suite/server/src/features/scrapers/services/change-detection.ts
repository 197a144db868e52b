import type { ResultsChangedEventData } from '../event-types';
import type { Core } from '@strapi/strapi';
import { UIDS } from '../../../constants';
import { dialectOf, forUpdate, fromJson, INSERT_CHUNK, tableOf, type Knex } from '../../../db';
import { canonicalJson, combineHashes, contentHash, itemKeyHash, type ChangeDetectionSetting } from '../content-hash';
import { getService } from '../../../utils';
import type { RunOutcome, RunRow } from '../runs/rows';
import type { ScraperRow } from './scrapers';
import { runResults } from '../runs/results';

export type Change = 'new' | 'changed' | 'unchanged';

export interface ChangeCounts {
  new: number;
  changed: number;
  removed: number;
}

/** A completed run's items, keyed and hashed, ready to be compared: read before the run's closing transaction. */
export interface PreparedRun {
  /** By key hash: the content hash of each item holding the key, and their result ids. */
  groups: Map<string, { hashes: string[]; ids: number[] }>;
  /** Results without a key: they keep `change` null. */
  keyless: number[];
}

/** Results read a page at a time while preparing, and state rows read a page at a time while comparing. */
const READ_BATCH = 1_000;
/** Ids in one `IN (…)`, and rows in one upsert: SQLite's limits through knex. */
const WRITE_BATCH = INSERT_CHUNK;

/**
 * Change detection: each completed run of a scraper with `change_detection` set is compared, key by
 * key, with the state its previous compared run left (the latest content hash of each key, in the
 * plugin's own table). The run's items are read and hashed first, outside any transaction; the
 * comparison and every write it makes (the state, each result's `change`, the run's counts) happen
 * in the transaction that marks the run completed, with the scraper's row locked (PostgreSQL, MySQL), so
 * a run is compared whole or not at all and two instances never interleave on one scraper's state.
 * Runs that fail or are stopped are never compared: the state stays as the last completed run left it.
 */
const changeDetectionService = ({ strapi }: { strapi: Core.Strapi }) => {
  const statesTable = () => tableOf(strapi, UIDS.scraperItemState);
  const resultsTable = () => tableOf(strapi, UIDS.scraperResult);
  const runsTable = () => tableOf(strapi, UIDS.scraperRun);
  const knex = () => strapi.db.connection;

  return {
    /**
     * End a run through the runs service's finish(), comparing its items with the previous compared
     * run's when this completes it and the scraper has change detection on. Should the comparison
     * fail (the database, not the data), the run still completes, uncompared: counts and changes null.
     */
    async finishRun(scraper: ScraperRow, runId: number, outcome: RunOutcome): Promise<void> {
      const runs = getService(strapi, 'scraper-runs');
      const setting = outcome.status === 'completed' ? this.settingOf(scraper) : null;
      if (!setting) return runs.finish(runId, scraper.id, outcome);
      try {
        const prepared = await this.prepare(runId, setting);
        await runs.finish(runId, scraper.id, outcome, async (trx) => {
          await this.apply(trx, scraper.id, runId, prepared, setting);
        });
      } catch (error) {
        strapi.log.error(
          `[api-suite] scrapers: change detection of run ${runId} failed, the run completes uncompared: ${(error as Error).message}`
        );
        await runs.finish(runId, scraper.id, outcome);
      }
    },

    /** The scraper's setting, or null when change detection is off. */
    settingOf(scraper: Pick<ScraperRow, 'change_detection'>): ChangeDetectionSetting | null {
      return fromJson<ChangeDetectionSetting | null>(scraper.change_detection, null);
    },

    /** Key and hash every result of the run, in id order. */
    async prepare(runId: number, setting: ChangeDetectionSetting): Promise<PreparedRun> {
      const prepared: PreparedRun = { groups: new Map(), keyless: [] };
      for await (const item of runResults(strapi, runId, READ_BATCH)) {
        const key = itemKeyHash(item, setting);
        if (key === null) {
          prepared.keyless.push(item.id);
          continue;
        }
        const group = prepared.groups.get(key);
        const hash = contentHash(item.data);
        if (group) {
          group.hashes.push(hash);
          group.ids.push(item.id);
        } else prepared.groups.set(key, { hashes: [hash], ids: [item.id] });
      }
      return prepared;
    },

    /**
     * Compare the prepared run with the scraper's state and record the outcome, inside `trx` (the
     * transaction that completes the run). Keys are read from the state in key order a batch at a
     * time; only new, changed and removed keys are written back.
     */
    async apply(
      trx: Knex,
      scraperId: number,
      runId: number,
      prepared: PreparedRun,
      setting: ChangeDetectionSetting
    ): Promise<ChangeCounts | null> {
      // SQLite has one writer at a time already; PostgreSQL and MySQL need the scraper's row held.
      // On MySQL this is the transaction's first read, so the state read below is of after the lock.
      const scraperRow = trx(tableOf(strapi, UIDS.scraper)).select('change_detection').where({ id: scraperId });
      const locked = (await forUpdate(scraperRow, dialectOf(strapi)).first()) as Pick<ScraperRow, 'change_detection'> | undefined;
      // Turned off or keyed differently while the run went on (which dropped the state): its items were keyed the old way, so it stays uncompared.
      if (!locked || canonicalJson(this.settingOf(locked)) !== canonicalJson(setting)) return null;

      const current = new Map<string, { hash: string; ids: number[] }>();
      for (const [key, group] of prepared.groups) current.set(key, { hash: combineHashes(group.hashes), ids: group.ids });
      const changes: Record<Change, number[]> = { new: [], changed: [], unchanged: [] };
      const upserts: Array<{ scraper_id: number; key_hash: string; content_hash: string }> = [];
      const removed: string[] = [];
      const seen = new Set<string>();

      let after = '';
      for (;;) {
        const rows = (await trx(statesTable())
          .select('key_hash', 'content_hash')
          .where({ scraper_id: scraperId })
          .where('key_hash', '>', after)
          .orderBy('key_hash', 'asc')
          .limit(READ_BATCH)) as Array<{ key_hash: string; content_hash: string }>;
        for (const row of rows) {
          const item = current.get(row.key_hash);
          if (!item) {
            removed.push(row.key_hash);
            continue;
          }
          seen.add(row.key_hash);
          if (item.hash === row.content_hash) changes.unchanged.push(...item.ids);
          else {
            changes.changed.push(...item.ids);
            upserts.push({ scraper_id: scraperId, key_hash: row.key_hash, content_hash: item.hash });
          }
        }
        if (rows.length < READ_BATCH) break;
        after = rows[rows.length - 1].key_hash;
      }
      let added = 0;
      for (const [key, item] of current) {
        if (seen.has(key)) continue;
        added += 1;
        changes.new.push(...item.ids);
        upserts.push({ scraper_id: scraperId, key_hash: key, content_hash: item.hash });
      }

      for (const chunk of chunks(upserts))
        await trx(statesTable()).insert(chunk).onConflict(['scraper_id', 'key_hash']).merge(['content_hash']);
      for (const chunk of chunks(removed)) await trx(statesTable()).where({ scraper_id: scraperId }).whereIn('key_hash', chunk).delete();

      // Most results of a routine run are unchanged: one statement marks them all, then the rest by id.
      if (changes.unchanged.length > 0) await trx(resultsTable()).where({ run_id: runId }).update({ change: 'unchanged' });
      for (const change of ['new', 'changed'] as const) {
        for (const chunk of chunks(changes[change])) await trx(resultsTable()).whereIn('id', chunk).update({ change });
      }
      if (changes.unchanged.length > 0) {
        for (const chunk of chunks(prepared.keyless)) await trx(resultsTable()).whereIn('id', chunk).update({ change: null });
      }

      const counts: ChangeCounts = { new: added, changed: upserts.length - added, removed: removed.length };
      await trx(runsTable())
        .where({ id: runId })
        .update({ items_new: counts.new, items_changed: counts.changed, items_removed: counts.removed });
      return counts;
    },

    /** Drop a scraper's state: change detection turned off or keyed differently, or the scraper deleted. */
    async forget(scraperId: number, trx: Knex = knex()): Promise<void> {
      await trx(statesTable()).where({ scraper_id: scraperId }).delete();
    },
  };
};

/** The `results.changed` payload of a finished run, or null when it was not compared or nothing changed. */
export function changedPayload(run: RunRow): ResultsChangedEventData | null {
  if (run.status !== 'completed' || run.items_new === null || run.items_changed === null || run.items_removed === null) return null;
  if (run.items_new + run.items_changed + run.items_removed === 0) return null;
  return { run_id: run.id, scraper_id: run.scraper_id, new: run.items_new, changed: run.items_changed, removed: run.items_removed };
}

function chunks<T>(values: T[]): T[][] {
  const out: T[][] = [];
  for (let start = 0; start < values.length; start += WRITE_BATCH) out.push(values.slice(start, start + WRITE_BATCH));
  return out;
}

export type ChangeDetectionService = ReturnType<typeof changeDetectionService>;
export default changeDetectionService;
