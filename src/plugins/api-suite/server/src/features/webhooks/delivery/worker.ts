import type { Core } from '@strapi/strapi';
import { wallClock, type Clock } from '../../../clock';
import { UIDS } from '../../../constants';
import { tableOf } from '../../../db';
import { unavailableDependency } from '../../../dependencies';
import { DeferJobError, type Job } from '../../../jobs';
import { getConfig, getService } from '../../../utils';
import { TEST_EVENT_TYPE } from '../events/catalog';
import { retryDelaySeconds } from './retry';
import { sendAttempt } from './attempt';
import { requeueUnsent, type Parking } from './requeue';
import type { DeliveryTarget } from '../services/subscriptions';
import type { createFailurePolicy } from './failure-policy';
import { DELIVER_JOB, DELIVERY_QUEUE, jobOptions, keyOf, packSends, unpackSends } from './jobs';
import { deliveryMetrics, type DeliveryMetrics } from './metrics';
import { createRequestSlots, shareOfSend } from './request-slots';
import { atSlotTimes, type createPacer } from './pacer';
import type { Recorder } from './recorder';
import { FINAL_STATUSES, type AttemptOutcome, type DeliveryJobData, type DeliverySend, type DeliveryStatus } from './types';

/** A job that met the database away goes back to the queue for this long, its tries untouched. */
const DATABASE_RETRY_MS = 2_000;
/** Pending work older than this with no sign of life is enqueued again (it lost its job). */
const SWEEP_INTERVAL_MS = 60_000;
const SWEEP_OVERDUE_MS = 120_000;

/**
 * The worker: takes a delivery job, makes each of its sends that is still due (one signed POST),
 * and settles it (succeeded; retrying, with the next job enqueued at once so a crash cannot lose
 * it; or failed). Outcomes go to the recorder; failures to the failure policy.
 */
export function createWorker(
  strapi: Core.Strapi,
  recorder: Recorder,
  policy: ReturnType<typeof createFailurePolicy>,
  pacer: ReturnType<typeof createPacer>,
  parking: Parking,
  /** The wall clock, which slot times and the sweep's overdue line are read on. */
  clock: Clock = wallClock
) {
  const knex = () => strapi.db.connection;
  const deliveries = () => tableOf(strapi, UIDS.webhookDelivery);
  const jobs = () => getService(strapi, 'platform').jobs();
  const subscriptions = () => getService(strapi, 'webhook-subscriptions');
  const schedule = () => getConfig(strapi).webhooks.retryScheduleSeconds;

  let sweeper: NodeJS.Timeout | undefined;
  let started = false;
  /** Request slots shared fairly between endpoints, and what a slow endpoint takes now. */
  const slots = createRequestSlots(strapi);
  /** Sends under way in this process, so a duplicate job (a recovered one) does not send the same attempt twice at once. */
  const inFlight = new Set<string>();
  /** Set when the worker starts: a process that only publishes reports no attempts. */
  let metrics: DeliveryMetrics = { settled: () => undefined };

  const worker = {
    /** Start taking jobs, take up the work the database says is pending, and sweep for lost jobs. */
    async start(): Promise<void> {
      if (started) return;
      started = true;
      slots.start();
      const { concurrency } = getConfig(strapi).webhooks;
      metrics = deliveryMetrics(strapi, () => slots.stats());
      // Twice as many jobs as requests: a slow endpoint keeps only about two of its shares' worth of
      // sends (and so of jobs) in the process, so jobs run out no sooner than request slots do.
      jobs().process<DeliveryJobData>(DELIVERY_QUEUE, (job) => worker.handle(job), { concurrency: concurrency * 2 });
      // Jobs of the in-process driver died with the process that held them: everything pending is
      // taken up again. BullMQ kept its jobs in Redis (a killed worker's are re-run as stalled);
      // the sweep finds any that were lost.
      if (jobs().driver === 'in-process') {
        const recovered = await worker.recover();
        if (recovered > 0) strapi.log.info(`[api-suite] webhooks: took up ${recovered} pending deliveries`);
      }
      sweeper = setInterval(() => {
        slots.forgetIdle();
        worker.sweep().then(
          (count) => count > 0 && strapi.log.warn(`[api-suite] webhooks: re-enqueued ${count} overdue deliveries`),
          (error: Error) => strapi.log.error(`[api-suite] webhooks: sweep failed: ${error.message}`)
        );
      }, SWEEP_INTERVAL_MS);
      sweeper.unref();
    },

    /** Whether this process runs the delivery worker. */
    running(): boolean {
      return started;
    },

    /** Stop sweeping; the endpoints' slots stay held until `close`, after the sends under way have ended. */
    async stop(): Promise<void> {
      if (sweeper) clearInterval(sweeper);
      sweeper = undefined;
      slots.stop();
    },

    /**
     * Give the endpoints' slots back and write what is buffered: after the queue has waited for
     * the sends under way (shutdown), so that no other instance takes a slot whose request is
     * still open here and goes over an endpoint's share during a rolling deploy.
     */
    async close(): Promise<void> {
      await slots.close();
      await recorder.flush();
    },

    /**
     * Deliveries overdue by two minutes lost their job (Redis was down when they were published,
     * or lost its data). Only looked for while the queue has nothing waiting: a backlog being
     * worked through is late, not lost.
     */
    async sweep(): Promise<number> {
      // Redis away: nothing can be enqueued, and what is stored meanwhile is parked (`requeue.ts`).
      if (!jobs().available()) return 0;
      const counts = await jobs().counts(DELIVERY_QUEUE);
      if (counts.waiting > 0) return 0;
      return worker.recover(new Date(clock.now() - SWEEP_OVERDUE_MS));
    },

    /**
     * A job: its sends that are still due, each sent and settled on its own. The job ends once
     * their outcomes are stored, and fails (to be tried again by the queue) when they could not
     * be; the next try skips the sends whose outcome did get stored. A job that met the database
     * away goes back to the queue without using up a try, however long the database stays away:
     * its sends are still pending there, and nothing accepted is given up.
     */
    async handle(job: Job<DeliveryJobData>): Promise<void> {
      try {
        await worker.run(job);
      } catch (error) {
        if (unavailableDependency(error) === 'database') throw new DeferJobError(DATABASE_RETRY_MS, 'the database is unavailable');
        throw error;
      }
    },

    /** One run of a job (`handle`). */
    async run(job: Job<DeliveryJobData>): Promise<void> {
      // A fresh job on its first run needs no look in the database (one query per job saved).
      const unpacked = unpackSends(job.data);
      const sends = job.data.fresh && job.started === 1 ? worker.unclaimed(unpacked) : await worker.due(unpacked);
      if (sends.length === 0) return;
      const targets = await subscriptions().targets([...new Set(sends.map((send) => send.subscription))]);
      // Throttled subscriptions' sends take their slots; those far off leave in deferred jobs.
      // Claimed now, before any of them waits for a request slot: a copy of this job (a stalled job
      // run again) finds them under way and leaves them alone.
      const paced = (await pacer.pace(sends, targets)).filter((send) => worker.claim(send));
      let made: DeliverySend[];
      try {
        made = await slots.admit(paced, targets, (send) => inFlight.delete(keyOf(send)));
      } catch (error) {
        // The sends it gave back could not be queued (Redis or the database away): none is made now,
        // and none stays claimed, or the job's next try would find them under way and skip them.
        for (const send of paced) inFlight.delete(keyOf(send));
        throw error;
      }
      const deliver = (send: DeliverySend, release: () => void) => worker.deliver(targets.get(send.subscription) ?? null, send, release);
      const endpointOf = (send: DeliverySend) => shareOfSend(send, targets);
      // A throttled send waits for its slot time before it takes a request slot. Slot times are on
      // the booking process's clock: instances of one site are expected to keep theirs in step (NTP).
      const failures = await atSlotTimes(made, clock, (due) => slots.each(due, endpointOf, deliver));
      if (failures.length > 0) {
        throw new Error(
          `${failures.length} of ${made.length} deliveries could not be recorded: ${(failures[0] as Error)?.message ?? failures[0]}`,
          { cause: failures[0] }
        );
      }
      await recorder.recorded();
    },

    /**
     * The sends of a job that are still to be made: not already under way or settled in this
     * process, and not recorded as done (or as further along) in the database. This is what makes
     * a job run twice (a stalled job re-run, a swept delivery whose first job turns up) harmless.
     */
    async due(sends: DeliverySend[]): Promise<DeliverySend[]> {
      const fresh = worker.unclaimed(sends);
      if (fresh.length === 0) return [];
      const rows = (await knex()(deliveries())
        .select('uuid', 'status', 'attempts')
        .whereIn(
          'uuid',
          fresh.map((send) => send.delivery)
        )) as Array<{ uuid: string; status: DeliveryStatus; attempts: number | null }>;
      const stored = new Map(rows.map((row) => [row.uuid, row]));
      return fresh.filter((send) => {
        const row = stored.get(send.delivery);
        // Gone: its subscription was deleted.
        if (!row || FINAL_STATUSES.has(row.status)) return false;
        return (row.attempts ?? 0) < send.attempt;
      });
    },

    /** The sends not under way or settled in this process (what `due` checks before it reads the database). */
    unclaimed(sends: DeliverySend[]): DeliverySend[] {
      return sends.filter((send) => !inFlight.has(keyOf(send)) && recorder.bufferedAttempts(send.delivery) < send.attempt);
    },

    /** Mark a send as under way in this process; false when it already is. */
    claim(send: DeliverySend): boolean {
      const key = keyOf(send);
      if (inFlight.has(key)) return false;
      inFlight.add(key);
      return true;
    },

    /**
     * Send one claimed attempt, in a request slot it gives back (`release`) once the response is
     * in, and settle it: cancelled when the subscription is gone or disabled, as it is now rather
     * than when the job read it.
     */
    async deliver(read: DeliveryTarget | null, send: DeliverySend, release: () => void): Promise<void> {
      try {
        // What the job read may be stale by now: the send may have waited for its slot.
        const target = read && (subscriptions().cachedTarget(read.id) ?? (await subscriptions().current(read.id)));
        if (!target || !target.isActive) {
          // Deleted or disabled since the event was published: nothing more is sent.
          recorder.state({
            uuid: send.delivery,
            status: 'cancelled',
            attempts: send.attempt - 1,
            next_attempt_at: null,
            response_status: null,
            delivered_at: null,
          });
          metrics.settled(send.type, 'cancelled');
          return;
        }
        const outcome = await worker.attempt(target, send);
        release();
        const settling = worker.settle(target, send, outcome, { retry: send.type !== TEST_EVENT_TYPE });
        if (typeof settling !== 'string') await settling;
      } finally {
        inFlight.delete(keyOf(send));
      }
    },

    /** One signed POST to the endpoint; never throws (`attempt.ts`). */
    attempt(target: DeliveryTarget, data: DeliverySend): Promise<AttemptOutcome> {
      return sendAttempt(strapi, target, data);
    },

    /**
     * Record an attempt and move the delivery on: succeeded, retrying (next job enqueued now,
     * so a crash cannot lose it), or failed. Counts the attempt on the subscription. A success
     * settles at once, with no promise (thousands a second); a failure once it is counted.
     */
    settle(
      target: DeliveryTarget,
      data: DeliverySend,
      outcome: AttemptOutcome,
      options: { retry: boolean }
    ): DeliveryStatus | Promise<DeliveryStatus> {
      const now = new Date(clock.now());
      recorder.attempt({
        delivery_uuid: data.delivery,
        attempt: data.attempt,
        at: new Date(now.getTime() - outcome.durationMs),
        status_code: outcome.statusCode,
        duration_ms: outcome.durationMs,
        error: outcome.error,
        response_body: outcome.responseBody,
      });
      if (!outcome.ok) return worker.settleFailure(target, data, outcome, options, now);
      recorder.success(target.id, now);
      recorder.state({
        uuid: data.delivery,
        attempts: data.attempt,
        response_status: outcome.statusCode,
        status: 'succeeded',
        next_attempt_at: null,
        delivered_at: now,
      });
      metrics.settled(data.type, 'succeeded', outcome.durationMs, data.delivery);
      return 'succeeded';
    },

    /** `settle` for an attempt that failed: counted on its subscription, then retried (if it may be) or given up. */
    async settleFailure(
      target: DeliveryTarget,
      data: DeliverySend,
      outcome: AttemptOutcome,
      options: { retry: boolean },
      now: Date
    ): Promise<DeliveryStatus> {
      const base = { uuid: data.delivery, attempts: data.attempt, response_status: outcome.statusCode };
      const settled = (status: DeliveryStatus): DeliveryStatus => {
        metrics.settled(data.type, status, outcome.durationMs, data.delivery);
        return status;
      };
      const { active } = await policy.countFailure(target.id, outcome.error ?? `HTTP ${outcome.statusCode ?? 'error'}`);
      const delay = active && options.retry ? retryDelaySeconds(schedule(), data.attempt, outcome.retryAfterSeconds) : null;
      if (delay === null) {
        recorder.state({ ...base, status: 'failed', next_attempt_at: null, delivered_at: null });
        return settled('failed');
      }
      const nextAt = new Date(now.getTime() + delay * 1000);
      // The retry books a slot of its own when its job runs: it does not keep this attempt's slot.
      // With Redis away the delivery is recorded as retrying all the same and its job enqueued once it is back.
      const retry = packSends([{ ...data, attempt: data.attempt + 1, slotAt: undefined }]);
      if (!jobs().available()) parking.park([data.delivery], 'Redis is not connected');
      else
        await jobs()
          .enqueue<DeliveryJobData>(DELIVERY_QUEUE, DELIVER_JOB, retry, jobOptions(data.delivery, data.attempt + 1, delay * 1000))
          .catch((error: Error) => parking.park([data.delivery], error.message));
      recorder.state({ ...base, status: 'retrying', next_attempt_at: nextAt, delivered_at: null });
      return settled('retrying');
    },

    /** Enqueue the deliveries the database says are still to be sent (`requeue.ts`). */
    recover(overdueBefore?: Date): Promise<number> {
      return requeueUnsent(strapi, overdueBefore ? { overdueBefore } : {});
    },
  };
  return worker;
}
