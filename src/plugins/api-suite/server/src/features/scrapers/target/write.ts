import type { Core, UID } from '@strapi/strapi';
import { UIDS } from '../../../constants';
import { fromJson, insertChunked, tableOf, toBool } from '../../../db';
import { unavailableDependency } from '../../../dependencies';
import { contentHash } from '../content-hash';
import type { ScraperRow } from '../services/scrapers';
import type { ScraperSelectors } from '../validation';
import type { ScraperTargetSetting } from '../validation/requests';
import type { TargetReport } from '../validation/responses';
import { runResults } from '../runs/results';
import { itemFieldsOf, resolveTarget, type ResolvedTarget } from './check';
import { coerceValue } from './coerce';
import { documentsByKey } from './lookup';
import type { TargetEntry, TargetWrite } from './entries';

/** Results read a page at a time. */
const READ_BATCH = 200;
/** What the run wrote is logged this many documents at a time. */
const LOG_BATCH = 100;
/** Failed items listed in a run's report; `failed_count` counts them all. */
const LISTED_FAILURES = 100;

type Failure = TargetReport['failed'][number];

/** An item ready to write: its key, and its values brought to their attributes' kinds. */
interface Prepared {
  keyHash: string;
  itemKey: string;
  keyValue: unknown;
  data: Record<string, unknown>;
  /** Of `data`: what the scraper wrote last is compared with it. */
  hash: string;
}

/**
 * Write a run's items into its scraper's target (docs/scrapers.md#writing-into-a-content-type),
 * after the crawl and before the run is recorded as ended, while its heartbeat still beats. Each
 * item goes through the document service, so the site's lifecycles, validation and content events
 * apply: its document is found by the key attribute's value, created when there is none, updated
 * when its values differ from those this scraper wrote last, and left alone otherwise. An item
 * that cannot be written (a value its attribute cannot take, a document the site refuses) is
 * reported and the others are written. When every item was gone through (`signal` never aborted),
 * no page failed and some item was collected, the documents this scraper created whose key the run did not collect are kept, unpublished or
 * deleted. The report is stored on the run; null when the scraper has no target.
 */
export async function writeTarget(
  strapi: Core.Strapi,
  scraper: ScraperRow,
  runId: number,
  crawl: { signal: AbortSignal; pagesFailed: number }
): Promise<TargetReport | null> {
  const setting = fromJson<ScraperTargetSetting | null>(scraper.target, null);
  if (!setting) return null;
  const report: TargetReport = { created: 0, updated: 0, unchanged: 0, removed: 0, failed: [], failed_count: 0 };
  const fail = (failure: Failure) => {
    report.failed_count += 1;
    if (report.failed.length < LISTED_FAILURES) report.failed.push(failure);
  };
  let target: ResolvedTarget | undefined;
  try {
    target = resolveTarget(strapi, setting, itemFieldsOf(fromJson<ScraperSelectors | null>(scraper.selectors, null)));
  } catch (error) {
    // The site's schema changed since the target was saved: nothing can be written until it is fixed.
    fail({ key: null, field: null, reason: (error as Error).message });
  }
  if (target) {
    const writer = targetWriter(strapi, scraper.id, runId, target, report, fail);
    // Outside the request that started the run (the in-process jobs driver may carry its context):
    // the site's document-service middlewares must see the worker, not that caller.
    await outsideRequests(strapi, async () => {
      const complete = await writer.writeAll(crawl.signal);
      // Items of a page that failed are missing, not gone; and a run that found no item at all more
      // likely met a page whose layout changed than a site that emptied: neither removes anything.
      if (complete && crawl.pagesFailed === 0 && writer.collected() > 0) await writer.removeGone();
      await writer.flushLog();
    });
  }
  await strapi.db
    .connection(tableOf(strapi, UIDS.scraperRun))
    .where({ id: runId })
    .update({ target_report: JSON.stringify(report) });
  return report;
}

function targetWriter(
  strapi: Core.Strapi,
  scraperId: number,
  runId: number,
  target: ResolvedTarget,
  report: TargetReport,
  fail: (failure: Failure) => void
) {
  const knex = () => strapi.db.connection;
  const entries = () => knex()(tableOf(strapi, UIDS.scraperTargetEntry));
  const documents = () => strapi.documents(target.setting.type as UID.ContentType);
  const { setting, draftAndPublish } = target;
  const publishing = draftAndPublish && setting.publish === 'auto' ? ({ status: 'published' } as const) : {};
  const seen = new Set<string>();
  let log: TargetWrite[] = [];
  const flushLog = async (): Promise<void> => {
    const rows = log;
    log = [];
    if (rows.length > 0)
      await insertChunked(knex(), tableOf(strapi, UIDS.scraperTargetWrite), rows as unknown as Array<Record<string, unknown>>);
  };
  /** Logs a document written, for the run's page and the Content Manager; in batches. */
  const wrote = async (documentId: string, itemKey: string | null, action: TargetWrite['action']): Promise<void> => {
    log.push({
      scraper_id: scraperId,
      run_id: runId,
      content_type: setting.type,
      document_id: documentId,
      item_key: itemKey,
      action,
      written_at: new Date(),
    });
    if (log.length >= LOG_BATCH) await flushLog();
  };

  const touch = (keyHash: string) => entries().where({ scraper_id: scraperId, key_hash: keyHash }).update({ last_run_id: runId });
  const record = async (keyHash: string, itemKey: string, changes: Partial<TargetEntry>) => {
    const row = { scraper_id: scraperId, key_hash: keyHash, item_key: itemKey, last_run_id: runId, removed_run_id: null, ...changes };
    await entries()
      .insert(row)
      .onConflict(['scraper_id', 'key_hash'])
      .merge(Object.keys(row).filter((column) => column !== 'scraper_id' && column !== 'key_hash'));
  };

  /** One item's key and values brought to their attributes' kinds; null when it is not written (reported). */
  const prepare = async (item: { url: string; data: Record<string, unknown> }): Promise<Prepared | null> => {
    const valueOf = (field: string) => (field === 'url' && !Object.hasOwn(item.data, 'url') ? item.url : item.data[field]);
    const rawKey = valueOf(target.key.field);
    const shownKey = rawKey === null || rawKey === undefined || typeof rawKey === 'object' ? null : String(rawKey).trim() || null;
    const key = coerceValue({ ...target.key, required: true }, rawKey);
    if (!key.ok) return reported({ key: shownKey, field: target.key.name, reason: key.reason });
    const keyHash = contentHash(key.value);
    const itemKey = String(key.value);
    if (seen.has(keyHash)) {
      return reported({
        key: itemKey,
        field: target.key.name,
        reason: 'an earlier item of this run has the same key, and was written instead',
      });
    }
    seen.add(keyHash);

    const data: Record<string, unknown> = {};
    for (const attribute of target.attributes) {
      const value = coerceValue(attribute, valueOf(attribute.field));
      if (!value.ok) {
        // Still collected: its document is not gone.
        await touch(keyHash);
        return reported({ key: itemKey, field: attribute.name, reason: value.reason });
      }
      data[attribute.name] = value.value;
    }
    return { keyHash, itemKey, keyValue: key.value, data, hash: contentHash(data) };
  };
  const reported = (failure: Failure): null => {
    fail(failure);
    return null;
  };

  /**
   * A batch of prepared items: what the scraper wrote for their keys read in one query, their
   * documents found in one (`documentsByKey`), then each created, updated or left alone; the
   * unchanged ones marked collected in one statement.
   */
  const writeBatch = async (batch: Prepared[]): Promise<void> => {
    if (batch.length === 0) return;
    const rows = (await entries()
      .where({ scraper_id: scraperId })
      .whereIn(
        'key_hash',
        batch.map((item) => item.keyHash)
      )
      .select('*')) as TargetEntry[];
    const entryBy = new Map(rows.map((row) => [row.key_hash, row]));
    const found = await documentsByKey(
      documents(),
      target.key,
      batch.map((item) => item.keyValue)
    );
    const unchanged: string[] = [];
    for (const item of batch) {
      const { keyHash, itemKey, data, hash } = item;
      try {
        const entry = entryBy.get(keyHash) ?? null;
        const documentId = await found(item.keyValue);
        if (!documentId) {
          // Owned before it exists: a run killed between the two takes the document up by its key next time.
          await record(keyHash, itemKey, { document_id: null, content_hash: null, owned: true });
          const created = (await documents().create({ data, ...publishing } as never)) as { documentId: string };
          await record(keyHash, itemKey, { document_id: created.documentId, content_hash: hash, owned: true });
          report.created += 1;
          await wrote(created.documentId, itemKey, 'created');
        } else if (entry?.document_id === documentId && entry.content_hash === hash) {
          unchanged.push(keyHash);
          report.unchanged += 1;
        } else {
          await documents().update({ documentId, data, ...publishing } as never);
          await record(keyHash, itemKey, { document_id: documentId, content_hash: hash, owned: entry ? toBool(entry.owned) : false });
          report.updated += 1;
          await wrote(documentId, itemKey, 'updated');
        }
      } catch (error) {
        if (unavailableDependency(error)) throw error;
        fail({ key: itemKey, ...refusalOf(error) });
      }
    }
    if (unchanged.length > 0)
      await entries().where({ scraper_id: scraperId }).whereIn('key_hash', unchanged).update({ last_run_id: runId, removed_run_id: null });
  };

  return {
    /** Keys this run collected so far. */
    collected: () => seen.size,

    /** What is left of the log of writes, once the run has written everything. */
    flushLog,

    /** Every item of the run, in the order it was collected; false when the run was stopped midway. */
    async writeAll(signal: AbortSignal): Promise<boolean> {
      let batch: Prepared[] = [];
      for await (const item of runResults(strapi, runId, READ_BATCH)) {
        if (signal.aborted) return false;
        const prepared = await prepare(item);
        if (prepared) batch.push(prepared);
        if (batch.length >= READ_BATCH) {
          await writeBatch(batch);
          batch = [];
        }
      }
      if (signal.aborted) return false;
      await writeBatch(batch);
      return !signal.aborted;
    },

    /** The documents this scraper created whose key this complete run did not collect, each once. */
    async removeGone(): Promise<void> {
      const gone = (await entries()
        .where({ scraper_id: scraperId, owned: true })
        .whereNull('removed_run_id')
        .whereNotNull('document_id')
        .where((where) => where.whereNull('last_run_id').orWhere('last_run_id', '<>', runId))
        .select('*')) as TargetEntry[];
      for (const entry of gone) {
        const documentId = entry.document_id as string;
        try {
          if (setting.removed === 'delete') {
            await documents().delete({ documentId } as never);
            await entries().where({ id: entry.id }).delete();
          } else {
            if (setting.removed === 'unpublish') await documents().unpublish({ documentId } as never);
            // Unpublished, it counts as changed when its key comes back, so `auto` publishes it again.
            const forget = setting.removed === 'unpublish' ? { content_hash: null } : {};
            await entries()
              .where({ id: entry.id })
              .update({ removed_run_id: runId, ...forget });
          }
          report.removed += 1;
          // A document kept as it was is not written; the report still counts it as gone.
          if (setting.removed !== 'keep') await wrote(documentId, entry.item_key, setting.removed === 'delete' ? 'deleted' : 'unpublished');
        } catch (error) {
          if (unavailableDependency(error)) throw error;
          fail({
            key: entry.item_key,
            field: null,
            reason: `not ${setting.removed === 'delete' ? 'deleted' : 'unpublished'}: ${(error as Error).message}`,
          });
        }
      }
    },
  };
}

/**
 * What the site said when it refused a document (its validation, a lifecycle's error, a unique
 * value taken): the attribute Strapi's validation errors name, and the message. Only the database
 * or Redis being away stops the run; anything else is this item's.
 */
function refusalOf(error: unknown): { field: string | null; reason: string } {
  const details = (error as { details?: { errors?: Array<{ path?: unknown; message?: unknown }> } }).details;
  const first = details?.errors?.[0];
  const field = Array.isArray(first?.path) && first.path.length > 0 ? first.path.map(String).join('.') : null;
  return { field, reason: typeof first?.message === 'string' ? first.message : (error as Error).message };
}

/** Run `work` outside any request's context (Strapi's typing says `run` returns nothing; it returns what `work` does). */
function outsideRequests<T>(strapi: Core.Strapi, work: () => Promise<T>): Promise<T> {
  const run = strapi.requestContext.run.bind(strapi.requestContext) as unknown as (
    context: unknown,
    callback: () => Promise<T>
  ) => Promise<T>;
  return run(undefined, work);
}
