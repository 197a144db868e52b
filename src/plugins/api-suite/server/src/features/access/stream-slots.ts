import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { DependencyUnavailableError, followRedis, unavailableDependency } from '../../dependencies';

/**
 * The usage streams (`GET /api/v1/usage/stream`) each consumer holds open, so one consumer cannot
 * hold hundreds: each open stream takes a slot of its consumer's `access.maxUsageStreams` and gives
 * it back when it closes.
 *
 * With Redis the slots are counted across every instance: a sorted set per consumer whose members
 * are the open streams, scored by when their lease ends. A stream renews its lease while it is
 * open, so the slots of a process that died without closing its streams free themselves within a
 * lease. Without Redis each process counts its own streams (run one instance without Redis, as
 * for the quota counters: docs/operations.md).
 */
export interface StreamSlots {
  /** Takes one of `limit` slots of `owner`: the function that gives it back (once), or null when all are taken. */
  acquire(owner: number, limit: number): Promise<(() => void) | null>;
  close(): Promise<void>;
}

/** How long a slot is held without renewal: a dead process's slots are free again after this. */
export const STREAM_LEASE_MS = 30_000;

export function createMemoryStreamSlots(): StreamSlots {
  const held = new Map<number, number>();
  return {
    async acquire(owner, limit) {
      const count = held.get(owner) ?? 0;
      if (count >= limit) return null;
      held.set(owner, count + 1);
      return once(() => {
        const left = (held.get(owner) ?? 1) - 1;
        if (left > 0) held.set(owner, left);
        else held.delete(owner);
      });
    },
    async close() {
      held.clear();
    },
  };
}

export function createRedisStreamSlots(options: {
  redis: Redis;
  prefix: string;
  onError: (error: Error) => void;
  leaseMs?: number;
}): StreamSlots {
  const { prefix, onError } = options;
  const leaseMs = options.leaseMs ?? STREAM_LEASE_MS;
  // Renewed three times a lease, so one late or failed renewal loses nothing.
  const renewEveryMs = Math.floor(leaseMs / 3);
  options.redis.defineCommand(ACQUIRE_COMMAND, { numberOfKeys: 1, lua: ACQUIRE_SCRIPT });
  options.redis.defineCommand(RENEW_COMMAND, { numberOfKeys: 1, lua: RENEW_SCRIPT });
  const redis = options.redis as SlotsRedis;
  const renewals = new Set<NodeJS.Timeout>();
  const redisAway = followRedis(options.redis);

  return {
    async acquire(owner, limit) {
      const key = `${prefix}:access:streams:${owner}`;
      const stream = randomUUID();
      // The count is across instances: with Redis away it cannot be read, and a guess could let one consumer hold any number.
      const away = () => new DependencyUnavailableError('redis', STREAMS_AWAY);
      if (redisAway()) throw away();
      let taken: unknown;
      try {
        taken = await redis[ACQUIRE_COMMAND](key, limit, leaseMs, stream);
      } catch (error) {
        throw unavailableDependency(error) ? away() : error;
      }
      if (taken !== 1) return null;
      const renewal = setInterval(() => {
        redis[RENEW_COMMAND](key, leaseMs, stream).catch(onError);
      }, renewEveryMs);
      renewal.unref();
      renewals.add(renewal);
      return once(() => {
        clearInterval(renewal);
        renewals.delete(renewal);
        redis.zrem(key, stream).catch(onError);
      });
    },
    async close() {
      // The client belongs to the platform; the slots of streams still open run out with their leases.
      for (const renewal of renewals) clearInterval(renewal);
      renewals.clear();
    },
  };
}

function once(run: () => void): () => void {
  let done = false;
  return () => {
    if (done) return;
    done = true;
    run();
  };
}

const STREAMS_AWAY = 'The count of open usage streams is unavailable for a moment (Redis): try again shortly';
const ACQUIRE_COMMAND = 'apiSuiteStreamSlotAcquire';
const RENEW_COMMAND = 'apiSuiteStreamSlotRenew';

type SlotsRedis = Redis & {
  [ACQUIRE_COMMAND](key: string, limit: number, leaseMs: number, stream: string): Promise<unknown>;
  [RENEW_COMMAND](key: string, leaseMs: number, stream: string): Promise<unknown>;
};

/**
 * KEYS: the consumer's set. ARGV: limit, lease (ms), the stream's id. Drops the leases that ran
 * out, then adds the stream if fewer than `limit` remain; 1 when it did, 0 when all were taken.
 * Redis's own clock, so instances with different clocks agree on when a lease ends.
 */
const ACQUIRE_SCRIPT = `
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[1]) then
  return 0
end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1
`;

/** KEYS: the consumer's set. ARGV: lease (ms), the stream's id. Extends the stream's lease if it is still held. */
const RENEW_SCRIPT = `
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
if redis.call('ZADD', KEYS[1], 'XX', 'CH', now + tonumber(ARGV[1]), ARGV[2]) == 1 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
end
return 1
`;
