import { randomUUID } from 'node:crypto';
import { schedule as scheduleCron, type ScheduledTask } from 'node-cron';
import {
  concurrencyOf,
  consoleLogger,
  DeferJobError,
  JobsClosedError,
  UnrecoverableJobError,
  type BackoffOptions,
  type CronSchedule,
  type JobDefinition,
  type JobHandler,
  type JobOptions,
  type JobsPort,
  type Logger,
  type ProcessOptions,
} from './types';
import { withInputChecks } from './checked';

/**
 * The jobs port inside this process: nothing to run beside Strapi, nothing survives a restart.
 * Waiting jobs run in enqueue order; delayed ones (first delay or backoff before a retry) sit on
 * unref'd timers, so a pending delay never keeps the process alive on its own.
 */
export function createInProcessJobs(options: { logger?: Logger } = {}): JobsPort {
  const logger = options.logger ?? consoleLogger;
  const queues = new Map<string, QueueState>();
  let closed = false;
  let closing: Promise<void> | undefined;

  function queueState(name: string): QueueState {
    let state = queues.get(name);
    if (!state) {
      state = { name, waiting: [], delayed: new Map(), active: new Map(), ids: new Set(), concurrency: 1, crons: new Map() };
      queues.set(name, state);
    }
    return state;
  }

  function ensureOpen(): void {
    if (closed) throw new JobsClosedError();
  }

  /** Adds a job unless one with its id is still pending; returns its id either way. */
  function add(state: QueueState, name: string, storedData: unknown, jobOptions: JobOptions | undefined): string {
    const id = jobOptions?.jobId ?? randomUUID();
    if (state.ids.has(id)) return id;
    const job: StoredJob = {
      id,
      name,
      data: storedData,
      attempt: 1,
      started: 0,
      attempts: jobOptions?.attempts ?? 1,
      backoff: jobOptions?.backoff,
    };
    state.ids.add(id);
    const delayMs = jobOptions?.delayMs ?? 0;
    if (delayMs > 0) delay(state, job, delayMs);
    else state.waiting.push(job);
    return id;
  }

  function delay(state: QueueState, job: StoredJob, delayMs: number): void {
    const entry: DelayedEntry = { job, timer: undefined };
    state.delayed.set(job.id, entry);
    armTimer(entry, Date.now() + delayMs, () => {
      state.delayed.delete(job.id);
      state.waiting.push(job);
      pump(state);
    });
  }

  function pump(state: QueueState): void {
    const handler = state.handler;
    if (!handler) return;
    while (!closed && state.active.size < state.concurrency && state.waiting.length > 0) {
      const job = state.waiting.shift() as StoredJob;
      // The job leaves `active` before a retry re-queues it, so no other run of it can be counted twice.
      const finish = (next: Next): void => {
        state.active.delete(job.id);
        if (next) retry(state, job, next.inMs, next.countsAsTry);
        pump(state);
      };
      state.active.set(
        job.id,
        runOnce(state, handler, job).then(finish, () => finish(undefined))
      );
    }
  }

  /** Runs one try; resolves with when to run the job again, or undefined when it is done with. */
  async function runOnce(state: QueueState, handler: JobHandler<unknown>, job: StoredJob): Promise<Next> {
    try {
      // A handler that throws before returning its promise must fail the job, not the pump.
      await Promise.resolve().then(() =>
        // Jobs of this driver die with their process: a run is never a stalled one taken up again,
        // so `started` is more than `attempt` only after deferrals, as on BullMQ.
        handler({
          id: job.id,
          queue: state.name,
          name: job.name,
          data: job.data,
          attempt: job.attempt,
          attempts: job.attempts,
          started: (job.started += 1),
        })
      );
      state.ids.delete(job.id);
      return undefined;
    } catch (error) {
      if (error instanceof DeferJobError) return { inMs: error.delayMs, countsAsTry: false };
      const label = `[jobs] ${state.name}/${job.name} ${job.id}`;
      const message = errorMessage(error);
      const unrecoverable = error instanceof UnrecoverableJobError;
      if (unrecoverable || job.attempt >= job.attempts) {
        state.ids.delete(job.id);
        logger.error(`${label} failed${unrecoverable ? ' (unrecoverable)' : ''} on try ${job.attempt} of ${job.attempts}: ${message}`);
        return undefined;
      }
      const waitMs = backoffDelayMs(job.backoff, job.attempt + 1);
      logger.warn(`${label} failed on try ${job.attempt} of ${job.attempts}, retrying in ${waitMs} ms: ${message}`);
      return { inMs: waitMs, countsAsTry: true };
    }
  }

  function retry(state: QueueState, job: StoredJob, waitMs: number, countsAsTry: boolean): void {
    if (closed) {
      // Nothing would run the retry; the feature takes the work up again from its records at boot.
      state.ids.delete(job.id);
      logger.warn(`[jobs] ${state.name}/${job.name} ${job.id}: retry dropped, the port is closing`);
      return;
    }
    if (countsAsTry) job.attempt += 1;
    if (waitMs > 0) delay(state, job, waitMs);
    else state.waiting.push(job);
  }

  return withInputChecks({
    driver: 'in-process',

    async enqueue<TData>(queue: string, name: string, data: TData, jobOptions?: JobOptions): Promise<string> {
      ensureOpen();
      const state = queueState(queue);
      const id = add(state, name, asStored(data), jobOptions);
      pump(state);
      return id;
    },

    async enqueueBulk<TData>(queue: string, jobs: JobDefinition<TData>[]): Promise<string[]> {
      ensureOpen();
      const stored = jobs.map((job) => ({ job, data: asStored(job.data) }));
      const state = queueState(queue);
      const ids = stored.map(({ job, data }) => add(state, job.name, data, job.options));
      pump(state);
      return ids;
    },

    process<TData>(queue: string, handler: JobHandler<TData>, processOptions?: ProcessOptions): void {
      ensureOpen();
      const concurrency = concurrencyOf(processOptions);
      const state = queueState(queue);
      if (state.handler) throw new Error(`queue "${queue}" already has a handler in this process`);
      state.handler = handler as JobHandler<unknown>;
      state.concurrency = concurrency;
      pump(state);
    },

    async cancel(queue: string, jobId: string): Promise<boolean> {
      ensureOpen();
      const state = queues.get(queue);
      if (!state) return false;
      const delayed = state.delayed.get(jobId);
      if (delayed) {
        clearTimeout(delayed.timer);
        state.delayed.delete(jobId);
        state.ids.delete(jobId);
        return true;
      }
      const index = state.waiting.findIndex((job) => job.id === jobId);
      if (index === -1) return false;
      state.waiting.splice(index, 1);
      state.ids.delete(jobId);
      return true;
    },

    async schedule(queue: string, scheduleId: string, cronSchedule: CronSchedule): Promise<void> {
      ensureOpen();
      const state = queueState(queue);
      const previous = state.crons.get(scheduleId);
      let lastTickId: string | undefined;
      const task = scheduleCron(
        cronSchedule.cron,
        () => {
          if (closed) return;
          // Like a BullMQ job scheduler, let at most one tick wait: no pile-up while nothing processes the queue.
          if (lastTickId !== undefined && state.waiting.some((job) => job.id === lastTickId)) {
            logger.debug?.(`[jobs] ${queue} schedule ${scheduleId}: previous tick still waiting, tick skipped`);
            return;
          }
          try {
            lastTickId = add(state, cronSchedule.name, asStored(cronSchedule.data), undefined);
            pump(state);
          } catch (error) {
            logger.error(`[jobs] ${queue} schedule ${scheduleId}: could not enqueue its tick: ${errorMessage(error)}`);
          }
        },
        { timezone: cronSchedule.timezone, name: `api-suite:${queue}:${scheduleId}`, logger: cronLogger(logger) }
      );
      state.crons.set(scheduleId, task);
      await previous?.destroy();
    },

    async unschedule(queue: string, scheduleId: string): Promise<boolean> {
      ensureOpen();
      const crons = queues.get(queue)?.crons;
      const task = crons?.get(scheduleId);
      if (!crons || !task) return false;
      crons.delete(scheduleId);
      await task.destroy();
      return true;
    },

    async counts(queue: string): Promise<{ waiting: number; delayed: number; active: number }> {
      ensureOpen();
      const state = queues.get(queue);
      if (!state) return { waiting: 0, delayed: 0, active: 0 };
      return { waiting: state.waiting.length, delayed: state.delayed.size, active: state.active.size };
    },

    queueNames(): string[] {
      return [...queues.keys()];
    },

    available(): boolean {
      return !closed;
    },

    onRestored(): void {
      // The queues live in this process: they are never away and come back only with a new process.
    },

    close(timeoutMs = 10_000): Promise<void> {
      closing ??= closeAll(timeoutMs);
      return closing;
    },
  });

  async function closeAll(timeoutMs: number): Promise<void> {
    closed = true;
    const running: Promise<void>[] = [];
    for (const state of queues.values()) {
      for (const task of state.crons.values()) await task.destroy();
      state.crons.clear();
      for (const { timer } of state.delayed.values()) clearTimeout(timer);
      if (state.waiting.length + state.delayed.size > 0) {
        logger.info(`[jobs] ${state.name}: ${state.waiting.length + state.delayed.size} pending job(s) dropped at close`);
      }
      running.push(...state.active.values());
    }
    if (running.length === 0) return;
    let timer: NodeJS.Timeout | undefined;
    const finished = await Promise.race([
      Promise.allSettled(running).then(() => true),
      new Promise<false>((resolve) => {
        timer = setTimeout(() => resolve(false), timeoutMs);
      }),
    ]);
    clearTimeout(timer);
    if (!finished) {
      const left = [...queues.values()].reduce((sum, state) => sum + state.active.size, 0);
      logger.warn(`[jobs] closed after ${timeoutMs} ms with ${left} job(s) still running`);
    }
  }
}

/** When to run a job again (a retry, or a deferral that costs no try); undefined: done with. */
type Next = { inMs: number; countsAsTry: boolean } | undefined;

interface StoredJob {
  id: string;
  name: string;
  data: unknown;
  /** The try about to run, 1 on the first. */
  attempt: number;
  /** Times the job has been handed to its handler (tries and deferred runs). */
  started: number;
  attempts: number;
  backoff: BackoffOptions | undefined;
}

interface DelayedEntry {
  job: StoredJob;
  timer: NodeJS.Timeout | undefined;
}

interface QueueState {
  name: string;
  waiting: StoredJob[];
  delayed: Map<string, DelayedEntry>;
  /** Running jobs and the promise that settles when each is done with. */
  active: Map<string, Promise<void>>;
  /** Ids of every waiting, delayed or active job: the de-duplication set. */
  ids: Set<string>;
  handler?: JobHandler<unknown>;
  concurrency: number;
  crons: Map<string, ScheduledTask>;
}

/** setTimeout fires at once past 2^31-1 ms (about 24.8 days), so long delays re-arm in steps. */
const MAX_TIMER_MS = 2_147_483_647;

function armTimer(entry: DelayedEntry, dueAt: number, fire: () => void): void {
  const waitMs = dueAt - Date.now();
  if (waitMs > MAX_TIMER_MS) {
    entry.timer = setTimeout(() => armTimer(entry, dueAt, fire), MAX_TIMER_MS);
  } else {
    entry.timer = setTimeout(fire, Math.max(0, waitMs));
  }
  entry.timer.unref();
}

/** The wait before try `nextAttempt` (2 or more), as BullMQ computes it. */
function backoffDelayMs(backoff: BackoffOptions | undefined, nextAttempt: number): number {
  if (!backoff) return 0;
  return backoff.type === 'fixed' ? backoff.delayMs : backoff.delayMs * 2 ** (nextAttempt - 2);
}

/**
 * BullMQ stores job data as JSON, so handlers there get a copy with Dates as strings and
 * `undefined` as `{}`. Doing the same here keeps a feature from depending on what only this
 * driver preserves, and from seeing later changes the caller makes to the object it enqueued.
 */
function asStored(data: unknown): unknown {
  const json = JSON.stringify(data === undefined ? {} : data);
  return json === undefined ? {} : (JSON.parse(json) as unknown);
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** node-cron's logger also takes Error objects; ours takes strings. */
function cronLogger(logger: Logger): {
  info(message: string): void;
  warn(message: string): void;
  error(message: string | Error, err?: Error): void;
  debug(message: string | Error, err?: Error): void;
} {
  const text = (message: string | Error, err?: Error): string => `[jobs] cron: ${errorMessage(message)}${err ? `: ${err.message}` : ''}`;
  return {
    info: (message) => logger.info(text(message)),
    warn: (message) => logger.warn(text(message)),
    error: (message, err) => logger.error(text(message, err)),
    debug: (message, err) => logger.debug?.(text(message, err)),
  };
}
