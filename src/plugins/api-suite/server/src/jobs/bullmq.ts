import { randomUUID } from 'node:crypto';
import { DelayedError, Queue, UnrecoverableError, Worker, type Job as BullJob, type JobsOptions } from 'bullmq';
import { Redis } from 'ioredis';
import {
  concurrencyOf,
  consoleLogger,
  JobsClosedError,
  DeferJobError,
  UnrecoverableJobError,
  type BulkOptions,
  type CronSchedule,
  type JobDefinition,
  type JobHandler,
  type JobOptions,
  type JobsPort,
  type Logger,
  type ProcessOptions,
  type StoreRestored,
} from './types';
import { withInputChecks } from './checked';

/**
 * The jobs port on BullMQ: queues live in Redis under `prefix`, so every Strapi instance pointed
 * at the same Redis and prefix shares them, and waiting work survives restarts.
 *
 * Connections: one shared ioredis client for every Queue (commands only), and two per Worker (commands
 * and blocking reads) that the Worker opens and closes itself. Nothing connects until first used.
 *
 * While Redis is away the queues' client fails at once rather than holding commands until it is
 * back (no offline queue, one retry for a command caught in flight): callers keep their work in the
 * database and enqueue it from `onRestored`. Each time that client is ready, a marker key tells
 * whether Redis still holds this prefix's jobs: a Redis restarted without persistence comes back
 * without it, and the first instance to see that is told the jobs were lost.
 */
export function createBullmqJobs(options: { redisUrl: string; prefix: string; logger?: Logger }): JobsPort {
  const { redisUrl, prefix } = options;
  const logger = options.logger ?? consoleLogger;
  const queues = new Map<string, Queue<unknown, void>>();
  const workers = new Map<string, Worker<unknown, void>>();
  let queueConnection: Redis | undefined;
  let closed = false;
  let closing: Promise<void> | undefined;
  const reportError = errorReporter(logger);
  const restoredListeners: Array<(restored: StoreRestored) => void> = [];
  /** What the first connection found, for listeners added after it. */
  let firstRestore: StoreRestored | undefined;

  function ensureOpen(): void {
    if (closed) throw new JobsClosedError();
  }

  function connection(): Redis {
    if (!queueConnection) {
      const client = new Redis(redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1 });
      client.on('error', (error: Error) => reportError('queue connection', error));
      client.on('ready', () => void noticeReady(client));
      queueConnection = client;
    }
    return queueConnection;
  }

  /** The store is reachable (again): whether it kept this prefix's jobs, told to the listeners. */
  async function noticeReady(client: Redis): Promise<void> {
    let lost: boolean;
    try {
      lost = (await client.set(storeMarker(prefix), new Date().toISOString(), 'NX')) === 'OK';
    } catch (error) {
      // Gone again already: the next 'ready' asks again.
      reportError('queue connection', error as Error);
      return;
    }
    const restored: StoreRestored = { lost, first: firstRestore === undefined };
    firstRestore ??= restored;
    if (lost && !restored.first) {
      logger.warn(`[jobs] Redis is back without the jobs it held (prefix ${prefix}): pending work is enqueued again from the database`);
    } else if (lost) {
      logger.info(`[jobs] Redis holds no jobs of prefix ${prefix} yet: pending work recorded in the database is enqueued`);
    } else if (!restored.first) {
      logger.info(`[jobs] Redis is back with its jobs (prefix ${prefix})`);
    }
    for (const listener of restoredListeners) tell(listener, restored);
  }

  function tell(listener: (restored: StoreRestored) => void, restored: StoreRestored): void {
    try {
      listener(restored);
    } catch (error) {
      logger.error(`[jobs] a listener of the restored store failed: ${(error as Error).message}`);
    }
  }

  function getQueue(name: string): Queue<unknown, void> {
    let queue = queues.get(name);
    if (!queue) {
      queue = new Queue<unknown, void>(name, { connection: connection(), prefix });
      // An EventEmitter 'error' without a listener would crash the process.
      queue.on('error', (error: Error) => reportError(`queue ${name}`, error));
      queues.set(name, queue);
    }
    return queue;
  }

  /**
   * The port de-duplicates only while a job is waiting, delayed or active; BullMQ refuses an id as
   * long as the job exists, and failed jobs are kept for inspection. Drop finished ones first.
   */
  async function releaseFinishedIds(queue: Queue<unknown, void>, ids: string[]): Promise<void> {
    await Promise.all(
      ids.map(async (id) => {
        const state = await queue.getJobState(id);
        if (state === 'completed' || state === 'failed') await queue.remove(id);
      })
    );
  }

  async function closeAll(timeoutMs: number): Promise<void> {
    closed = true;
    // Worker.close stops fetching at once, waits for the jobs it is running, then closes its connections.
    const stopped = await settlesWithin(Promise.allSettled([...workers.values()].map((worker) => worker.close())), timeoutMs);
    if (!stopped) {
      // Those workers finish closing in the background once their jobs end. Cutting their connections
      // instead would not stop the handlers, and BullMQ 5 then retries the job's completion in a loop
      // that never yields. If the process exits first, the jobs' locks expire and another instance
      // takes them up again as stalled.
      logger.warn(`[jobs] closed after ${timeoutMs} ms with job(s) still running`);
    }
    await Promise.allSettled([...queues.values()].map((queue) => queue.close()));
    if (queueConnection) await release(queueConnection);
  }

  return withInputChecks({
    driver: 'bullmq',

    async enqueue<TData>(queueName: string, name: string, data: TData, jobOptions?: JobOptions): Promise<string> {
      ensureOpen();
      const queue = getQueue(queueName);
      const id = jobOptions?.jobId ?? randomUUID();
      if (jobOptions?.jobId !== undefined) await releaseFinishedIds(queue, [id]);
      await queue.add(name, data, toBullOptions(id, jobOptions));
      return id;
    },

    async enqueueBulk<TData>(queueName: string, jobs: JobDefinition<TData>[], bulkOptions?: BulkOptions): Promise<string[]> {
      ensureOpen();
      if (jobs.length === 0) return [];
      const queue = getQueue(queueName);
      const ids = jobs.map((job) => job.options?.jobId ?? randomUUID());
      const chosenIds = jobs.flatMap((job) => (job.options?.jobId !== undefined ? [job.options.jobId] : []));
      if (chosenIds.length > 0 && !bulkOptions?.freshIds) await releaseFinishedIds(queue, [...new Set(chosenIds)]);
      await queue.addBulk(jobs.map((job, i) => ({ name: job.name, data: job.data, opts: toBullOptions(ids[i], job.options) })));
      return ids;
    },

    process<TData>(queueName: string, handler: JobHandler<TData>, processOptions?: ProcessOptions): void {
      ensureOpen();
      const concurrency = concurrencyOf(processOptions);
      if (workers.has(queueName)) throw new Error(`queue "${queueName}" already has a handler in this process`);
      const worker = new Worker<unknown, void>(
        queueName,
        (job, token) => runHandler(queueName, handler as JobHandler<unknown>, job, token, logger),
        // Options rather than a client, so that the Worker owns (and closes) its connections. Its
        // blocking reads must wait for Redis indefinitely rather than fail after a few retries,
        // and it reconnects within 2 s of Redis's return however long it was away (BullMQ's own
        // strategy backs off to 20 s), retrying a failed fetch as soon (its default waits 15 s).
        {
          connection: { url: redisUrl, maxRetriesPerRequest: null, retryStrategy: reconnectDelay },
          runRetryDelay: 2_000,
          prefix,
          concurrency,
          // A job whose process died (SIGKILL, power loss) is taken up again once its lock lapses
          // and the next stalled check runs: within about 20 s rather than BullMQ's default 60.
          lockDuration: 15_000,
          stalledInterval: 5_000,
        }
      );
      // BullMQ forwards its connections' errors here; an 'error' without a listener would crash the process.
      worker.on('error', (error: Error) => reportError(`worker ${queueName}`, error));
      workers.set(queueName, worker);
    },

    async cancel(queueName: string, jobId: string): Promise<boolean> {
      ensureOpen();
      const queue = getQueue(queueName);
      const state: string = await queue.getJobState(jobId);
      if (!CANCELLABLE_STATES.has(state)) return false;
      // 0 when a worker took the job (and locked it) since the state was read.
      return (await queue.remove(jobId)) === 1;
    },

    async schedule(queueName: string, scheduleId: string, cronSchedule: CronSchedule): Promise<void> {
      ensureOpen();
      const { cron, timezone, name, data } = cronSchedule;
      await getQueue(queueName).upsertJobScheduler(
        scheduleId,
        timezone === undefined ? { pattern: cron } : { pattern: cron, tz: timezone },
        { name, data, opts: { removeOnComplete: true, removeOnFail: FAILED_JOBS_KEPT } }
      );
    },

    async unschedule(queueName: string, scheduleId: string): Promise<boolean> {
      ensureOpen();
      return getQueue(queueName).removeJobScheduler(scheduleId);
    },

    async counts(queueName: string): Promise<{ waiting: number; delayed: number; active: number }> {
      ensureOpen();
      const counts = await getQueue(queueName).getJobCounts('waiting', 'paused', 'prioritized', 'delayed', 'active');
      return {
        waiting: (counts.waiting ?? 0) + (counts.paused ?? 0) + (counts.prioritized ?? 0),
        delayed: counts.delayed ?? 0,
        active: counts.active ?? 0,
      };
    },

    queueNames(): string[] {
      return [...new Set([...queues.keys(), ...workers.keys()])];
    },

    available(): boolean {
      return !closed && connection().status === 'ready';
    },

    onRestored(listener: (restored: StoreRestored) => void): void {
      if (closed) return;
      restoredListeners.push(listener);
      connection();
      if (firstRestore) tell(listener, firstRestore);
    },

    close(timeoutMs = 10_000): Promise<void> {
      closing ??= closeAll(timeoutMs);
      return closing;
    },
  });
}

/**
 * A key that exists as long as Redis keeps what it was given under this prefix: set (if missing)
 * whenever the queues' client connects, so a Redis that comes back without it lost its jobs.
 */
export function storeMarker(prefix: string): string {
  return `${prefix}:jobs-store`;
}

/** ioredis's own strategy (50 ms more per try, at most 2 s), for the connections BullMQ makes. */
function reconnectDelay(times: number): number {
  return Math.min(times * 50, 2_000);
}

/** Failed jobs stay in Redis for inspection, up to this many per queue. */
const FAILED_JOBS_KEPT = { count: 1000 };

/** 'paused' is listed although BullMQ 5 reports paused jobs as 'waiting', in case a later version does not. */
const CANCELLABLE_STATES = new Set<string>(['waiting', 'delayed', 'prioritized', 'paused']);

function toBullOptions(jobId: string, options: JobOptions | undefined): JobsOptions {
  const bull: JobsOptions = { jobId, removeOnComplete: true, removeOnFail: FAILED_JOBS_KEPT };
  if (options?.delayMs) bull.delay = Math.round(options.delayMs);
  if (options?.attempts !== undefined) bull.attempts = options.attempts;
  if (options?.backoff) bull.backoff = { type: options.backoff.type, delay: options.backoff.delayMs };
  return bull;
}

async function runHandler(
  queue: string,
  handler: JobHandler<unknown>,
  job: BullJob<unknown, void>,
  token: string | undefined,
  logger: Logger
): Promise<void> {
  const id = job.id ?? '';
  const attempt = job.attemptsMade + 1;
  // BullMQ stores a missing attempts option as 0, and means 1 try by it.
  const attempts = Math.max(1, job.opts.attempts ?? 1);
  try {
    await handler({ id, queue, name: job.name, data: job.data, attempt, attempts, started: Math.max(attempt, job.attemptsStarted) });
  } catch (error) {
    if (error instanceof DeferJobError) {
      // BullMQ's way to put an active job back: move it to the delayed set under its lock, then
      // tell the worker with DelayedError that it is neither completed nor failed.
      await job.moveToDelayed(Date.now() + error.delayMs, token);
      throw new DelayedError();
    }
    const message = error instanceof Error ? error.message : String(error);
    const label = `[jobs] ${queue}/${job.name} ${id}`;
    if (error instanceof UnrecoverableJobError) {
      logger.error(`${label} failed (unrecoverable) on try ${attempt} of ${attempts}: ${message}`);
      throw new UnrecoverableError(message);
    }
    if (attempt >= attempts) logger.error(`${label} failed on try ${attempt} of ${attempts}: ${message}`);
    else logger.warn(`${label} failed on try ${attempt} of ${attempts}, will retry: ${message}`);
    throw error instanceof Error ? error : new Error(message);
  }
}

/**
 * ioredis reports every failed reconnect, and BullMQ forwards the same error from the client to
 * its Queue or Worker: log an error once until the message changes, not once per retry.
 */
function errorReporter(logger: Logger): (source: string, error: Error) => void {
  let last: string | undefined;
  return (source, error) => {
    if (error.message === last) return;
    last = error.message;
    logger.warn(`[jobs] redis (${source}): ${error.message}`);
  };
}

/** quit lets commands already sent finish, but would wait for a reconnect that may never come. */
async function release(connection: Redis): Promise<void> {
  if (connection.status !== 'ready') {
    connection.disconnect();
    return;
  }
  try {
    await connection.quit();
  } catch {
    connection.disconnect();
  }
}

async function settlesWithin(promise: Promise<unknown>, timeoutMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      promise.then(() => true),
      new Promise<false>((resolve) => {
        timer = setTimeout(() => resolve(false), timeoutMs);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}
