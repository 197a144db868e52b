import type { Core } from '@strapi/strapi';
import { getConfig, getService } from '../../../utils';
import type { DeliveryTarget } from '../services/subscriptions';
import { deferSends, lotsBySecond } from './deferral';
import { createSlotBook, type SlotBook } from './throttle';
import type { DeliverySend } from './types';

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

      const deferred: Array<{ send: DeliverySend; waitMs: number }> = [];
      for (const [subscription, group] of limited) {
        const waits = await slots().reserve(subscription, targets.get(subscription)?.rateLimit as number, group.length);
        const now = Date.now();
        group.forEach((send, n) => {
          const slotted = { ...send, slotAt: now + waits[n] };
          if (waits[n] < PACE_WINDOW_MS) ready.push(slotted);
          else deferred.push({ send: slotted, waitMs: waits[n] });
        });
      }
      // A lot's job is due a little before its second's first slot; each of its sends waits for its own slot in the job.
      if (deferred.length > 0)
        await deferSends(
          strapi,
          lotsBySecond(deferred, (second) => Math.max(0, second * PACE_WINDOW_MS - EARLY_MS))
        );
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
