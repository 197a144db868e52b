import type { Core } from '@strapi/strapi';
import { UIDS } from '../../../constants';
import { dialectOf, forUpdate, insertChunked, tableOf } from '../../../db';
import { documentId } from '../../../random';
import type { CrawlCallbacks } from './crawl';
import type { RunStatus } from './rows';

/** How often a running run tells the database it is alive, with its counts so far. */
const HEARTBEAT_MS = 1_000;
/** Items written together: a run's results go to the database in batches of this many. */
const RESULT_BATCH = 200;

/**
 * What a run records while it crawls: its items, written in batches, and a heartbeat each second
 * with its counts so far, which also notices a stop made on another instance (the row is no
 * longer running) and aborts the crawl. `stop` ends the heartbeat; `flush` writes what is buffered.
 */
export function recordRun(
  strapi: Core.Strapi,
  run: {
    runId: number;
    scraperId: number;
    controller: AbortController;
    pagesFetched: { inc(labels: { outcome: 'ok' | 'failed' }): void };
  }
) {
  const { runId, scraperId, controller } = run;
  const knex = () => strapi.db.connection;
  const runsTable = () => tableOf(strapi, UIDS.scraperRun);
  const resultsTable = () => tableOf(strapi, UIDS.scraperResult);
  const progress = { items: 0, pages: 0, failed: 0 };
  let buffer: Array<Record<string, unknown>> = [];

  // Written only while the run's row exists, holding it: a scraper deleted meanwhile (its consumer's
  // account closed, say) takes its runs' rows before its results, so it either waits for these to
  // commit and deletes them too, or has committed and they are dropped. The stop it broadcasts may
  // reach the instance running this crawl only after that delete.
  const flush = async (): Promise<void> => {
    const rows = buffer;
    buffer = [];
    if (rows.length === 0) return;
    await knex().transaction(async (trx) => {
      const alive = await forUpdate(trx(runsTable()).where({ id: runId }), dialectOf(strapi)).first('id');
      if (alive) await insertChunked(trx, resultsTable(), rows);
    });
  };

  const heartbeat = setInterval(() => {
    void (async () => {
      const current = (await knex()(runsTable()).select('status').where({ id: runId }).first()) as { status: RunStatus } | undefined;
      if (!current || current.status !== 'running') {
        controller.abort(new Error('stopped'));
        return;
      }
      await knex()(runsTable()).where({ id: runId, status: 'running' }).update({
        heartbeat_at: new Date(),
        items_collected: progress.items,
        pages_fetched: progress.pages,
        pages_failed: progress.failed,
      });
    })().catch((error: Error) => strapi.log.warn(`[api-suite] scrapers: heartbeat of run ${runId}: ${error.message}`));
  }, HEARTBEAT_MS);

  const callbacks: CrawlCallbacks = {
    onItems: async (items) => {
      const now = new Date();
      for (const item of items) {
        buffer.push({
          document_id: documentId(),
          scraper_id: scraperId,
          run_id: runId,
          url: item.url,
          data: JSON.stringify(item.data),
          created_at: now,
          updated_at: now,
          published_at: now,
        });
      }
      progress.items += items.length;
      if (buffer.length >= RESULT_BATCH) await flush();
    },
    onPage: (page) => {
      progress.pages += 1;
      if (!page.ok) progress.failed += 1;
      run.pagesFetched.inc({ outcome: page.ok ? 'ok' : 'failed' });
    },
  };

  return {
    progress,
    callbacks,
    flush,
    stop(): void {
      clearInterval(heartbeat);
    },
  };
}
