import type { Core } from '@strapi/strapi';
import { UIDS } from '../../../constants';
import { fromJson, tableOf, toCount, toIso, toIsoRequired } from '../../../db';
import type { ScraperResult, ScraperRun, TargetReport } from '../validation/responses';
import type { Change } from '../services/change-detection';
import type { RunRow } from './rows';

/**
 * The read side of runs: a run, a scraper's runs, and its results as the API and the admin panel
 * list and export them. Part of the `scraper-runs` service (`services/runs.ts` spreads it in).
 */
export function createRunReads(strapi: Core.Strapi) {
  const runsTable = () => tableOf(strapi, UIDS.scraperRun);
  const resultsTable = () => tableOf(strapi, UIDS.scraperResult);
  const knex = () => strapi.db.connection;

  /** A scraper's results, narrowed by the filter. */
  const resultsOf = (scraperId: number, filter: ResultFilter) => {
    const query = knex()(resultsTable()).where({ scraper_id: scraperId });
    if (filter.runId !== undefined) query.where({ run_id: filter.runId });
    if (filter.change !== undefined) query.whereIn('change', filter.change);
    return query;
  };

  return {
    async get(id: number): Promise<RunRow | null> {
      return ((await knex()(runsTable()).select('*').where({ id }).first()) as RunRow | undefined) ?? null;
    },

    async latest(scraperId: number): Promise<RunRow | null> {
      return (
        ((await knex()(runsTable()).select('*').where({ scraper_id: scraperId }).orderBy('id', 'desc').first()) as RunRow | undefined) ??
        null
      );
    },

    /** The latest run of each of several scrapers, in one query (the admin panel's list). */
    async latestOf(scraperIds: number[]): Promise<Map<number, RunRow>> {
      if (scraperIds.length === 0) return new Map();
      const latestIds = knex()(runsTable()).max('id').whereIn('scraper_id', scraperIds).groupBy('scraper_id');
      const rows = (await knex()(runsTable()).select('*').whereIn('id', latestIds)) as RunRow[];
      return new Map(rows.map((row) => [row.scraper_id, row]));
    },

    async list(scraperId: number, page: number, limit: number): Promise<{ rows: RunRow[]; total: number }> {
      const [rows, counted] = await Promise.all([
        knex()(runsTable())
          .select('*')
          .where({ scraper_id: scraperId })
          .orderBy('id', 'desc')
          .limit(limit)
          .offset((page - 1) * limit),
        knex()(runsTable()).where({ scraper_id: scraperId }).count({ count: '*' }).first(),
      ]);
      return { rows: rows as RunRow[], total: toCount((counted as { count?: unknown } | undefined)?.count) };
    },

    async results(scraperId: number, options: ResultFilter & { page: number; limit: number }) {
      const scoped = () => resultsOf(scraperId, options);
      const [rows, counted] = await Promise.all([
        scoped()
          .select(...RESULT_COLUMNS)
          .orderBy('id', 'asc')
          .limit(options.limit)
          .offset((options.page - 1) * options.limit),
        scoped().count({ count: '*' }).first(),
      ]);
      return { rows: (rows as ResultRow[]).map(presentResult), total: toCount((counted as { count?: unknown } | undefined)?.count) };
    },

    /** Every matching result, in id order, a page at a time (for streaming exports). */
    async *allResults(scraperId: number, filter: ResultFilter = {}): AsyncGenerator<ScraperResult> {
      let lastId = 0;
      for (;;) {
        const query = resultsOf(scraperId, filter)
          .select(...RESULT_COLUMNS)
          .where('id', '>', lastId);
        const rows = (await query.orderBy('id', 'asc').limit(1000)) as ResultRow[];
        for (const row of rows) yield presentResult(row);
        if (rows.length < 1000) return;
        lastId = rows[rows.length - 1].id;
      }
    },
  };
}

interface ResultRow {
  id: number;
  run_id: number;
  url: string;
  data: unknown;
  change: Change | null;
  created_at: unknown;
}

/** Which results a list or export covers: one run's, and those whose change is one of these. */
export interface ResultFilter {
  runId?: number;
  change?: Change[];
}

const RESULT_COLUMNS = ['id', 'run_id', 'url', 'data', 'change', 'created_at'];

function presentResult(row: ResultRow): ScraperResult {
  return {
    id: row.id,
    run_id: row.run_id,
    url: row.url,
    data: fromJson<Record<string, unknown>>(row.data, {}),
    change: row.change ?? null,
    created_at: toIsoRequired(row.created_at, 'created_at'),
  };
}

export function presentRun(run: RunRow): ScraperRun {
  return {
    id: run.id,
    scraper_id: run.scraper_id,
    status: run.status,
    trigger: run.trigger,
    started_at: toIso(run.started_at),
    finished_at: toIso(run.finished_at),
    items_collected: run.items_collected ?? 0,
    pages_fetched: run.pages_fetched ?? 0,
    pages_failed: run.pages_failed ?? 0,
    items_new: run.items_new ?? null,
    items_changed: run.items_changed ?? null,
    items_removed: run.items_removed ?? null,
    target_report: fromJson<TargetReport | null>(run.target_report, null),
    error: run.error ?? null,
    created_at: toIsoRequired(run.created_at, 'created_at'),
  };
}
