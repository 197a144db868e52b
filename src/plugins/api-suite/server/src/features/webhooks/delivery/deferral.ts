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

/**
 * Sends a fast endpoint's process gave back for any worker process to take (`lanes.spill`), in
 * jobs of consecutive sends, each job due when its first send is. Nothing is written to the
 * database: they come back within seconds, long before the sweep for lost jobs would look at
 * them, and a sweep that did would only make a duplicate job, which the worker skips.
 */
export async function spillSends(strapi: Core.Strapi, entries: Array<{ send: DeliverySend; waitMs: number }>): Promise<void> {
  const definitions: JobDefinition<DeliveryJobData>[] = [];
  for (let start = 0; start < entries.length; start += SENDS_PER_JOB) {
    const part = entries.slice(start, start + SENDS_PER_JOB);
    const first = part[0].send;
    definitions.push({
      name: DELIVER_JOB,
      data: packSends(part.map((entry) => entry.send)),
      options: { ...jobOptions(first.delivery, first.attempt, Math.max(0, Math.round(part[0].waitMs))), jobId: `spilled-${randomUUID()}` },
    });
  }
  if (definitions.length > 0) await getService(strapi, 'platform').jobs().enqueueBulk(DELIVERY_QUEUE, definitions, { freshIds: true });
}
