import { randomUUID } from 'node:crypto';
import type { Core } from '@strapi/strapi';
import { UIDS } from '../../../constants';
import type { Column } from '../../../db';
import { tableOf } from '../../../db';
import type { JobDefinition } from '../../../jobs';
import { getService } from '../../../utils';
import { createFailurePolicy } from '../delivery/failure-policy';
import { buildBody, DELIVER_JOB, DELIVERY_QUEUE, jobIdOf, jobOptions, packSends, sendOf, SENDS_PER_JOB } from '../delivery/jobs';
import { createPacer } from '../delivery/pacer';
import { createReadModel } from '../delivery/read-model';
import { createRecoverFailed } from '../delivery/recover-failed';
import { createRecorder } from '../delivery/recorder';
import { createParking } from '../delivery/requeue';
import type { DeliveryJobData, DeliveryRow, DeliverySend } from '../delivery/types';
import { traceparentOf } from '../../observability/tracing/context';
import { createWorker } from '../delivery/worker';
import { newDeliveryId } from '../delivery/ids';

// What publishing (webhooks.ts), the controllers and the tests import from here.
export { buildBody, DELIVERY_QUEUE, packSends, unpackSends } from '../delivery/jobs';
export type { AttemptOutcome, DeliveryJobData, DeliveryRow, DeliverySend, DeliveryStatus } from '../delivery/types';

/** The columns a delivery record is inserted with (publishing). */
export const DELIVERY_COLUMNS: Column[] = [
  { name: 'uuid', kind: 'text' },
  { name: 'subscription_id', kind: 'integer' },
  { name: 'event_id', kind: 'text' },
  { name: 'event_type', kind: 'text' },
  { name: 'payload', kind: 'json' },
  { name: 'status', kind: 'text' },
  { name: 'attempts', kind: 'integer' },
  { name: 'next_attempt_at', kind: 'timestamp' },
  { name: 'created_at', kind: 'timestamp' },
  { name: 'updated_at', kind: 'timestamp' },
  { name: 'trace_context', kind: 'text' },
];

/**
 * The delivery engine, as the rest of the plugin sees it. Its parts, each readable on its own
 * (in `delivery/`):
 * - the worker (`worker.ts`): takes a job, attempts each send, settles it, recovers lost work;
 * - the recorder (`recorder.ts`): attempts and delivery states written in batches;
 * - the failure policy (`failure-policy.ts`): counting failures, disabling at the 100th, e-mail;
 * - the read model (`read-model.ts`): lists and the API's presentation;
 * - jobs (`jobs.ts`): what a job carries, its id and options, the request body;
 * - recover (`recover-failed.ts`): failed and cancelled deliveries of a time range queued again;
 * - the pacer (`pacer.ts`, `throttle.ts`): throttled subscriptions' deliveries put on their slots.
 * This file adds what publishing and the API ask of the engine directly: fresh jobs, the inline
 * test delivery and the manual retry.
 */
const deliveriesService = ({ strapi }: { strapi: Core.Strapi }) => {
  const knex = () => strapi.db.connection;
  const table = () => tableOf(strapi, UIDS.webhookDelivery);
  const jobs = () => getService(strapi, 'platform').jobs();

  const recorder = createRecorder(strapi);
  const policy = createFailurePolicy(strapi, recorder);
  const pacer = createPacer(strapi);
  // Before deliveries are enqueued again, the outcomes this process holds are stored, so each gets the attempt that follows its last.
  const parking = createParking(strapi, () => recorder.flush());
  const worker = createWorker(strapi, recorder, policy, pacer, parking);
  const readModel = createReadModel(strapi, recorder);

  return {
    start: worker.start,
    stop: worker.stop,
    async close(): Promise<void> {
      parking.close();
      await worker.close();
    },
    running: worker.running,
    sweep: worker.sweep,
    recover: worker.recover,
    handle: worker.handle,
    attempt: worker.attempt,
    settle: worker.settle,
    countFailure: policy.countFailure,
    flush: recorder.flush,
    recorded: recorder.recorded,
    list: readModel.list,
    get: readModel.get,
    attemptsOf: readModel.attemptsOf,
    present: readModel.present,
    recoverFailed: createRecoverFailed(strapi, recorder, parking),
    /** A subscription's `rate_limit` changed: its booked delivery slots are dropped. */
    forgetThrottle: pacer.forget,

    /**
     * Follow the queue's store: deliveries stored while it was away are enqueued once it is back,
     * and every unsent delivery when it came back without its jobs (a Redis restarted without
     * persistence). Every process that publishes does this, whether it delivers or not.
     */
    watchQueue(): void {
      jobs().onRestored(({ lost }) => {
        if (lost) parking.lostEverything();
        void parking.requeue();
      });
    },

    /**
     * Jobs for freshly inserted deliveries, `SENDS_PER_JOB` sends each, in one bulk enqueue. Their
     * ids are new (named after their first delivery), so no de-duplication lookups. While the
     * queue is away the deliveries are parked instead (they are stored): the publish is answered
     * at once, and they are enqueued when it is back. Never throws.
     */
    async enqueueNew(sends: DeliverySend[]): Promise<void> {
      if (sends.length === 0) return;
      if (!jobs().available()) {
        parking.park(
          sends.map((send) => send.delivery),
          'Redis is not connected'
        );
        return;
      }
      try {
        await jobs().enqueueBulk(DELIVERY_QUEUE, freshJobs(sends), { freshIds: true });
      } catch (error) {
        parking.park(
          sends.map((send) => send.delivery),
          (error as Error).message
        );
      }
    },

    /** Deliveries remembered while the queue is away (`watchQueue`). */
    parked(): number {
      return parking.size();
    },

    /** A delivery record for an event sent right away by the caller rather than by a job (the on-demand test). */
    async createInline(subscriptionId: number, type: string, payload: Record<string, unknown>): Promise<DeliverySend> {
      const uuid = newDeliveryId();
      const now = new Date();
      const payloadJson = JSON.stringify(payload);
      await knex()(table()).insert({
        uuid,
        subscription_id: subscriptionId,
        event_id: randomUUID(),
        event_type: type,
        payload: payloadJson,
        status: 'pending',
        attempts: 0,
        next_attempt_at: now,
        created_at: now,
        updated_at: now,
        trace_context: traceparentOf() ?? null,
      });
      return { delivery: uuid, subscription: subscriptionId, type, body: buildBody(type, now.toISOString(), payloadJson), attempt: 1 };
    },

    /** Send a delivery again now (manual retry); its next attempt number continues the count. */
    async retry(row: DeliveryRow): Promise<void> {
      await recorder.flush();
      const current = (await knex()(table()).select('attempts').where({ uuid: row.uuid }).first()) as
        { attempts: number | null } | undefined;
      const attempt = (current?.attempts ?? 0) + 1;
      // A retry already scheduled for later is brought forward rather than doubled.
      await jobs().cancel(DELIVERY_QUEUE, jobIdOf(row.uuid, attempt));
      await knex()(table()).where({ uuid: row.uuid }).update({ status: 'pending', next_attempt_at: new Date(), updated_at: new Date() });
      await jobs().enqueue<DeliveryJobData>(
        DELIVERY_QUEUE,
        DELIVER_JOB,
        packSends([sendOf(row, attempt)]),
        jobOptions(row.uuid, attempt, 0)
      );
    },
  };
};

/** Jobs for fresh deliveries, `SENDS_PER_JOB` sends each, named after their first delivery. */
function freshJobs(sends: DeliverySend[]): JobDefinition<DeliveryJobData>[] {
  const definitions: JobDefinition<DeliveryJobData>[] = [];
  for (let start = 0; start < sends.length; start += SENDS_PER_JOB) {
    const part = sends.slice(start, start + SENDS_PER_JOB);
    definitions.push({
      name: DELIVER_JOB,
      data: { fresh: true, ...packSends(part) },
      options: { ...jobOptions(part[0].delivery, part[0].attempt, 0), jobId: `batch-${part[0].delivery}` },
    });
  }
  return definitions;
}

export type WebhookDeliveriesService = ReturnType<typeof deliveriesService>;
export default deliveriesService;
