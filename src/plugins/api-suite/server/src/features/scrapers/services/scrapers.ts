import type { Core } from '@strapi/strapi';
import { createTask } from 'node-cron';
import { UIDS, type Owner } from '../../../constants';
import { documentId } from '../../../random';
import { dialectOf, fromJson, insertReturningId, pageOwned, tableOf, toBool, toIso, toIsoRequired } from '../../../db';
import { unavailableDependency } from '../../../dependencies';
import { getService } from '../../../utils';
import type { CreateScraperBody, ScraperSelectors, UpdateScraperBody } from '../validation';
import type { Scraper } from '../validation/responses';
import { canonicalJson, type ChangeDetectionSetting } from '../content-hash';
import { SCRAPER_DEFAULTS } from '../../../../../shared/scraper-defaults';
import type { ScraperTargetSetting } from '../validation/requests';
import { forgetTargetEntries } from '../target/entries';

export interface ScraperRow {
  id: number;
  consumer_id: string;
  name: string;
  url: string;
  schedule: string | null;
  proxy_pool: string | null;
  rate_limit: number | null;
  headers: unknown;
  max_pages: number | null;
  follow_links: unknown;
  selectors: unknown;
  respect_robots_txt: unknown;
  change_detection: unknown;
  target: unknown;
  status: 'idle' | 'running';
  current_run_id: number | null;
  skipped_ticks: number | null;
  last_skipped_at: unknown;
  created_at: unknown;
  updated_at: unknown;
}

export { SCRAPER_DEFAULTS };
export const TICK_QUEUE = 'scraper-ticks';
const TICK_JOB = 'tick';

/**
 * Registered scrapers: their rows, and their schedules kept in step with every create, update
 * and delete (and rebuilt from the database at boot) on the jobs port, so that with Redis one
 * tick starts one run whichever instance takes it. While Redis is away a schedule change is
 * saved all the same and reaches the jobs port when it is back (`resyncSchedules`).
 */
const scrapersService = ({ strapi }: { strapi: Core.Strapi }) => {
  const table = () => tableOf(strapi, UIDS.scraper);
  const knex = () => strapi.db.connection;
  const jobs = () => getService(strapi, 'platform').jobs();
  /** Scrapers whose schedule changed while the jobs port was away: set from their rows when it is back. */
  const unsynced = new Set<number>();
  const postpone = (id: number, reason: string) => {
    if (unsynced.size === 0) strapi.log.warn(`[api-suite] scrapers: schedules follow once the queue is back (${reason})`);
    unsynced.add(id);
  };

  return {
    async create(consumerId: string, body: CreateScraperBody): Promise<ScraperRow> {
      const now = new Date();
      const id = await insertReturningId(knex(), dialectOf(strapi), table(), {
        document_id: documentId(),
        consumer_id: consumerId,
        name: body.name,
        url: body.url,
        schedule: body.schedule ?? null,
        proxy_pool: body.proxy_pool ?? null,
        rate_limit: body.rate_limit ?? SCRAPER_DEFAULTS.rate_limit,
        headers: JSON.stringify(body.headers ?? {}),
        max_pages: body.max_pages ?? SCRAPER_DEFAULTS.max_pages,
        follow_links: body.follow_links ?? SCRAPER_DEFAULTS.follow_links,
        selectors: body.selectors ? JSON.stringify(body.selectors) : null,
        respect_robots_txt: body.respect_robots_txt ?? SCRAPER_DEFAULTS.respect_robots_txt,
        change_detection: body.change_detection ? JSON.stringify(body.change_detection) : null,
        target: body.target ? JSON.stringify(body.target) : null,
        status: 'idle',
        skipped_ticks: 0,
        created_at: now,
        updated_at: now,
        published_at: now,
      });
      const row = await this.get(id);
      if (!row) throw new Error('the new scraper could not be read back');
      await this.syncSchedule(row);
      return row;
    },

    /** One consumer's scrapers, or every consumer's with `ALL_CONSUMERS`, newest first. */
    async list(owner: Owner, page: number, limit: number): Promise<{ rows: ScraperRow[]; total: number }> {
      return pageOwned<ScraperRow>(() => knex()(table()), owner, page, limit);
    },

    async get(id: number): Promise<ScraperRow | null> {
      return ((await knex()(table()).select('*').where({ id }).first()) as ScraperRow | undefined) ?? null;
    },

    async update(row: ScraperRow, body: UpdateScraperBody): Promise<ScraperRow> {
      const changes: Record<string, unknown> = { updated_at: new Date() };
      for (const key of [
        'name',
        'url',
        'schedule',
        'proxy_pool',
        'rate_limit',
        'max_pages',
        'follow_links',
        'respect_robots_txt',
      ] as const) {
        if (body[key] !== undefined) changes[key] = body[key];
      }
      if (body.headers !== undefined) changes.headers = JSON.stringify(body.headers);
      if (body.selectors !== undefined) changes.selectors = body.selectors === null ? null : JSON.stringify(body.selectors);
      // Turned off or keyed differently: the old state would compare the wrong keys, so it goes with the setting.
      const detection = getService(strapi, 'scraper-change-detection');
      const forget =
        body.change_detection !== undefined && canonicalJson(body.change_detection) !== canonicalJson(detection.settingOf(row));
      if (body.change_detection !== undefined)
        changes.change_detection = body.change_detection === null ? null : JSON.stringify(body.change_detection);
      if (body.target !== undefined) changes.target = body.target === null ? null : JSON.stringify(body.target);
      // Another type or key: what it wrote names documents the new target does not identify by that key.
      const forgetTarget =
        body.target !== undefined && !sameTargetDocuments(fromJson<TargetIdentity | null>(row.target, null), body.target);
      await knex().transaction(async (trx) => {
        await trx(table()).where({ id: row.id }).update(changes);
        if (forget) await detection.forget(row.id, trx);
        if (forgetTarget) await forgetTargetEntries(strapi, row.id, trx);
      });
      const updated = await this.get(row.id);
      if (!updated) throw new Error('the scraper disappeared while it was updated');
      if (body.schedule !== undefined) await this.syncSchedule(updated);
      return updated;
    },

    /** Stops its run, drops its schedule, and deletes it with its runs and results. */
    async remove(row: ScraperRow): Promise<void> {
      await this.unschedule(row.id);
      const runs = getService(strapi, 'scraper-runs');
      await runs.stopActive(row.id, 'the scraper was deleted');
      const started = await knex().transaction(async (trx) => {
        // The scraper first: a schedule tick starting a run at this moment claims the scraper's row
        // (`runs.begin`), so it either committed its run before this delete, and the runs' delete
        // below takes it, or waits for this transaction and finds no scraper. Deleted last, a run
        // begun between the two deletes outlived its scraper (seen in CI, closing an account whose
        // scraper ran every second).
        await trx(table()).where({ id: row.id }).delete();
        // A tick that fired before the unschedule may have begun a run since the stop.
        const live = (await trx(tableOf(strapi, UIDS.scraperRun))
          .where({ scraper_id: row.id })
          .whereIn('status', ['pending', 'running'])
          .select('id')) as Array<{ id: number }>;
        // Runs before results: a crawl still winding down on another instance writes its results
        // holding its run's row (`runs/recording.ts`), so this waits for that write and takes it.
        await trx(tableOf(strapi, UIDS.scraperRun)).where({ scraper_id: row.id }).delete();
        await trx(tableOf(strapi, UIDS.scraperResult)).where({ scraper_id: row.id }).delete();
        await getService(strapi, 'scraper-change-detection').forget(row.id, trx);
        // The documents it wrote are the site's content: they stay.
        await forgetTargetEntries(strapi, row.id, trx);
        await trx(tableOf(strapi, UIDS.scraperTargetWrite)).where({ scraper_id: row.id }).delete();
        return live.map(({ id }) => id);
      });
      // Its crawl, if it got that far, ends before the delete is answered.
      await runs.abort(started);
    },

    /**
     * The schedule on the jobs port follows the row: set, replaced or removed. With the jobs port
     * away (Redis) it follows once it is back: the row is what counts. false when postponed so.
     */
    async syncSchedule(row: Pick<ScraperRow, 'id' | 'schedule'>): Promise<boolean> {
      if (!row.schedule) return this.unschedule(row.id);
      if (!jobs().available()) {
        postpone(row.id, 'Redis is not connected');
        return false;
      }
      try {
        await jobs().schedule(TICK_QUEUE, scheduleId(row.id), { cron: row.schedule, name: TICK_JOB, data: { scraperId: row.id } });
        return true;
      } catch (error) {
        if (!unavailableDependency(error)) throw error;
        postpone(row.id, (error as Error).message);
        return false;
      }
    },

    /** Remove the scraper's schedule from the jobs port (postponed like `syncSchedule` while it is away). */
    async unschedule(id: number): Promise<boolean> {
      if (!jobs().available()) {
        postpone(id, 'Redis is not connected');
        return false;
      }
      try {
        await jobs().unschedule(TICK_QUEUE, scheduleId(id));
        return true;
      } catch (error) {
        if (!unavailableDependency(error)) throw error;
        postpone(id, (error as Error).message);
        return false;
      }
    },

    /**
     * The jobs port is (back) there: the schedules changed meanwhile follow their rows (a deleted
     * scraper's is removed), or with `all` every schedule is set from the database (the port lost
     * them, or this is its first connection). Answers how many were set.
     */
    async resyncSchedules(all: boolean): Promise<number> {
      const ids = [...unsynced];
      unsynced.clear();
      if (all) return this.rebuildSchedules();
      for (const id of ids) {
        const row = await this.get(id);
        await this.syncSchedule({ id, schedule: row?.schedule ?? null });
      }
      return ids.length;
    },

    /** Every schedule from the database (at boot, and when the jobs port lost them). */
    async rebuildSchedules(): Promise<number> {
      const rows = (await knex()(table()).select('id', 'schedule').whereNotNull('schedule')) as Array<Pick<ScraperRow, 'id' | 'schedule'>>;
      let count = 0;
      for (const row of rows) {
        try {
          if ((await this.syncSchedule(row)) && row.schedule) count += 1;
        } catch (error) {
          strapi.log.error(
            `[api-suite] scrapers: schedule of scraper ${row.id} ("${row.schedule}") not restored: ${(error as Error).message}`
          );
        }
      }
      return count;
    },

    /** A scraper as the API answers it (typed by the response schema, so the two cannot drift). */
    present(row: ScraperRow): Scraper {
      return {
        id: row.id,
        name: row.name,
        url: row.url,
        schedule: row.schedule ?? null,
        proxy_pool: row.proxy_pool ?? null,
        rate_limit: row.rate_limit ?? SCRAPER_DEFAULTS.rate_limit,
        headers: fromJson<Record<string, string>>(row.headers, {}),
        max_pages: row.max_pages ?? SCRAPER_DEFAULTS.max_pages,
        follow_links: toBool(row.follow_links),
        selectors: fromJson<ScraperSelectors | null>(row.selectors, null),
        respect_robots_txt: row.respect_robots_txt === null || row.respect_robots_txt === undefined ? true : toBool(row.respect_robots_txt),
        change_detection: fromJson<ChangeDetectionSetting | null>(row.change_detection, null),
        target: fromJson<ScraperTargetSetting | null>(row.target, null),
        status: row.status,
        next_run_at: nextRunAt(row.schedule),
        skipped_runs: row.skipped_ticks ?? 0,
        last_skipped_at: toIso(row.last_skipped_at),
        created_at: toIsoRequired(row.created_at, 'created_at'),
        updated_at: toIsoRequired(row.updated_at, 'updated_at'),
      };
    },
  };
};

type TargetIdentity = Pick<ScraperTargetSetting, 'type' | 'key'>;

function sameTargetDocuments(before: TargetIdentity | null, after: TargetIdentity | null): boolean {
  return before !== null && after !== null && before.type === after.type && before.key === after.key;
}

function scheduleId(id: number): string {
  return `scraper-${id}`;
}

/** The next tick of a cron expression, or null without one. */
export function nextRunAt(schedule: string | null | undefined): string | null {
  if (!schedule) return null;
  try {
    const task = createTask(schedule, () => undefined);
    try {
      // getNextRun() answers only for a started task; getNextRuns computes from the expression.
      return task.getNextRuns(1)[0]?.toISOString() ?? null;
    } finally {
      void task.destroy();
    }
  } catch {
    return null;
  }
}

export type ScrapersService = ReturnType<typeof scrapersService>;
export default scrapersService;
