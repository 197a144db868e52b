import type { Core } from '@strapi/strapi';
import { UIDS } from '../../../constants';
import { deleteInChunks, dialectOf, lockedForPurge, purgeTransaction, tableOf } from '../../../db';
import type { NextBatch, Purger } from '../../retention/types';

/** Runs whose results may go: ended, one way or another. A pending or running run keeps its results. */
const ENDED = ['completed', 'failed', 'stopped'];
const SCRAPERS_A_PAGE = 200;

/**
 * The retention purge of scraper results: per scraper, the results of every ended run older than
 * its `RETENTION_SCRAPER_RUNS`-th newest completed run (0: every result is kept). The runs
 * themselves stay, with their counts (`items_collected`, pages, changes), so a scraper's history
 * is whole; only the collected items of old runs go, in batches of at most 5,000 rows.
 */
export function scraperResultsPurger(strapi: Core.Strapi): Purger {
  return {
    name: 'scraper results',
    kinds: ['scraper_results'],
    async open({ settings, batchRows }): Promise<NextBatch | null> {
      const keep = settings.scraperRuns;
      if (keep <= 0) return null;
      const knex = () => strapi.db.connection;
      const scrapers = tableOf(strapi, UIDS.scraper);
      const runs = tableOf(strapi, UIDS.scraperRun);
      const results = tableOf(strapi, UIDS.scraperResult);
      const client = dialectOf(strapi);
      let page: number[] = [];
      let lastScraper = 0;
      let exhausted = false;

      /** The next scraper with results to purge, and below which result id they lie; null after the last scraper. */
      const nextScraper = async (): Promise<{ scraperId: number; oldestKept: number; below: number | null } | null> => {
        for (;;) {
          if (page.length === 0) {
            if (exhausted) return null;
            page = (
              (await knex()(scrapers).select('id').where('id', '>', lastScraper).orderBy('id', 'asc').limit(SCRAPERS_A_PAGE)) as Array<{
                id: number;
              }>
            ).map((row) => Number(row.id));
            if (page.length < SCRAPERS_A_PAGE) exhausted = true;
            if (page.length === 0) return null;
          }
          const scraperId = page.shift() as number;
          lastScraper = scraperId;
          const kept = (await knex()(runs)
            .select('id')
            .where({ scraper_id: scraperId, status: 'completed' })
            .orderBy('id', 'desc')
            .offset(keep - 1)
            .first()) as { id: number } | undefined;
          if (!kept) continue;
          // A scraper's runs follow one another, so older runs' results were written before the kept run's
          // first: bounding the scan there stops it where the kept results begin (and, were two runs ever
          // to overlap, only keeps more).
          const first = (await knex()(results).where({ run_id: kept.id }).min({ id: 'id' }).first()) as { id: unknown } | undefined;
          return { scraperId, oldestKept: Number(kept.id), below: first?.id == null ? null : Number(first.id) };
        }
      };

      let current: Awaited<ReturnType<typeof nextScraper>> = null;
      return async () => {
        for (;;) {
          current ??= await nextScraper();
          if (!current) return null;
          const { scraperId, oldestKept, below } = current;
          const purged = await purgeTransaction(strapi.db.connection, async (trx) => {
            const query = trx(results)
              .select('id')
              .where('scraper_id', scraperId)
              .whereIn(
                'run_id',
                trx(runs).select('id').where('scraper_id', scraperId).andWhere('id', '<', oldestKept).whereIn('status', ENDED)
              )
              .orderBy('id', 'asc')
              .limit(batchRows);
            if (below !== null) void query.andWhere('id', '<', below);
            const ids = ((await lockedForPurge(query, client)) as Array<{ id: number }>).map((row) => row.id);
            if (ids.length === 0) return 0;
            return deleteInChunks(trx, results, 'id', ids);
          });
          // A short batch was this scraper's last.
          if (purged < batchRows) current = null;
          if (purged > 0) return { scraper_results: purged };
        }
      };
    },
  };
}
