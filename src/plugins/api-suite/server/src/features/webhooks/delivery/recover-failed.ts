import { randomUUID } from 'node:crypto';
import type { Core } from '@strapi/strapi';
import { UIDS } from '../../../constants';
import { dialectOf, tableOf, toBool, updateReturning } from '../../../db';
import type { JobDefinition } from '../../../jobs';
import { getService } from '../../../utils';
import { DELIVER_JOB, DELIVERY_QUEUE, jobOptions, packSends, sendOf, SENDS_PER_JOB } from './jobs';
import type { SubscriptionRow } from '../services/subscriptions';
import type { Recorder } from './recorder';
import type { Parking } from './requeue';
import type { DeliveryJobData, DeliveryRow } from './types';
import { SubscriptionDisabledError } from '../errors';

/**
 * Recover (Svix's "recover failed messages since"): every failed or cancelled delivery of one
 * subscription created in [since, until] is made pending again in one statement, and its next
 * attempt is queued in one bulk enqueue, `SENDS_PER_JOB` sends a job as fresh deliveries travel.
 * Each keeps its id, so the receiver sees the same `webhook-id` and can de-duplicate; its attempt
 * count continues, so a recovered delivery that fails again is failed at once rather than given
 * the whole retry schedule a second time.
 *
 * The statement's RETURNING hands back exactly the rows it changed, so two recoveries of
 * overlapping ranges at once never queue a delivery twice: the second finds it pending. A
 * disabled subscription refuses (409): its deliveries would only be cancelled again. While the
 * queue is away (Redis) they are pending in the database and enqueued when it is back.
 */
export function createRecoverFailed(strapi: Core.Strapi, recorder: Recorder, parking: Parking) {
  return async function recoverFailed(subscription: Pick<SubscriptionRow, 'id' | 'is_active'>, since: Date, until: Date): Promise<number> {
    if (!toBool(subscription.is_active)) {
      throw new SubscriptionDisabledError();
    }
    // Failures still in the recorder's buffer are written first, or they would be missed, or
    // written over the pending state afterwards.
    await recorder.flush();
    const now = new Date();
    const rows = await updateReturning<
      Pick<DeliveryRow, 'uuid' | 'subscription_id' | 'event_type' | 'payload' | 'attempts' | 'created_at' | 'trace_context'>
    >(
      strapi.db.connection,
      dialectOf(strapi),
      tableOf(strapi, UIDS.webhookDelivery),
      (query) =>
        query
          .where({ subscription_id: subscription.id })
          .whereIn('status', ['failed', 'cancelled'])
          .where('created_at', '>=', since)
          .where('created_at', '<=', until),
      { status: 'pending', next_attempt_at: now, updated_at: now },
      ['uuid', 'subscription_id', 'event_type', 'payload', 'attempts', 'created_at', 'trace_context']
    );
    if (rows.length === 0) return 0;
    const sends = rows.map((row) => sendOf(row, (row.attempts ?? 0) + 1));
    const definitions: JobDefinition<DeliveryJobData>[] = [];
    for (let start = 0; start < sends.length; start += SENDS_PER_JOB) {
      const part = sends.slice(start, start + SENDS_PER_JOB);
      // A recovered delivery may be recovered again later with the same attempt number (a
      // cancelled one never attempted): the job id is made fresh for this recovery.
      definitions.push({
        name: DELIVER_JOB,
        data: packSends(part),
        options: { ...jobOptions(part[0].delivery, part[0].attempt, 0), jobId: `recover-${randomUUID()}` },
      });
    }
    const jobs = getService(strapi, 'platform').jobs();
    const park = (reason: string) =>
      parking.park(
        rows.map((row) => row.uuid),
        reason
      );
    if (!jobs.available()) park('Redis is not connected');
    else await jobs.enqueueBulk(DELIVERY_QUEUE, definitions, { freshIds: true }).catch((error: Error) => park(error.message));
    return rows.length;
  };
}
