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
   * Deferred sends become jobs of their second; each lot's deliveries get `next_attempt_at` set
   * to the lot's last slot (they are due no later than that), which also keeps the sweep for
   * lost jobs from taking a deferred delivery for a lost one.
   */
  const defer = async (bySecond: Map<number, DeliverySend[]>, lots: Array<{ uuids: string[]; lastAt: Date }>): Promise<void> => {
    const definitions: JobDefinition<DeliveryJobData>[] = [];
    for (const [second, sends] of bySecond) {
      for (let start = 0; start < sends.length; start += SENDS_PER_JOB) {
        const part = sends.slice(start, start + SENDS_PER_JOB);
        definitions.push({ name: DELIVER_JOB, data: packSends(part), options: { ...jobOptions(part[0].delivery, part[0].attempt, Math.max(0, second * PACE_WINDOW_MS - EARLY_MS)), jobId: `paced-${randomUUID()}` } });
      }
    }
    await getService(strapi, 'platform').jobs().enqueueBulk(DELIVERY_QUEUE, definitions, { freshIds: true });
    const table = tableOf(strapi, UIDS.webhookDelivery);
    for (const { uuids, lastAt } of lots) {
      for (let start = 0; start < uuids.length; start += 500) {
        await strapi.db.connection(table).whereIn('uuid', uuids.slice(start, start + 500)).update({ next_attempt_at: lastAt });
      }
    }
  };

  return {
    /** The sends this job makes (each with its slot time); the rest are deferred to jobs of their own. */
    async pace(sends: DeliverySend[], targets: Map<number, DeliveryTarget | null>): Promise<DeliverySend[]> {
      const ready: DeliverySend[] = [];
      const limited = new Map<number, DeliverySend[]>();
      for (const send of sends) {
        const limit = targets.get(send.subscription)?.rateLimit;
        if (!limit || send.slotAt !== undefined) ready.push(send);
        else listIn(limited, send.subscription).push(send);
      }
      if (limited.size === 0) return ready;

      const bySecond = new Map<number, DeliverySend[]>();
      const lots: Array<{ uuids: string[]; lastAt: Date }> = [];
      for (const [subscription, group] of limited) {
        const waits = await slots().reserve(subscription, targets.get(subscription)?.rateLimit as number, group.length);
        const now = Date.now();
        const deferred: string[] = [];
        group.forEach((send, n) => {
          const slotted = { ...send, slotAt: now + waits[n] };
          if (waits[n] < PACE_WINDOW_MS) {
            ready.push(slotted);
          } else {
            listIn(bySecond, Math.floor(waits[n] / PACE_WINDOW_MS)).push(slotted);
            deferred.push(send.delivery);
          }
        });
        if (deferred.length > 0) lots.push({ uuids: deferred, lastAt: new Date(now + waits[waits.length - 1]) });
      }
      if (lots.length > 0) await defer(bySecond, lots);
      return ready;
    },

    /** A subscription's limit changed: its booked slots are dropped, so the new limit applies from the next delivery. */
    async forget(subscriptionId: number): Promise<void> {
      await slots().forget(subscriptionId);
    },
  };
}

/** The list under `key`, made on first use. */
function listIn<K, V>(map: Map<K, V[]>, key: K): V[] {
  let list = map.get(key);
  if (!list) map.set(key, (list = []));
  return list;
}
