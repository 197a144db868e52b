import type { Core } from '@strapi/strapi';
import { UIDS } from '../../../constants';
import { dialectOf, tableOf, writeMany, type Column, type UpdateColumn } from '../../../db';
import type { AttemptRecord, DeliveryState } from './types';

const FLUSH_INTERVAL_MS = 100;
const FLUSH_SIZE = 1000;
/**
 * A job waiting on its outcomes gets them written at once when this many are buffered, else
 * within GROUP_WAIT_MS, so that jobs finishing close together share one write. Measured in
 * bench/webhooks' burst: writes went from 65 rows on average (one job's, written the moment it
 * finished) to 145, and PostgreSQL's CPU per delivery from about 0.07 to 0.05 ms. The wait holds
 * a job a little longer, never a delivery: the request has been made by then.
 */
const GROUP_SIZE = 500;
const GROUP_WAIT_MS = 10;

const ATTEMPT_COLUMNS: Column[] = [
  { name: 'delivery_uuid', kind: 'text' },
  { name: 'attempt', kind: 'integer' },
  { name: 'at', kind: 'timestamp' },
  { name: 'status_code', kind: 'integer' },
  { name: 'duration_ms', kind: 'integer' },
  { name: 'error', kind: 'text' },
  { name: 'response_body', kind: 'text' },
  { name: 'created_at', kind: 'timestamp' },
  { name: 'updated_at', kind: 'timestamp' },
];

const STATE_COLUMNS: UpdateColumn[] = [
  { name: 'status', kind: 'text' },
  { name: 'attempts', kind: 'integer' },
  { name: 'next_attempt_at', kind: 'timestamp' },
  { name: 'response_status', kind: 'integer' },
  { name: 'delivered_at', kind: 'timestamp', keepWhenNull: true },
  { name: 'updated_at', kind: 'timestamp' },
];

const SUCCESS_COLUMNS: Column[] = [
  { name: 'failure_count', kind: 'integer' },
  { name: 'last_delivery_at', kind: 'timestamp' },
];

/**
 * The attempt recorder: attempts, delivery states and subscriptions' success resets are
 * buffered and written in batches, off the hot path. A job waits for `recorded()` before it
 * ends, so an outcome is never acknowledged before it is stored; that wait brings the next write
 * forward to within 10 ms (group commit, below). Outcomes nobody waits for are written within
 * 100 ms, or as soon as 1,000 are buffered.
 */
export function createRecorder(strapi: Core.Strapi) {
  const knex = () => strapi.db.connection;
  let attempts: AttemptRecord[] = [];
  let states = new Map<string, DeliveryState>();
  let successes = new Map<number, Date>();
  let timer: NodeJS.Timeout | undefined;
  /** The group-commit wait of a job's outcomes (shorter than `timer`'s). */
  let groupTimer: NodeJS.Timeout | undefined;
  let flushing: Promise<void> = Promise.resolve();
  /** The latest write of the buffers, rejecting when it failed (`flushing` never rejects). */
  let lastWrite: Promise<void> = Promise.resolve();
  let waiters: Array<{ resolve(): void; reject(error: unknown): void }> = [];

  const size = () => attempts.length + states.size + successes.size;

  /** Writes under way (at most one at a time: they are chained). */
  let writing = 0;
  /** A job waits on what is buffered: write it as soon as the write under way (if any) is done. */
  let wanted = false;

  const scheduleFlush = () => {
    if (attempts.length + states.size >= FLUSH_SIZE) void recorder.flush();
    else timer ??= setTimeout(() => void recorder.flush(), FLUSH_INTERVAL_MS);
  };

  /**
   * Group commit: a job that finished its sends waits for the next write, which starts once
   * GROUP_SIZE outcomes are buffered or GROUP_WAIT_MS have passed, and not before the write under
   * way (if any) is done; everything buffered meanwhile goes with it.
   */
  const flushSoon = () => {
    if (writing > 0) wanted = true;
    else if (size() >= GROUP_SIZE) void recorder.flush();
    else groupTimer ??= setTimeout(() => void recorder.flush(), GROUP_WAIT_MS);
  };

  /** One batch, stored whole or not at all (one statement on PostgreSQL). */
  const write = async (batch: AttemptRecord[], batchStates: DeliveryState[], batchSuccesses: Array<[number, Date]>) => {
    const now = new Date();
    await writeMany(knex(), dialectOf(strapi), [
      {
        insert: tableOf(strapi, UIDS.webhookAttempt),
        columns: ATTEMPT_COLUMNS,
        rows: batch,
        constants: { created_at: now, updated_at: now },
      },
      {
        update: tableOf(strapi, UIDS.webhookDelivery),
        key: { name: 'uuid', kind: 'text' },
        columns: STATE_COLUMNS,
        rows: batchStates,
        constants: { updated_at: now },
      },
      {
        update: tableOf(strapi, UIDS.webhookSubscription),
        key: { name: 'id', kind: 'integer' },
        columns: SUCCESS_COLUMNS,
        rows: batchSuccesses.map(([id, at]) => ({ id, failure_count: 0, last_delivery_at: at })),
      },
    ]);
  };

  const recorder = {
    attempt(record: AttemptRecord): void {
      attempts.push(record);
    },

    /** A delivery's new state; the latest one buffered for a delivery wins. */
    state(state: DeliveryState): void {
      states.set(state.uuid, state);
      scheduleFlush();
    },

    /** A success resets the subscription's failure count (written with the batch). */
    success(subscriptionId: number, at: Date): void {
      successes.set(subscriptionId, at);
    },

    /** Whether a success of this subscription waits in the buffer (its reset must land before a failure's count). */
    hasSuccess(subscriptionId: number): boolean {
      return successes.has(subscriptionId);
    },

    /** Attempts buffered for a delivery, not yet stored. */
    bufferedAttempts(uuid: string): number {
      return states.get(uuid)?.attempts ?? 0;
    },

    /** Write the buffers; resolves once they are stored (never rejects: the failure is logged and the waiting jobs fail). */
    flush(): Promise<void> {
      if (timer) clearTimeout(timer);
      if (groupTimer) clearTimeout(groupTimer);
      timer = undefined;
      groupTimer = undefined;
      const batch = attempts;
      const batchStates = [...states.values()];
      const batchSuccesses = [...successes.entries()];
      attempts = [];
      states = new Map();
      successes = new Map();
      const waiting = waiters;
      waiters = [];
      const empty = batch.length + batchStates.length + batchSuccesses.length === 0;
      if (!empty) writing += 1;
      const written = flushing.then(() => (empty ? undefined : write(batch, batchStates, batchSuccesses)));
      lastWrite = written;
      if (!empty) {
        void written
          .catch(() => undefined)
          .then(() => {
            writing -= 1;
            if (writing === 0 && wanted) {
              wanted = false;
              if (size() > 0) flushSoon();
            }
          });
      }
      written.then(
        () => waiting.forEach((waiter) => waiter.resolve()),
        (error: unknown) => waiting.forEach((waiter) => waiter.reject(error))
      );
      flushing = written.catch((error: Error) => {
        // The jobs waiting on these outcomes fail and are tried again; sends already made are made again (at least once).
        strapi.log.error(`[api-suite] webhooks: could not record ${batch.length} attempts: ${error.message}`);
      });
      return flushing;
    },

    /**
     * Resolves once the outcomes buffered so far are stored: with the next batched write, not a
     * write of its own. A job ends only then, so a worker killed between a send and its record
     * leaves the job to be run again (as stalled) rather than a delivery stuck as pending.
     */
    recorded(): Promise<void> {
      if (size() === 0) return lastWrite;
      return new Promise<void>((resolve, reject) => {
        waiters.push({ resolve, reject });
        flushSoon();
      });
    },
  };
  return recorder;
}

export type Recorder = ReturnType<typeof createRecorder>;
