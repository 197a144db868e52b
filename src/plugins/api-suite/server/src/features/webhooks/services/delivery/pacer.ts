import { randomUUID } from 'node:crypto';
import type { Core } from '@strapi/strapi';
import { UIDS } from '../../../../constants';
import { tableOf } from '../../../../db';
import type { JobDefinition } from '../../../../jobs';
import { getConfig, getService } from '../../../../utils';
import type { DeliveryTarget } from '../subscriptions';
import { DELIVER_JOB, DELIVERY_QUEUE, jobOptions, packSends, SENDS_PER_JOB } from './jobs';
import { createSlotBook, type SlotBook } from './throttle';
import type { DeliveryJobData, DeliverySend } from './types';

/**
 * A job's sends whose slot opens within this long are made by the job itself, each at its slot;
 * the others go to jobs deferred to their slot's second, so a throttled backlog waits in the
 * queue (delayed jobs), not in the worker's memory.
 */
export const PACE_WINDOW_MS = 1000;
/**
 * Deferred jobs are due this much before their first slot: the queue may start a delayed job a
 * little late, and a late job would send its slots in a bunch. Early, the job waits for each
 * slot's time itself.
 */
const EARLY_MS = 250;

/**
 * The pacer puts the sends of subscriptions with a `rate_limit` on their slots (see throttle.ts).
 * A send that already holds a slot carries `slotAt` and is not booked again.
 */
export function createPacer(strapi: Core.Strapi) {
  let book: SlotBook | undefined;
  const slots = () => (book ??= createSlotBook(getService(strapi, 'platform').redis(), getConfig(strapi).jobs.prefix));

  /**
   * Deferred sends become jobs of their second; their deliveries' `next_attempt_at` is set to
   * the last slot of the lot (no later than that), which also keeps the sweep for lost jobs from
   * taking a deferred delivery for a lost one.
   */
  const defer = async (bySecond: Map<number, DeliverySend[]>, lastAt: Map<number, Date>): Promise<void> => {
    const definitions: JobDefinition<DeliveryJobData>[] = [];
    for (const [second, sends] of bySecond) {
      for (let start = 0; start < sends.length; start += SENDS_PER_JOB) {
        const part = sends.slice(start, start + SENDS_PER_JOB);
        definitions.push({ name: DELIVER_JOB, data: packSends(part), options: { ...jobOptions(part[0].delivery, part[0].attempt, Math.max(0, second * PACE_WINDOW_MS - EARLY_MS)), jobId: `paced-${randomUUID()}` } });
      }
    }
    await getService(strapi, 'platform').jobs().enqueueBulk(DELIVERY_QUEUE, definitions, { freshIds: true });
    const table = tableOf(strapi, UIDS.webhookDelivery);
    for (const [subscription, at] of lastAt) {
      const uuids = [...bySecond.values()].flat().filter((send) => send.subscription === subscription).map((send) => send.delivery);
      for (let start = 0; start < uuids.length; start += 500) {
        await strapi.db.connection(table).whereIn('uuid', uuids.slice(start, start + 500)).update({ next_attempt_at: at });
      }
    }
  };

  return {
    /** The sends this job makes (each with its wait); the rest are deferred to jobs of their own. */
    async pace(sends: DeliverySend[], targets: Map<number, DeliveryTarget | null>): Promise<DeliverySend[]> {
      const ready: DeliverySend[] = [];
      const limited = new Map<number, DeliverySend[]>();
      for (const send of sends) {
        const limit = targets.get(send.subscription)?.rateLimit;
        if (!limit || send.slotAt !== undefined) ready.push(send);
        else limited.set(send.subscription, [...(limited.get(send.subscription) ?? []), send]);
      }
      if (limited.size === 0) return ready;

      const bySecond = new Map<number, DeliverySend[]>();
      const lastAt = new Map<number, Date>();
      for (const [subscription, group] of limited) {
        const limit = targets.get(subscription)?.rateLimit as number;
        const waits = await slots().reserve(subscription, limit, group.length);
        const now = Date.now();
        group.forEach((send, n) => {
          const wait = waits[n];
          const slotted = { ...send, slotAt: now + wait };
          if (wait < PACE_WINDOW_MS) {
            ready.push(slotted);
            return;
          }
          const second = Math.floor(wait / PACE_WINDOW_MS);
          bySecond.set(second, [...(bySecond.get(second) ?? []), slotted]);
        });
        const last = waits[waits.length - 1];
        if (last >= PACE_WINDOW_MS) lastAt.set(subscription, new Date(Date.now() + last));
      }
      if (bySecond.size > 0) await defer(bySecond, lastAt);
      return ready;
    },

    /** A subscription's limit changed: its booked slots are dropped, so the new limit applies from the next delivery. */
    async forget(subscriptionId: number): Promise<void> {
      await slots().forget(subscriptionId);
    },
  };
}
