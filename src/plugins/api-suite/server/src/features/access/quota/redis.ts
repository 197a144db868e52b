import type { Redis } from 'ioredis';
import { DependencyUnavailableError, followRedis, unavailableDependency } from '../../../dependencies';
import {
  UNLIMITED,
  checkCall,
  decision,
  minuteWindow,
  monthWindow,
  parseReply,
  refusal,
  timeOf,
  toCount,
  type QuotaCounter,
} from './windows';
import { createMemoryQuotaCounter } from './memory';

/** The counter every instance shares through Redis: see index.ts. */
export function createRedisQuotaCounter(options: { redis: Redis; prefix: string; onError?: (error: Error) => void }): QuotaCounter {
  const { prefix } = options;
  // defineCommand makes ioredis send EVALSHA (falling back to EVAL once per connection), so a
  // request costs one round trip. Redefining on a client shared by two counters is harmless:
  // the script is the same.
  options.redis.defineCommand(CONSUME_COMMAND, { numberOfKeys: 2, lua: CONSUME_SCRIPT });
  options.redis.defineCommand(ADD_COMMAND, { numberOfKeys: 1, lua: ADD_SCRIPT });
  const redis = options.redis as QuotaRedis;
  let closed = false;

  /** Each pool's month count as Redis last gave it, to decide on while it is away. */
  const known = new Map<string, { month: string; used: number }>();
  /** Requests this instance counted while Redis was away. */
  let away = createMemoryQuotaCounter();
  /** What those add to Redis's month counters once it is back, by counter key. */
  let owed = new Map<string, { count: number; ttl: number }>();

  const redisAway = followRedis(options.redis);
  // Updated in place on every request (this is the hot path): the pools seen first go first when there are too many.
  const remember = (pool: string, month: string, used: number): void => {
    const entry = known.get(pool);
    if (entry) {
      entry.month = month;
      entry.used = used;
      return;
    }
    known.set(pool, { month, used });
    if (known.size > KNOWN_POOLS) known.delete(known.keys().next().value as string);
  };
  const knownMonth = (pool: string, month: string): number | undefined => {
    const entry = known.get(pool);
    return entry?.month === month ? entry.used : undefined;
  };
  /** Redis is back: what was counted meanwhile goes into its month counters. */
  const settleOwed = async (): Promise<void> => {
    if (owed.size === 0) return;
    const settling = owed;
    owed = new Map();
    away = createMemoryQuotaCounter();
    for (const [key, { count, ttl }] of settling) {
      try {
        await redis[ADD_COMMAND](key, count, ttl);
      } catch (error) {
        const left = owed.get(key);
        owed.set(key, { count: count + (left?.count ?? 0), ttl });
        options.onError?.(error as Error);
      }
    }
  };
  const onReady = () => void settleOwed();
  options.redis.on('ready', onReady);

  const keys = (pool: string, now: Date) => {
    const minute = minuteWindow(now);
    const month = monthWindow(now);
    return {
      minute,
      month,
      minuteKey: `${prefix}:quota:min:${pool}:${minute.id}`,
      monthKey: `${prefix}:quota:mon:${pool}:${month.id}`,
    };
  };

  return {
    async consume(pool, limits, now = new Date()) {
      checkCall(closed, [pool], limits);
      const k = keys(pool, now);
      const nowSeconds = Math.floor(timeOf(now) / 1000);
      // The month key outlives its month by a day so a usage report run just after midnight on the
      // 1st still finds last month's count. The TTL is relative to `now` rather than an EXPIREAT:
      // with an injected clock in the past an absolute expiry would delete the key at once.
      const monthTtl = Math.max(1, k.month.resetAt + 86_400 - nowSeconds);
      if (!redisAway()) {
        try {
          const reply = await redis[CONSUME_COMMAND](
            k.minuteKey,
            k.monthKey,
            limits.perMinute,
            limits.perMonth,
            MINUTE_TTL_SECONDS,
            monthTtl
          );
          const [allowed, refusedCode, minuteUsed, monthUsed] = parseReply(reply);
          const refusedBy = refusedCode === 1 ? 'minute' : refusedCode === 2 ? 'month' : null;
          remember(pool, k.month.id, monthUsed);
          return decision(allowed === 1, refusedBy, limits, k.minute, k.month, minuteUsed, monthUsed);
        } catch (error) {
          if (!unavailableDependency(error)) throw error;
        }
      }
      // Redis is away: this instance's own count, on top of the month Redis last gave for the pool.
      const base = knownMonth(pool, k.month.id);
      if (limits.perMonth !== UNLIMITED && base === undefined) throw new DependencyUnavailableError('redis');
      const monthLeft = limits.perMonth === UNLIMITED ? UNLIMITED : Math.max(0, limits.perMonth - (base ?? 0));
      const here = await away.consume(pool, { perMinute: limits.perMinute, perMonth: monthLeft }, now);
      if (here.allowed) owed.set(k.monthKey, { count: (owed.get(k.monthKey)?.count ?? 0) + 1, ttl: monthTtl });
      return decision(here.allowed, here.refusedBy, limits, k.minute, k.month, here.minute.used, (base ?? 0) + here.month.used);
    },

    async peek(pool, limits, now = new Date()) {
      checkCall(closed, [pool], limits);
      const k = keys(pool, now);
      if (!redisAway()) {
        try {
          const [minuteRaw, monthRaw] = await redis.mget(k.minuteKey, k.monthKey);
          const minuteUsed = toCount(minuteRaw);
          const monthUsed = toCount(monthRaw);
          remember(pool, k.month.id, monthUsed);
          const refusedBy = refusal(minuteUsed, monthUsed, limits);
          return decision(refusedBy === null, refusedBy, limits, k.minute, k.month, minuteUsed, monthUsed);
        } catch (error) {
          if (!unavailableDependency(error)) throw error;
        }
      }
      // Headers only: what this instance knows, an unknown month counting from nothing.
      const base = knownMonth(pool, k.month.id) ?? 0;
      const monthLeft = limits.perMonth === UNLIMITED ? UNLIMITED : Math.max(0, limits.perMonth - base);
      const here = await away.peek(pool, { perMinute: limits.perMinute, perMonth: monthLeft }, now);
      return decision(here.allowed, here.refusedBy, limits, k.minute, k.month, here.minute.used, base + here.month.used);
    },

    async monthUsed(pools, now = new Date()) {
      checkCall(closed, pools);
      if (pools.length === 0) return new Map();
      const month = monthWindow(now);
      if (!redisAway()) {
        try {
          const values = await redis.mget(pools.map((pool) => `${prefix}:quota:mon:${pool}:${month.id}`));
          const used = new Map(pools.map((pool, index) => [pool, toCount(values[index] ?? null)]));
          for (const [pool, count] of used) remember(pool, month.id, count);
          return used;
        } catch (error) {
          if (!unavailableDependency(error)) throw error;
        }
      }
      const here = await away.monthUsed(pools, now);
      return new Map(
        pools.map((pool) => {
          const base = knownMonth(pool, month.id);
          // A count to show, which this instance never read: not a number to make up.
          if (base === undefined) throw new DependencyUnavailableError('redis');
          return [pool, base + (here.get(pool) ?? 0)];
        })
      );
    },

    async close() {
      // The client belongs to the caller, who may share it with other features. What is owed
      // and not yet added is lost with the process (requests of a Redis outage, at most).
      closed = true;
      options.redis.off('ready', onReady);
    },
  };
}

const MINUTE_TTL_SECONDS = 120;
const CONSUME_COMMAND = 'apiSuiteQuotaConsume';
const ADD_COMMAND = 'apiSuiteQuotaAdd';
/** Pools whose month count an instance remembers for deciding while Redis is away. */
const KNOWN_POOLS = 100_000;

type QuotaRedis = Redis & {
  [CONSUME_COMMAND](
    minuteKey: string,
    monthKey: string,
    perMinute: number,
    perMonth: number,
    minuteTtl: number,
    monthTtl: number
  ): Promise<unknown>;
  [ADD_COMMAND](monthKey: string, count: number, monthTtl: number): Promise<unknown>;
};

/**
 * KEYS: a month counter. ARGV: how many to add, its TTL (set only when the counter has none,
 * as when Redis came back empty and this creates it).
 */
const ADD_SCRIPT = `
local month = redis.call('INCRBY', KEYS[1], ARGV[1])
if redis.call('TTL', KEYS[1]) < 0 then
  redis.call('EXPIRE', KEYS[1], ARGV[2])
end
return month
`;

/**
 * KEYS: minute counter, month counter. ARGV: perMinute, perMonth (-1 = unlimited), minute TTL,
 * month TTL. Returns {allowed 0|1, refused 0 none|1 minute|2 month, minute used, month used}.
 * The TTL is set only when a counter is created, which happens inside this same script, so a
 * counter never exists without one.
 */
const CONSUME_SCRIPT = `
local counts = redis.call('MGET', KEYS[1], KEYS[2])
local minute = tonumber(counts[1]) or 0
local month = tonumber(counts[2]) or 0
local perMinute = tonumber(ARGV[1])
local perMonth = tonumber(ARGV[2])
if minute >= perMinute then
  return {0, 1, minute, month}
end
if perMonth ~= -1 and month >= perMonth then
  return {0, 2, minute, month}
end
minute = redis.call('INCR', KEYS[1])
if minute == 1 then
  redis.call('EXPIRE', KEYS[1], ARGV[3])
end
month = redis.call('INCR', KEYS[2])
if month == 1 then
  redis.call('EXPIRE', KEYS[2], ARGV[4])
end
return {1, 0, minute, month}
`;
