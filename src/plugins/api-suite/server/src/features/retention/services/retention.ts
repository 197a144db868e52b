import type { Core } from '@strapi/strapi';
import { UIDS } from '../../../constants';
import { tableOf, toDate } from '../../../db';
import { getConfig, getService } from '../../../utils';
import { createDatabaseGuard, createRedisGuard, type PurgeGuard } from '../guard';
import { PURGE_BATCH_ROWS, type PurgedKind, type Purger } from '../types';

/** What one purge did. */
export interface PurgeSummary {
  /** false when another instance held the lease (or this one is stopping): nothing was purged. */
  ran: boolean;
  purged: Record<PurgedKind, number>;
  /** The purge stopped before the end: the lease was lost or the process is stopping. The next round goes on. */
  interrupted: boolean;
  seconds: number;
}

const STATE_NAME = 'retention';
/** How soon an instance looks again after a round another instance held, or that failed. */
const RECHECK_MS = 60_000;
/** setTimeout's longest wait. */
const MAX_TIMEOUT_MS = 2_147_000_000;

/**
 * Records kept only as long as they are needed (docs/operations.md#data-kept-as-long-as-it-is-needed).
 * Features register what they purge (`add`, at register time); this service runs the purge every
 * `RETENTION_PURGE_SECONDS` and at boot when one is due, on one instance at a time (a lease in
 * Redis when there is one, else in the database), in batches of at most 5,000 rows with a turn of
 * the event loop between them, so requests and deliveries keep going while it runs.
 */
const retentionService = ({ strapi }: { strapi: Core.Strapi }) => {
  const purgers: Purger[] = [];
  const table = () => tableOf(strapi, UIDS.retentionState);
  let guard: PurgeGuard | undefined;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<PurgeSummary> | null = null;
  let stopping = false;
  const counter = getService(strapi, 'metrics').counter({
    name: 'purged_rows_total',
    help: 'Rows the retention purge deleted, by kind (each feature names the kinds it purges: webhook_deliveries, usage_records, …)',
    labelNames: ['kind'],
  });
  /** Every kind the registered purgers report, in their order. */
  const kinds = (): PurgedKind[] => purgers.flatMap((purger) => purger.kinds);

  const guardOf = (): PurgeGuard => {
    if (!guard) {
      const redis = getService(strapi, 'platform').redis();
      guard = redis
        ? createRedisGuard(redis, `${getConfig(strapi).jobs.prefix}:retention:lease`)
        : createDatabaseGuard(() => strapi.db.connection, table(), STATE_NAME);
    }
    return guard;
  };

  let stateReady = false;
  /** The purge's row, made once per database by whichever instance gets there first. */
  const ensureState = async (): Promise<void> => {
    if (stateReady) return;
    await strapi.db.connection(table()).insert({ name: STATE_NAME }).onConflict('name').ignore();
    stateReady = true;
  };

  const lastFinished = async (): Promise<Date | null> => {
    const row = (await strapi.db.connection(table()).where({ name: STATE_NAME }).first('last_finished_at')) as
      { last_finished_at: unknown } | undefined;
    return toDate(row?.last_finished_at);
  };

  const runOnce = async (): Promise<PurgeSummary> => {
    const started = Date.now();
    const purged: Record<PurgedKind, number> = Object.fromEntries(kinds().map((kind) => [kind, 0]));
    if (stopping) return { ran: false, purged, interrupted: false, seconds: 0 };
    await ensureState();
    const lease = await guardOf().acquire();
    if (!lease) return { ran: false, purged, interrupted: false, seconds: 0 };
    let interrupted = false;
    try {
      const now = new Date();
      await strapi.db.connection(table()).where({ name: STATE_NAME }).update({ last_started_at: now });
      const context = { now, settings: getConfig(strapi).retention, batchRows: PURGE_BATCH_ROWS };
      for (const purger of purgers) {
        const next = await purger.open(context);
        while (next) {
          if (stopping || lease.lost) {
            interrupted = true;
            break;
          }
          const batch = await next();
          if (!batch) break;
          for (const [kind, rows] of Object.entries(batch) as Array<[PurgedKind, number]>) {
            if (rows <= 0) continue;
            purged[kind] = (purged[kind] ?? 0) + rows;
            counter.inc({ kind }, rows);
          }
          // A turn of the event loop between batches: requests and deliveries of this process go on meanwhile.
          await new Promise((resolve) => setImmediate(resolve));
        }
        if (interrupted) break;
      }
      if (!interrupted) await strapi.db.connection(table()).where({ name: STATE_NAME }).update({ last_finished_at: new Date() });
    } finally {
      await lease.release().catch((error: Error) => strapi.log.warn(`[api-suite] retention: lease not released: ${error.message}`));
    }
    const seconds = (Date.now() - started) / 1000;
    const total = Object.values(purged).reduce((sum, rows) => sum + rows, 0);
    const line = `[api-suite] retention: purged ${total} rows in ${seconds.toFixed(1)} s (${Object.entries(purged)
      .map(([kind, rows]) => `${kind} ${rows}`)
      .join(', ')})${interrupted ? ', stopped early: the rest is left to the next purge' : ''}`;
    if (total > 0 || interrupted) strapi.log.info(line);
    else strapi.log.debug(line);
    return { ran: true, purged, interrupted, seconds };
  };

  /** Wait until the next purge is due (now, when none has finished within the interval) and run it, then again. */
  const schedule = async (atLeastMs = 0): Promise<void> => {
    if (stopping) return;
    const everyMs = getConfig(strapi).retention.purgeSeconds * 1000;
    let waitMs: number;
    try {
      await ensureState();
      const last = await lastFinished();
      waitMs = Math.max(atLeastMs, last ? last.getTime() + everyMs - Date.now() : 0);
    } catch (error) {
      strapi.log.warn(`[api-suite] retention: could not read when the last purge ran: ${(error as Error).message}`);
      waitMs = Math.max(atLeastMs, Math.min(everyMs, RECHECK_MS));
    }
    if (stopping) return;
    timer = setTimeout(() => void tick(), Math.min(waitMs, MAX_TIMEOUT_MS));
    timer.unref();
  };

  const tick = async (): Promise<void> => {
    timer = null;
    const everyMs = getConfig(strapi).retention.purgeSeconds * 1000;
    let summary: PurgeSummary | null = null;
    try {
      summary = await service.purge();
    } catch (error) {
      strapi.log.error(`[api-suite] retention: purge failed: ${(error as Error).message}`);
    }
    // Held by another instance, failed or cut short: look again soon (a killed holder's lease lapses within a minute).
    await schedule(summary?.ran && !summary.interrupted ? 0 : Math.min(everyMs, RECHECK_MS));
  };

  const service = {
    /** Register a kind of record to purge (features call it at register time). */
    add(purger: Purger): void {
      if (purgers.some((known) => known.name === purger.name))
        throw new Error(`api-suite: a purger named "${purger.name}" is registered twice`);
      const taken = purger.kinds.filter((kind) => kinds().includes(kind));
      if (taken.length > 0)
        throw new Error(`api-suite: the purger "${purger.name}" reports kinds another purger reports: ${taken.join(', ')}`);
      purgers.push(purger);
      // Each kind is on /metrics from the start, at 0, so a dashboard's rate has a series before the first purge.
      for (const kind of purger.kinds) counter.inc({ kind }, 0);
    },

    /** Purge now, if no other instance is purging; resolves with what was deleted. A second call meanwhile shares the first. */
    purge(): Promise<PurgeSummary> {
      running ??= runOnce().finally(() => {
        running = null;
      });
      return running;
    },

    /** Start purging: at once if one is due, then every `RETENTION_PURGE_SECONDS`. */
    start(): void {
      stopping = false;
      void schedule();
    },

    async stop(): Promise<void> {
      stopping = true;
      if (timer) clearTimeout(timer);
      timer = null;
      await running?.catch(() => undefined);
    },
  };
  return service;
};

export type RetentionService = ReturnType<typeof retentionService>;
export default retentionService;
