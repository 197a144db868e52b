import type { Redis } from 'ioredis';
import { performance } from 'node:perf_hooks';

/**
 * Per-subscription throttle (`rate_limit`, deliveries per second): each delivery takes the next
 * free slot of its subscription, one every 1/rate seconds (GCRA's virtual scheduling: a slot
 * book holding, per subscription, the time its next slot opens). A delivery whose slot is some
 * way off waits (its job is deferred to the slot's time), it never fails and is never counted
 * as a failure.
 *
 * With Redis the book is one key per subscription, moved by one script with Redis's own clock,
 * so every instance draws from the same slots and the limit holds across them. Without Redis it
 * is a map in the process, which is exact for the one instance that setup supports.
 */
export interface SlotBook {
  /** Take `count` consecutive slots at `perSecond`: each slot's wait from now, in milliseconds. */
  reserve(subscriptionId: number, perSecond: number, count: number): Promise<number[]>;
  /** Drop a subscription's booked slots (its limit changed): the next delivery starts afresh. */
  forget(subscriptionId: number): Promise<void>;
}

export function createSlotBook(redis: Redis | undefined, keyPrefix: string): SlotBook {
  return redis ? redisSlotBook(redis, keyPrefix) : memorySlotBook();
}

/** The waits of `count` slots spaced `intervalMs` apart, the first `firstMs` from now. */
export function slotWaits(firstMs: number, intervalMs: number, count: number): number[] {
  return Array.from({ length: count }, (_, n) => Math.max(0, firstMs + n * intervalMs));
}

export function memorySlotBook(now: () => number = () => performance.now()): SlotBook {
  const nextFree = new Map<number, number>();
  return {
    async reserve(subscriptionId, perSecond, count) {
      const interval = 1000 / perSecond;
      const at = now();
      const first = Math.max(at, nextFree.get(subscriptionId) ?? at);
      nextFree.set(subscriptionId, first + interval * count);
      return slotWaits(first - at, interval, count);
    },
    async forget(subscriptionId) {
      nextFree.delete(subscriptionId);
    },
  };
}

/**
 * KEYS[1] the subscription's next free slot (ms, Redis's clock); ARGV interval ms, count.
 * Answers the first slot's wait from now as a string (Lua numbers would be cut to integers).
 * The key expires a minute after its last slot, so idle subscriptions leave nothing behind.
 */
const RESERVE_SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + tonumber(t[2]) / 1000
local interval = tonumber(ARGV[1])
local count = tonumber(ARGV[2])
local first = tonumber(redis.call('GET', KEYS[1]) or '0')
if first < now then first = now end
local nextFree = first + interval * count
redis.call('SET', KEYS[1], string.format('%.3f', nextFree), 'PX', math.ceil(nextFree - now) + 60000)
return string.format('%.3f', first - now)
`;

function redisSlotBook(redis: Redis, keyPrefix: string): SlotBook {
  const key = (subscriptionId: number) => `${keyPrefix}:webhooks:throttle:${subscriptionId}`;
  return {
    async reserve(subscriptionId, perSecond, count) {
      const interval = 1000 / perSecond;
      const first = Number(await redis.eval(RESERVE_SCRIPT, 1, key(subscriptionId), String(interval), String(count)));
      return slotWaits(first, interval, count);
    },
    async forget(subscriptionId) {
      await redis.del(key(subscriptionId));
    },
  };
}
