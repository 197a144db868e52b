/**
 * The jobs port: the one way the plugin runs work in the background. Two drivers implement it,
 * BullMQ on Redis (shared by every instance, survives restarts of the process) and an
 * in-process driver (one instance, nothing to run beside Strapi). Features never import a
 * driver; they get the port from the plugin's `jobs` service.
 *
 * Neither driver is the source of truth for business state: records in the database are, and
 * each feature takes up pending work it finds there at boot. The port only moves work along.
 */
import { validate as validateCronExpression } from 'node-cron';

export type JobsDriverName = 'bullmq' | 'in-process';

/** What the drivers log through; `strapi.log` fits. */
export interface Logger {
  info(msg: string): void;
  warn(msg: string): void;
  error(msg: string): void;
  debug?(msg: string): void;
}

export interface BackoffOptions {
  /** fixed: delayMs between every try; exponential: delayMs * 2^(try-1) */
  type: 'fixed' | 'exponential';
  delayMs: number;
}

export interface JobOptions {
  /**
   * Stable id of the job. Enqueueing an id that is already waiting, delayed or active does
   * nothing (de-duplication), and `cancel` takes this id. No ':' and not only digits (BullMQ
   * reserves both).
   */
  jobId?: string;
  /** Run no earlier than this many milliseconds from now. */
  delayMs?: number;
  /** Total number of tries, the first included. Default 1 (no retry). */
  attempts?: number;
  backoff?: BackoffOptions;
}

export interface BulkOptions {
  /**
   * The caller guarantees the chosen job ids have never been used (they embed a UUID made for
   * this enqueue), so the driver may skip looking for finished jobs holding them: one round trip
   * instead of one per id on BullMQ.
   */
  freshIds?: boolean;
}

export interface JobDefinition<TData = unknown> {
  name: string;
  data: TData;
  options?: JobOptions;
}

export interface Job<TData = unknown> {
  id: string;
  queue: string;
  name: string;
  data: TData;
  /** 1 on the first try. */
  attempt: number;
  /**
   * How many times the job has been started, this time included: more than `attempt` once it
   * was taken up again after its worker stalled or died mid-run (BullMQ), so a handler can tell a
   * job's first run, when nothing of it can have been done yet, from a run after another. A run
   * that ended in DeferJobError counts too.
   */
  started: number;
  /** The total tries allowed. */
  attempts: number;
}

export type JobHandler<TData = unknown> = (job: Job<TData>) => Promise<void>;

export interface ProcessOptions {
  /** How many jobs of this queue run at once in this process. Default 1. */
  concurrency?: number;
}

export interface CronSchedule {
  /** 5-field (minute first) or 6-field (second first) cron expression. */
  cron: string;
  /** Job name and data enqueued at every tick. */
  name: string;
  data?: unknown;
  timezone?: string;
}

export interface StoreRestored {
  /** The store came back without the jobs it held: take up the pending work the database records. */
  lost: boolean;
  /** The first connection of this process (else a reconnection after an outage). */
  first: boolean;
}

export interface JobsPort {
  readonly driver: JobsDriverName;
  enqueue<TData>(queue: string, name: string, data: TData, options?: JobOptions): Promise<string>;
  /** Enqueue many jobs in one round trip (BullMQ addBulk). Returns their ids in order. */
  enqueueBulk<TData>(queue: string, jobs: JobDefinition<TData>[], options?: BulkOptions): Promise<string[]>;
  /** Register the one handler of a queue in this process; jobs start flowing at once. */
  process<TData>(queue: string, handler: JobHandler<TData>, options?: ProcessOptions): void;
  /** Remove a waiting or delayed job. true when a job was removed; an active job is not touched. */
  cancel(queue: string, jobId: string): Promise<boolean>;
  /** Create or replace the cron schedule `scheduleId` on a queue. */
  schedule(queue: string, scheduleId: string, schedule: CronSchedule): Promise<void>;
  /** Remove a cron schedule; true when it existed. */
  unschedule(queue: string, scheduleId: string): Promise<boolean>;
  /** Counts for progress output and tests. */
  counts(queue: string): Promise<{ waiting: number; delayed: number; active: number }>;
  /** The queues this process has enqueued to, processed or scheduled on (the metrics report their counts). */
  queueNames(): string[];
  /**
   * Whether jobs can be enqueued now: false while Redis is away (BullMQ), when enqueueing would
   * only fail or wait. A caller whose work is stored in the database keeps it there and enqueues
   * it from `onRestored` instead of holding up its answer.
   */
  available(): boolean;
  /**
   * Call `listener` each time the queue's store is reachable again: on the first connection and
   * after every outage (BullMQ; the in-process driver never loses its store, so never). `lost`
   * says the store came back without this prefix's jobs (a Redis restarted without persistence,
   * or one that never held them): everything the database says is still to do must be enqueued
   * again. Of several instances, one is told `lost`. A listener added after the first connection
   * is called at once with what that connection found.
   */
  onRestored(listener: (restored: StoreRestored) => void): void;
  /**
   * Stop taking new jobs, wait for active ones (up to `timeoutMs`), release connections.
   * Further enqueues reject.
   */
  close(timeoutMs?: number): Promise<void>;
}

/**
 * Throw from a handler to fail the job at once, without the remaining tries (the BullMQ
 * driver maps it to BullMQ's UnrecoverableError).
 */
export class UnrecoverableJobError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnrecoverableJobError';
  }
}

/**
 * Throw from a handler to put the job back for later, as if it had not run: it waits `delayMs`,
 * keeps its id, and the try does not count against `attempts` (the BullMQ driver moves the job to
 * its delayed set, atomically in Redis, so a process that stops meanwhile loses nothing). For work
 * that cannot start yet and must leave its slot to other jobs.
 */
export class DeferJobError extends Error {
  constructor(
    readonly delayMs: number,
    reason = 'deferred'
  ) {
    super(reason);
    this.name = 'DeferJobError';
    if (!(Number.isFinite(delayMs) && delayMs >= 0)) throw new RangeError(`delayMs must be a finite number >= 0, got ${delayMs}`);
  }
}

export class JobsClosedError extends Error {
  constructor() {
    super('the jobs port is closed');
    this.name = 'JobsClosedError';
  }
}

export class InvalidJobIdError extends Error {
  constructor(jobId: string) {
    super(`job id "${jobId}" is not allowed: it must be non-empty, must not contain ":" and must not be only digits`);
    this.name = 'InvalidJobIdError';
  }
}

/*
 * Input checks, put in front of both drivers by `withInputChecks` (checked.ts), so that they accept
 * and reject exactly the same input.
 */

export function assertValidJobId(jobId: string): void {
  if (typeof jobId !== 'string' || jobId === '' || jobId.includes(':') || /^\d+$/.test(jobId)) {
    throw new InvalidJobIdError(String(jobId));
  }
}

export function assertValidQueueName(queue: string): void {
  // BullMQ builds its Redis keys as prefix:queue:..., so a ':' would read as another queue.
  if (typeof queue !== 'string' || queue === '' || queue.includes(':')) {
    throw new Error(`queue name "${String(queue)}" is not allowed: it must be non-empty and must not contain ":"`);
  }
}

export function assertValidScheduleId(scheduleId: string): void {
  // BullMQ reads a scheduler id with ':' as a legacy repeatable-job key.
  if (typeof scheduleId !== 'string' || scheduleId === '' || scheduleId.includes(':')) {
    throw new Error(`schedule id "${String(scheduleId)}" is not allowed: it must be non-empty and must not contain ":"`);
  }
}

export function assertValidJobOptions(options: JobOptions | undefined): void {
  if (!options) return;
  if (options.jobId !== undefined) assertValidJobId(options.jobId);
  if (options.delayMs !== undefined && !(Number.isFinite(options.delayMs) && options.delayMs >= 0)) {
    throw new RangeError(`delayMs must be a finite number >= 0, got ${options.delayMs}`);
  }
  if (options.attempts !== undefined && !(Number.isInteger(options.attempts) && options.attempts >= 1)) {
    throw new RangeError(`attempts must be an integer >= 1, got ${options.attempts}`);
  }
  if (options.backoff !== undefined) {
    const { type, delayMs } = options.backoff;
    if (type !== 'fixed' && type !== 'exponential') {
      throw new RangeError(`backoff.type must be "fixed" or "exponential", got "${String(type)}"`);
    }
    if (!(Number.isFinite(delayMs) && delayMs >= 0)) {
      throw new RangeError(`backoff.delayMs must be a finite number >= 0, got ${delayMs}`);
    }
  }
}

export function assertValidCronSchedule(schedule: CronSchedule): void {
  const { cron, name, timezone } = schedule;
  if (typeof name !== 'string' || name === '') {
    throw new Error('a cron schedule needs a non-empty job name');
  }
  if (typeof cron !== 'string' || !validateCronExpression(cron)) {
    throw new Error(`invalid cron expression "${String(cron)}": expected 5 fields (minute first) or 6 (second first)`);
  }
  // node-cron accepts the W (nearest weekday) modifier, the cron parser inside BullMQ does not.
  if (/\dW\b|\bLW\b/i.test(cron)) {
    throw new Error(`invalid cron expression "${cron}": the W (nearest weekday) modifier is not supported`);
  }
  if (timezone !== undefined) {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: timezone });
    } catch {
      throw new Error(`invalid time zone "${timezone}" for cron expression "${cron}"`);
    }
  }
}

/** Logs to the console when the caller gives no logger, so job failures are never silent. */
export const consoleLogger: Logger = {
  info: (msg) => console.info(msg),
  warn: (msg) => console.warn(msg),
  error: (msg) => console.error(msg),
  debug: (msg) => console.debug(msg),
};

/** The validated concurrency of `process()`, the same rule for both drivers. */
export function concurrencyOf(options: ProcessOptions | undefined): number {
  const concurrency = options?.concurrency ?? 1;
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new RangeError(`concurrency must be an integer >= 1, got ${concurrency}`);
  }
  return concurrency;
}
