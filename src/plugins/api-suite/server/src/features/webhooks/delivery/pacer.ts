import type { Core } from '@strapi/strapi';
import { wallClock, type Clock } from '../../../clock';
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
export function createPacer(strapi: Core.Strapi, clock: Clock = wallClock) {
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
        const now = clock.now();
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

/**
 * Make each send at its slot time on `clock` (the wall clock the pacer stamped it by): those due
 * (or carrying none) go at once, together; each of the others waits for its own. A clock that ran
 * late (a stalled event loop) lets the overdue go together when it wakes: the booking spaced the
 * slots, and the endpoint's limit counts them by when they were booked. The outcomes of every
 * `make`, in no particular order.
 */
export function atSlotTimes<R>(sends: DeliverySend[], clock: Clock, make: (sends: DeliverySend[]) => Promise<R[]>): Promise<R[]> {
  const now = clock.now();
  const due = sends.filter((send) => send.slotAt === undefined || send.slotAt <= now);
  const later = sends
    .filter((send) => send.slotAt !== undefined && send.slotAt > now)
    .map((send) =>
      new Promise<void>((resolve) => clock.setTimeout(resolve, (send.slotAt as number) - clock.now())).then(() => make([send]))
    );
  return Promise.all([make(due), ...later]).then((lists) => lists.flat());
}

/** The list under `key`, made on first use. */
function listIn<K, V>(map: Map<K, V[]>, key: K): V[] {
  let list = map.get(key);
  if (!list) map.set(key, (list = []));
  return list;
}
