import { createHash, randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';

/**
 * An endpoint's request slots across every worker process (its fair share, `cap` at once).
 *
 * With Redis, each slot a process holds is a lease: a member of the endpoint's sorted set scored
 * with the time it runs out (Redis's clock). A process takes leases in one script call (only as
 * many as are free), keeps them while it has sends for the endpoint, renews the ones it holds
 * every third of the lease, and gives them back once it has nothing more for the endpoint. A
 * process that dies (SIGKILL) renews nothing: its leases run out and other processes take the
 * slots, within one lease. Without Redis the book counts this process's slots only, which is
 * exact for the one instance that setup supports.
 */
export interface LeaseBook {
  /** Take up to `count` of the endpoint's `cap` slots: how many were taken. One round trip for all requests. */
  acquire(requests: Array<{ endpoint: string; count: number; cap: number }>): Promise<number[]>;
  /** Give back `count` slots of the endpoint this process holds. */
  release(endpoint: string, count: number): void;
  /** Slots of the endpoint held by this process. */
  held(endpoint: string): number;
  /** Stop renewing; what is held is given back. */
  close(): Promise<void>;
}

export function createLeaseBook(redis: Redis | undefined, keyPrefix: string, leaseMs: number, onError: (error: Error) => void): LeaseBook {
  return redis ? redisLeaseBook(redis, keyPrefix, leaseMs, onError) : memoryLeaseBook();
}

export function memoryLeaseBook(): LeaseBook {
  const held = new Map<string, number>();
  return {
    async acquire(requests) {
      return requests.map(({ endpoint, count, cap }) => {
        const now = held.get(endpoint) ?? 0;
        const taken = Math.max(0, Math.min(count, cap - now));
        if (taken > 0) held.set(endpoint, now + taken);
        return taken;
      });
    },
    release(endpoint, count) {
      const left = (held.get(endpoint) ?? 0) - count;
      if (left > 0) held.set(endpoint, left);
      else held.delete(endpoint);
    },
    held: (endpoint) => held.get(endpoint) ?? 0,
    async close() {
      held.clear();
    },
  };
}

/**
 * KEYS[1] the endpoint's leases; ARGV lease ms, cap, then the ids offered. Drops run-out leases,
 * adds as many of the offered ids as there are free slots, answers how many.
 */
const ACQUIRE_SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local lease = tonumber(ARGV[1])
local cap = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
local free = cap - redis.call('ZCARD', KEYS[1])
local taken = 0
for i = 3, #ARGV do
  if taken >= free then break end
  redis.call('ZADD', KEYS[1], now + lease, ARGV[i])
  taken = taken + 1
end
if taken > 0 then redis.call('PEXPIRE', KEYS[1], lease * 2) end
return taken
`;

/** KEYS[1] the endpoint's leases; ARGV lease ms, then the ids held: each one's time runs again from now. */
const RENEW_SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local lease = tonumber(ARGV[1])
for i = 2, #ARGV do redis.call('ZADD', KEYS[1], now + lease, ARGV[i]) end
redis.call('PEXPIRE', KEYS[1], lease * 2)
return #ARGV - 1
`;

function redisLeaseBook(redis: Redis, keyPrefix: string, leaseMs: number, onError: (error: Error) => void): LeaseBook {
  /** This process's lease ids are `<process>-<n>`. */
  const processId = randomBytes(6).toString('hex');
  let sequence = 0;
  /** Lease ids held, per endpoint. */
  const held = new Map<string, string[]>();
  /** Lease ids given back and not yet removed in Redis (removed together, once per turn of the event loop). */
  const returned = new Map<string, string[]>();
  let flushing: NodeJS.Immediate | undefined;
  const keyOf = (endpoint: string) => `${keyPrefix}:webhooks:endpoint:${createHash('sha1').update(endpoint).digest('hex').slice(0, 24)}`;

  const flushReturned = (): void => {
    flushing = undefined;
    if (returned.size === 0) return;
    const pipeline = redis.pipeline();
    for (const [endpoint, ids] of returned) pipeline.zrem(keyOf(endpoint), ...ids);
    returned.clear();
    pipeline.exec().catch((error: Error) => onError(error));
  };

  const renew = (): void => {
    if (held.size === 0) return;
    const pipeline = redis.pipeline();
    for (const [endpoint, ids] of held) if (ids.length > 0) pipeline.eval(RENEW_SCRIPT, 1, keyOf(endpoint), String(leaseMs), ...ids);
    pipeline.exec().catch((error: Error) => onError(error));
  };
  const renewer = setInterval(renew, Math.max(500, Math.floor(leaseMs / 3)));
  renewer.unref();

  return {
    async acquire(requests) {
      if (requests.length === 0) return [];
      const pipeline = redis.pipeline();
      const offered = requests.map(({ endpoint, count, cap }) => {
        const ids = Array.from({ length: Math.min(count, cap) }, () => `${processId}-${(sequence += 1)}`);
        pipeline.eval(ACQUIRE_SCRIPT, 1, keyOf(endpoint), String(leaseMs), String(cap), ...ids);
        return ids;
      });
      const results = (await pipeline.exec()) ?? [];
      return requests.map(({ endpoint }, n) => {
        const [error, value] = results[n] ?? [new Error('no answer')];
        if (error) {
          onError(error);
          return 0;
        }
        const taken = Number(value);
        if (taken > 0) {
          const list = held.get(endpoint) ?? [];
          list.push(...offered[n].slice(0, taken));
          held.set(endpoint, list);
        }
        return taken;
      });
    },
    release(endpoint, count) {
      const list = held.get(endpoint);
      if (!list || count <= 0) return;
      const ids = list.splice(list.length - Math.min(count, list.length));
      if (list.length === 0) held.delete(endpoint);
      const pending = returned.get(endpoint);
      if (pending) pending.push(...ids);
      else returned.set(endpoint, ids);
      flushing ??= setImmediate(flushReturned);
    },
    held: (endpoint) => held.get(endpoint)?.length ?? 0,
    async close() {
      clearInterval(renewer);
      for (const [endpoint, ids] of held) {
        const pending = returned.get(endpoint) ?? [];
        returned.set(endpoint, pending.concat(ids));
      }
      held.clear();
      if (flushing) clearImmediate(flushing);
      if (returned.size === 0) return;
      const pipeline = redis.pipeline();
      for (const [endpoint, ids] of returned) pipeline.zrem(keyOf(endpoint), ...ids);
      returned.clear();
      await pipeline.exec().catch((error: Error) => onError(error));
    },
  };
}
