import type { Core } from '@strapi/strapi';
import { UIDS } from '../../../constants';
import { dialectOf, insertReturningId, tableOf, type Knex } from '../../../db';
import { unavailableDependency } from '../../../dependencies';
import { DeferJobError, type Job } from '../../../jobs';
import { documentId } from '../../../random';
import { getConfig, getService } from '../../../utils';
import { changedPayload } from './change-detection';
import { createRunReads } from '../runs/reads';
import { claimRun } from '../runs/claim';
import { crawlScraper, type CrawlCallbacks } from '../runs/crawl';
import { recordRun } from '../runs/recording';
import { writeTarget } from '../target/write';
import { runPayload, type RunOutcome, type RunRow, type RunStatus } from '../runs/rows';
import type { CrawlSummary } from '../crawler';
import { SpanStatusCode, startSpan, withSpan } from '../../observability/tracing/context';
import { TICK_QUEUE, type ScraperRow } from './scrapers';
import type { RUN_EVENTS } from '../validation/responses';
import type { EventPayloads } from '../../webhooks/events/registry';

type RunEventName = (typeof RUN_EVENTS)[number];

export const RUN_QUEUE = 'scraper-runs';
const RUN_JOB = 'run';
/** A running run whose heartbeat is older than this lost its process. */
const STALE_AFTER_MS = 15_000;
const SWEEP_INTERVAL_MS = 10_000;
/** How soon a run that waits for its consumer's turn asks again: the delay a freed slot waits at most. */
const TURN_RETRY_MS = 500;
const INTERRUPTED = 'interrupted: the process running this run stopped before it finished (crash or restart)';

export class AlreadyRunningError extends Error {
  constructor(readonly runId: number | null) {
    super('A run of this scraper is already pending or running');
    this.name = 'AlreadyRunningError';
  }
}

/**
 * Runs: starting one is a compare-and-set on the scraper's status (idle → running) in the same
 * transaction that creates the run, so concurrent requests, a cron tick and a second instance
 * never start two. The run itself executes on the jobs port, writes results in batches as they
 * come, beats a heartbeat every second, and can be stopped from any instance within a second
 * (over Redis at once, else by the heartbeat reading the run's status).
 */
const runsService = ({ strapi }: { strapi: Core.Strapi }) => {
  const runsTable = () => tableOf(strapi, UIDS.scraperRun);
  const scrapersTable = () => tableOf(strapi, UIDS.scraper);
  const knex = () => strapi.db.connection;
  const jobs = () => getService(strapi, 'platform').jobs();
  const channel = () => `${getConfig(strapi).jobs.prefix}:scrapers:stop`;
  /** Runs executing in this process, by id. */
  const active = new Map<number, AbortController>();
  let sweeper: NodeJS.Timeout | undefined;
  let started = false;

  const metrics = getService(strapi, 'metrics');
  const runsEnded = metrics.counter({
    name: 'scraper_runs_total',
    help: 'Scraper runs ended, by status (completed, failed, stopped)',
    labelNames: ['status'],
  });
  const pagesFetched = metrics.counter({
    name: 'scraper_pages_total',
    help: "Pages this process's scraper runs fetched, by outcome (ok, failed)",
    labelNames: ['outcome'],
  });

  const abortLocally = (runId: number) => active.get(runId)?.abort(new Error('stopped'));

  const detection = () => getService(strapi, 'scraper-change-detection');

  const publish = async <T extends RunEventName>(
    scraper: Pick<ScraperRow, 'consumer_id'>,
    type: T,
    run: RunRow,
    payload: EventPayloads[T]
  ) => {
    try {
      await getService(strapi, 'webhooks').publish(type, payload, { consumerId: scraper.consumer_id });
    } catch (error) {
      strapi.log.error(`[api-suite] scrapers: ${type} for run ${run.id} not published: ${(error as Error).message}`);
    }
  };

  const service = {
    // Reading runs and results (`runs/reads.ts`).
    ...createRunReads(strapi),

    /** Start the worker, fail runs whose process died, restore schedules, and keep sweeping. */
    async start(): Promise<void> {
      if (started) return;
      started = true;
      const settings = getConfig(strapi).scrapers;
      const interrupted = await this.failInterrupted(jobs().driver === 'in-process');
      if (interrupted > 0) strapi.log.warn(`[api-suite] scrapers: marked ${interrupted} interrupted run(s) failed`);
      jobs().process<{ runId: number }>(RUN_QUEUE, (job) => this.execute(job), { concurrency: settings.concurrency });
      jobs().process<{ scraperId: number }>(TICK_QUEUE, (job) => this.tick(job.data.scraperId), { concurrency: 4 });
      // With BullMQ the schedules are set once Redis is connected (`watchQueue`).
      if (jobs().driver === 'in-process') {
        const schedules = await getService(strapi, 'scrapers').rebuildSchedules();
        if (schedules > 0) strapi.log.info(`[api-suite] scrapers: ${schedules} schedule(s) restored`);
      }
      const subscriber = getService(strapi, 'platform').subscriber('scrapers');
      if (subscriber) {
        subscriber.on('message', (_channel: string, message: string) => abortLocally(Number(message)));
        await subscriber.subscribe(channel());
      }
      sweeper = setInterval(() => {
        this.failInterrupted(false).catch((error: Error) => strapi.log.error(`[api-suite] scrapers: sweep failed: ${error.message}`));
      }, SWEEP_INTERVAL_MS);
      sweeper.unref();
    },

    running(): boolean {
      return started;
    },

    /**
     * Follow the jobs port's store (Redis): each time it is reachable again, every pending run's
     * job is enqueued (their ids make this idempotent: a run whose job is there is left alone), so
     * a run started while it was away, or whose job it lost, starts now. Schedules follow: all of
     * them when the store lost them or, in a scraper worker, on the first connection (as at boot);
     * else those changed while it was away.
     */
    watchQueue(): void {
      jobs().onRestored(({ lost, first }) => {
        const all = lost || (first && getConfig(strapi).scrapers.worker);
        Promise.all([this.requeuePending(), getService(strapi, 'scrapers').resyncSchedules(all)]).then(
          ([runs, schedules]) => {
            if (runs > 0) strapi.log.info(`[api-suite] scrapers: enqueued ${runs} pending run(s)`);
            if (schedules > 0) strapi.log.info(`[api-suite] scrapers: ${schedules} schedule(s) ${first ? 'restored' : 'set again'}`);
          },
          (error: Error) =>
            strapi.log.error(`[api-suite] scrapers: taking up runs and schedules after Redis came back failed: ${error.message}`)
        );
      });
    },

    /** Enqueue the job of every pending run (`watchQueue`). */
    async requeuePending(): Promise<number> {
      const rows = (await knex()(runsTable()).select('id').where({ status: 'pending' })) as Array<{ id: number }>;
      for (const row of rows) await jobs().enqueue(RUN_QUEUE, RUN_JOB, { runId: row.id }, { jobId: `run-${row.id}` });
      return rows.length;
    },

    async stop(): Promise<void> {
      if (sweeper) clearInterval(sweeper);
      sweeper = undefined;
      for (const controller of active.values()) controller.abort(new Error('shutting down'));
    },

    /**
     * Compare-and-set idle → running and the run's creation, in one transaction; then its job.
     * Throws AlreadyRunningError when a run is pending or running.
     */
    async begin(scraper: ScraperRow, trigger: 'manual' | 'schedule'): Promise<RunRow> {
      const now = new Date();
      const runId = await knex().transaction(async (trx) => {
        const claimed = await trx(scrapersTable()).where({ id: scraper.id, status: 'idle' }).update({ status: 'running', updated_at: now });
        if (claimed !== 1) return null;
        const id = await insertReturningId(trx, dialectOf(strapi), runsTable(), {
          document_id: documentId(),
          scraper_id: scraper.id,
          status: 'pending',
          trigger,
          items_collected: 0,
          pages_fetched: 0,
          pages_failed: 0,
          created_at: now,
          updated_at: now,
          published_at: now,
        });
        await trx(scrapersTable()).where({ id: scraper.id }).update({ current_run_id: id });
        return id;
      });
      if (runId === null) {
        const current = (await knex()(scrapersTable()).select('current_run_id').where({ id: scraper.id }).first()) as
          { current_run_id: number | null } | undefined;
        throw new AlreadyRunningError(current?.current_run_id ?? null);
      }
      // With Redis away the run waits as pending, and its job is enqueued once Redis is back (`watchQueue`).
      if (jobs().available()) {
        try {
          await jobs().enqueue(RUN_QUEUE, RUN_JOB, { runId }, { jobId: `run-${runId}` });
        } catch (error) {
          if (!unavailableDependency(error)) {
            await this.finish(runId, scraper.id, { status: 'failed', error: `could not be queued: ${(error as Error).message}` });
            throw error;
          }
          strapi.log.warn(`[api-suite] scrapers: run ${runId} waits for the queue (${(error as Error).message})`);
        }
      } else strapi.log.warn(`[api-suite] scrapers: run ${runId} waits for the queue (it is not connected)`);
      const run = await this.get(runId);
      if (!run) throw new Error('the new run could not be read back');
      return run;
    },

    /** A cron tick: start a run, or record that the scraper was busy. */
    async tick(scraperId: number): Promise<void> {
      const scraper = await getService(strapi, 'scrapers').get(scraperId);
      if (!scraper || !scraper.schedule) return;
      try {
        await this.begin(scraper, 'schedule');
      } catch (error) {
        if (!(error instanceof AlreadyRunningError)) throw error;
        await knex()(scrapersTable())
          .where({ id: scraperId })
          .update({ skipped_ticks: knex().raw('COALESCE(skipped_ticks, 0) + 1'), last_skipped_at: new Date() });
        strapi.log.info(`[api-suite] scrapers: scheduled run of scraper ${scraperId} skipped, run ${error.runId} still in progress`);
      }
    },

    /** The run job. */
    async execute(job: Job<{ runId: number }>): Promise<void> {
      const runId = job.data.runId;
      const claim = await this.claim(runId);
      // Its consumer has as many runs going as it may: the run stays pending, and the job goes back
      // to the queue so that this slot serves other consumers' runs meanwhile.
      if (claim === 'wait') throw new DeferJobError(TURN_RETRY_MS, `run ${runId} waits for its consumer's turn`);
      // Stopped or deleted before it began, or already taken up: nothing to do.
      if (claim === 'gone') return;
      const run = (await this.get(runId)) as RunRow;
      const scraper = await getService(strapi, 'scrapers').get(run.scraper_id);
      if (!scraper) return;
      await publish(scraper, 'run.started', run, runPayload(run));

      const controller = new AbortController();
      active.set(runId, controller);
      // Stopped, or deleted with its scraper, between its claim and now: a stop looks for the run
      // here, and found nothing yet. Read again now that it would find it, so no page is fetched.
      const still = await this.get(runId);
      if (still?.status !== 'running') controller.abort(new Error('stopped'));
      const recording = recordRun(strapi, { runId, scraperId: scraper.id, controller, pagesFetched });
      const progress = recording.progress;

      let summary: CrawlSummary | undefined;
      let crash: string | null = null;
      // The crawl's span (tracing on only): its page fetches and result writes are its children, one trace per run.
      const span = startSpan('scrapers.run', { 'api_suite.run_id': runId, 'api_suite.scraper_id': scraper.id });
      try {
        summary = await withSpan(span, () => this.crawlFor(scraper, controller.signal, recording.callbacks));
        await recording.flush();
        // A crawl that ran its course writes into the site's content, heartbeat still beating (a stop ends it midway).
        if (!controller.signal.aborted && !summary.startError)
          await withSpan(span, () =>
            writeTarget(strapi, scraper, runId, { signal: controller.signal, pagesFailed: summary?.pagesFailed ?? 0 })
          );
      } catch (error) {
        crash = (error as Error).message;
        await recording.flush().catch(() => undefined);
      } finally {
        recording.stop();
        active.delete(runId);
      }

      const stopped = controller.signal.aborted;
      const counts = {
        items_collected: progress.items,
        pages_fetched: summary?.pagesFetched ?? progress.pages,
        pages_failed: summary?.pagesFailed ?? progress.failed,
      };
      const outcome: { status: RunStatus; error: string | null } = stopped
        ? { status: 'stopped', error: null }
        : crash
          ? { status: 'failed', error: crash }
          : summary?.startError
            ? { status: 'failed', error: summary.startError }
            : { status: 'completed', error: null };
      if (span) {
        span.setAttributes({ 'api_suite.status': outcome.status, 'api_suite.pages_fetched': counts.pages_fetched });
        if (outcome.status === 'failed') span.setStatus({ code: SpanStatusCode.ERROR, message: outcome.error ?? 'failed' });
        span.end();
      }
      // Through change detection, which compares the run's items when this completes it.
      await detection().finishRun(scraper, runId, { ...outcome, ...counts });
      const finished = await this.get(runId);
      // Deleted with its scraper while it wound down: there is nobody left to tell.
      if (!finished) return;
      // A stop made elsewhere already answered; the event tells the final counts once the run has wound down.
      await publish(
        scraper,
        `run.${finished.status === 'running' ? outcome.status : finished.status}` as 'run.completed' | 'run.failed' | 'run.stopped',
        finished,
        runPayload(finished)
      );
      if (counts.items_collected > 0) await publish(scraper, 'results.created', finished, runPayload(finished));
      const changed = changedPayload(finished);
      if (changed) await publish(scraper, 'results.changed', finished, changed);
    },

    /** pending → running, or 'wait' for its consumer's turn, or 'gone' (`runs/claim.ts`). */
    claim(runId: number): Promise<'claimed' | 'wait' | 'gone'> {
      return claimRun(strapi, runId);
    },

    /** Crawl with the scraper's settings through the plugin's guarded outbound client (`runs/crawl.ts`). */
    crawlFor(scraper: ScraperRow, signal: AbortSignal, callbacks: CrawlCallbacks): Promise<CrawlSummary> {
      return crawlScraper(strapi, scraper, signal, callbacks);
    },

    /** Record the end of a run (unless a stop already did) and make its scraper idle again; `onCompleted` joins the transaction when this call completes the run. */
    async finish(runId: number, scraperId: number, outcome: RunOutcome, onCompleted?: (trx: Knex) => Promise<void>): Promise<void> {
      const now = new Date();
      const counts = Object.fromEntries(
        Object.entries({
          items_collected: outcome.items_collected,
          pages_fetched: outcome.pages_fetched,
          pages_failed: outcome.pages_failed,
        }).filter(([, value]) => value !== undefined)
      );
      let endedHere = false;
      await knex().transaction(async (trx) => {
        const ended = await trx(runsTable())
          .where({ id: runId })
          .whereIn('status', ['pending', 'running'])
          .update({ status: outcome.status, error: outcome.error ?? null, finished_at: now, updated_at: now, ...counts });
        // Stopped already: keep its status and time, record the final counts.
        if (ended === 0 && Object.keys(counts).length > 0) await trx(runsTable()).where({ id: runId }).update(counts);
        if (ended === 1 && outcome.status === 'completed' && onCompleted) await onCompleted(trx);
        endedHere = ended === 1;
        await trx(scrapersTable())
          .where({ id: scraperId, current_run_id: runId })
          .update({ status: 'idle', current_run_id: null, updated_at: now });
      });
      // Counted once it is recorded, by the call that ended it (a stop that came first counts it).
      if (endedHere) runsEnded.inc({ status: outcome.status });
    },

    /** Abort these runs' crawls, on whichever instance runs them (their rows already say why). */
    async abort(runIds: number[]): Promise<void> {
      for (const runId of runIds) {
        abortLocally(runId);
        await getService(strapi, 'platform').broadcast(channel(), String(runId));
      }
    },

    /** Stop the scraper's pending or running run; null when nothing runs. */
    async stopActive(scraperId: number, reason?: string): Promise<RunRow | null> {
      const scraper = (await knex()(scrapersTable()).select('current_run_id', 'consumer_id').where({ id: scraperId }).first()) as
        { current_run_id: number | null; consumer_id: string } | undefined;
      const runId = scraper?.current_run_id;
      if (!scraper || !runId) return null;
      const before = await this.get(runId);
      await this.finish(runId, scraperId, { status: 'stopped', error: reason ?? null });
      // Another process running it hears this at once, or, with Redis away, through the run's heartbeat within a second.
      await this.abort([runId]);
      const run = await this.get(runId);
      // A run that never began gets its event here; a running one sends it as it winds down.
      if (run && before?.status === 'pending') await publish(scraper, 'run.stopped', run, runPayload(run));
      return run;
    },

    /**
     * Runs whose process died: running with a stale heartbeat (any driver), and at boot with the
     * in-process driver every pending or running run (its job lived in the dead process). A pending
     * run is otherwise never taken for lost: it may be waiting for its consumer's turn, its job
     * deferred on the queue (BullMQ keeps that job across restarts).
     */
    async failInterrupted(atBootInProcess: boolean): Promise<number> {
      const staleBefore = new Date(Date.now() - STALE_AFTER_MS);
      const query = knex()(runsTable()).select('id', 'scraper_id');
      if (atBootInProcess) query.whereIn('status', ['pending', 'running']);
      else query.where({ status: 'running' }).where((where) => where.whereNull('heartbeat_at').orWhere('heartbeat_at', '<', staleBefore));
      const rows = (await query) as Array<{ id: number; scraper_id: number }>;
      for (const row of rows) {
        if (active.has(row.id)) continue;
        await this.finish(row.id, row.scraper_id, { status: 'failed', error: INTERRUPTED });
        const scraper = await getService(strapi, 'scrapers').get(row.scraper_id);
        const run = await this.get(row.id);
        if (scraper && run) await publish(scraper, 'run.failed', run, runPayload(run));
      }
      return rows.length;
    },
  };
  return service;
};

export { presentRun, type ResultFilter } from '../runs/reads';

export type ScraperRunsService = ReturnType<typeof runsService>;
export default runsService;
