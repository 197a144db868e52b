import { randomUUID } from 'node:crypto';
import type { Core } from '@strapi/strapi';
import { UIDS } from '../../../constants';
import { tableOf } from '../../../db';
import type { JobDefinition } from '../../../jobs';
import { getService } from '../../../utils';
import { DELIVER_JOB, DELIVERY_QUEUE, jobOptions, packSends, SENDS_PER_JOB } from './jobs';
import type { DeliveryJobData, DeliverySend } from './types';

/** Sends put back in the queue for later, and when their deliveries are due by. */
export interface DeferredLot {
  /** When the lot's jobs run, from now. */
  delayMs: number;
  sends: DeliverySend[];
  /** The lot's deliveries are due no later than this (their `next_attempt_at`). */
  dueBy: Date;
}

/**
 * Sends that wait for later (a throttle's slot, or room at their endpoint) wait in the queue as
 * delayed jobs, not in the worker's memory. Each lot's deliveries get `next_attempt_at` set to
 * when they are due by, which keeps the sweep for lost jobs from taking them for lost; their
 * status does not change (a waiting delivery is still pending, never failed).
 */
export async function deferSends(strapi: Core.Strapi, lots: DeferredLot[]): Promise<void> {
  const definitions: JobDefinition<DeliveryJobData>[] = [];
  for (const { delayMs, sends } of lots) {
    for (let start = 0; start < sends.length; start += SENDS_PER_JOB) {
      const part = sends.slice(start, start + SENDS_PER_JOB);
      definitions.push({
        name: DELIVER_JOB,
        data: packSends(part),
        options: { ...jobOptions(part[0].delivery, part[0].attempt, Math.max(0, Math.round(delayMs))), jobId: `deferred-${randomUUID()}` },
      });
    }
  }
  if (definitions.length === 0) return;
  await getService(strapi, 'platform').jobs().enqueueBulk(DELIVERY_QUEUE, definitions, { freshIds: true });
  const table = tableOf(strapi, UIDS.webhookDelivery);
  for (const { sends, dueBy } of lots) {
    for (let start = 0; start < sends.length; start += 500) {
      await strapi.db
        .connection(table)
        .whereIn(
          'uuid',
          sends.slice(start, start + 500).map((send) => send.delivery)
        )
        .update({ next_attempt_at: dueBy });
    }
  }
}

/** Sends and their waits (ms from now) into lots of one second each. */
export function lotsBySecond(
  entries: Array<{ send: DeliverySend; waitMs: number }>,
  jobDelay: (second: number, firstWaitMs: number) => number,
  now = Date.now()
): DeferredLot[] {
  const bySecond = new Map<number, { sends: DeliverySend[]; first: number; last: number }>();
  for (const { send, waitMs } of entries) {
    const second = Math.floor(waitMs / 1000);
    let lot = bySecond.get(second);
    if (!lot) bySecond.set(second, (lot = { sends: [], first: waitMs, last: waitMs }));
    lot.sends.push(send);
    lot.first = Math.min(lot.first, waitMs);
    lot.last = Math.max(lot.last, waitMs);
  }
  return [...bySecond].map(([second, lot]) => ({
    delayMs: jobDelay(second, lot.first),
    sends: lot.sends,
    dueBy: new Date(now + lot.last),
  }));
}
