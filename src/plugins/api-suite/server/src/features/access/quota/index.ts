import type { Redis } from 'ioredis';
import { DependencyUnavailableError, followRedis, unavailableDependency } from '../../../dependencies';

/**
 * Request quotas of a pool: a clock-minute window and a calendar-month window, both in UTC. A
 * pool is what shares one allowance: a consumer on a plan (every key, token and JWT of theirs
 * on it), or one key with limits of its own (see `poolOf` in ../pools.ts).
 *
 * Refused requests are not counted, so a client hammering a key that is over its limit does not
 * push its own reset further away or eat into next month's allowance. The Redis counter is the
 * one to use with more than one app instance: the check and the increment happen in one Lua
 * script, so concurrent requests on any number of instances can never overshoot a limit.
 *
 * While Redis is away the Redis counter decides on what it knows (docs/operations.md): each
 * instance counts on its own, the minute per instance and the month on top of the count Redis
 * last gave it for the pool, and adds what it counted to Redis's month once it is back. A pool
 * with a monthly quota whose count this instance never read is refused with 503
 * (DependencyUnavailableError): allowing it would be a guess.
 */

export interface QuotaLimits {
  perMinute: number;
  /** -1 = unlimited */
  perMonth: number;
}

export interface QuotaWindow {
  /** -1 = unlimited (month only) */
  limit: number;
  used: number;
  /** null when unlimited */
  remaining: number | null;
  /** Unix seconds: the next minute boundary, or the first second of the next UTC month */
  resetAt: number;
  /** 60, or the length of the current month in seconds */
  windowSeconds: number;
}

export interface QuotaDecision {
  allowed: boolean;
  refusedBy: 'minute' | 'month' | null;
  minute: QuotaWindow;
  month: QuotaWindow;
}

export interface QuotaCounter {
  /**
   * Atomically: if minute used >= perMinute → refuse (refusedBy 'minute'); else if perMonth !== -1
   * and month used >= perMonth → refuse ('month'); else increment both and allow. Refused
   * requests change nothing. `used` is after the increment when allowed (so remaining =
   * limit - used; 9 after the first of 10).
   */
  consume(pool: string, limits: QuotaLimits, now?: Date): Promise<QuotaDecision>;
  /** The same numbers without counting anything (allowed says whether a request now would pass). */
  peek(pool: string, limits: QuotaLimits, now?: Date): Promise<QuotaDecision>;
  /** Month counters of several pools (for usage reports), without counting. */
  monthUsed(pools: string[], now?: Date): Promise<Map<string, number>>;
  close(): Promise<void>;
}

export interface QuotaWindowId {
  /** Identifies the window in counter keys: YYYYMMDDHHmm for a minute, YYYYMM for a month (UTC). */
  id: string;
  resetAt: number;
  windowSeconds: number;
}

export const UNLIMITED = -1;

export class QuotaCounterClosedError extends Error {
  constructor() {
    super('the quota counter is closed');
    this.name = 'QuotaCounterClosedError';
  }
}

export function minuteWindow(now: Date): QuotaWindowId {
  const ms = timeOf(now);
  const start = Math.floor(ms / 60_000) * 60;
  return { id: utcStamp(now, true), resetAt: start + 60, windowSeconds: 60 };
}

export function monthWindow(now: Date): QuotaWindowId {
  timeOf(now);
  const year = now.getUTCFullYear();
  const month = now.getUTCMonth();
  const start = Date.UTC(year, month, 1) / 1000;
  // Date.UTC rolls month 12 over into January of the next year.
  const next = Date.UTC(year, month + 1, 1) / 1000;
  return { id: utcStamp(now, false), resetAt: next, windowSeconds: next - start };
}

export function createMemoryQuotaCounter(): QuotaCounter {
  // Buckets per window id, so dropping a past window is one delete rather than a scan of every key.
  const minutes = new Map<string, Map<string, number>>();
  const months = new Map<string, Map<string, number>>();
  let prunedMinute = '';
  let prunedMonth = '';
  let closed = false;

  // Ids are fixed-width digit strings, so string order is time order. Only windows older than the
  // one asked about go: a caller whose clock is a little behind another's loses nothing current.
  const prune = (minuteId: string, monthId: string): void => {
    if (minuteId > prunedMinute) {
      prunedMinute = minuteId;
      for (const id of minutes.keys()) if (id < minuteId) minutes.delete(id);
    }
    if (monthId > prunedMonth) {
      prunedMonth = monthId;
      for (const id of months.keys()) if (id < monthId) months.delete(id);
    }
  };

  const read = (pool: string, now: Date) => {
    const minute = minuteWindow(now);
    const month = monthWindow(now);
    prune(minute.id, month.id);
    return {
      minute,
      month,
      minuteUsed: minutes.get(minute.id)?.get(pool) ?? 0,
      monthUsed: months.get(month.id)?.get(pool) ?? 0,
    };
  };

  const ensureOpen = (): void => {
    if (closed) throw new QuotaCounterClosedError();
  };

  return {
    async consume(pool, limits, now = new Date()) {
      ensureOpen();
      checkPool(pool);
      checkLimits(limits);
      // No await between the read and the write: the event loop makes this check-and-increment atomic.
      const state = read(pool, now);
      const refusedBy = refusal(state.minuteUsed, state.monthUsed, limits);
      if (refusedBy !== null) {
        return decision(false, refusedBy, limits, state.minute, state.month, state.minuteUsed, state.monthUsed);
      }
      const minuteUsed = increment(minutes, state.minute.id, pool);
      const monthUsed = increment(months, state.month.id, pool);
      return decision(true, null, limits, state.minute, state.month, minuteUsed, monthUsed);
    },

    async peek(pool, limits, now = new Date()) {
      ensureOpen();
      checkPool(pool);
      checkLimits(limits);
      const state = read(pool, now);
      const refusedBy = refusal(state.minuteUsed, state.monthUsed, limits);
      return decision(refusedBy === null, refusedBy, limits, state.minute, state.month, state.minuteUsed, state.monthUsed);
    },

    async monthUsed(pools, now = new Date()) {
      ensureOpen();
      pools.forEach(checkPool);
      const month = monthWindow(now);
      const bucket = months.get(month.id);
      return new Map(pools.map((pool) => [pool, bucket?.get(pool) ?? 0]));
    },

    async close() {
      closed = true;
      minutes.clear();
      months.clear();
    },
  };
}

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

  const ensureOpen = (): void => {
    if (closed) throw new QuotaCounterClosedError();
  };

  return {
    async consume(pool, limits, now = new Date()) {
      ensureOpen();
      checkPool(pool);
      checkLimits(limits);
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
      ensureOpen();
      checkPool(pool);
      checkLimits(limits);
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
      ensureOpen();
      pools.forEach(checkPool);
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

type ConsumeReply = [allowed: number, refusedCode: number, minuteUsed: number, monthUsed: number];

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

function refusal(minuteUsed: number, monthUsed: number, limits: QuotaLimits): 'minute' | 'month' | null {
  if (minuteUsed >= limits.perMinute) return 'minute';
  if (limits.perMonth !== UNLIMITED && monthUsed >= limits.perMonth) return 'month';
  return null;
}

function decision(
  allowed: boolean,
  refusedBy: 'minute' | 'month' | null,
  limits: QuotaLimits,
  minute: QuotaWindowId,
  month: QuotaWindowId,
  minuteUsed: number,
  monthUsed: number
): QuotaDecision {
  return {
    allowed,
    refusedBy,
    minute: window(limits.perMinute, minuteUsed, minute),
    month: window(limits.perMonth, monthUsed, month),
  };
}

function window(limit: number, used: number, id: QuotaWindowId): QuotaWindow {
  return {
    limit,
    used,
    remaining: limit === UNLIMITED ? null : Math.max(0, limit - used),
    resetAt: id.resetAt,
    windowSeconds: id.windowSeconds,
  };
}

function increment(buckets: Map<string, Map<string, number>>, windowId: string, pool: string): number {
  let bucket = buckets.get(windowId);
  if (!bucket) {
    bucket = new Map();
    buckets.set(windowId, bucket);
  }
  const used = (bucket.get(pool) ?? 0) + 1;
  bucket.set(pool, used);
  return used;
}

// A NaN or fractional limit would make every comparison false and silently allow everything,
// so bad plan data fails loudly instead.
function checkLimits(limits: QuotaLimits): void {
  if (!Number.isSafeInteger(limits.perMinute) || limits.perMinute < 0) {
    throw new RangeError(`perMinute must be a non-negative integer, got ${String(limits.perMinute)}`);
  }
  if (!Number.isSafeInteger(limits.perMonth) || (limits.perMonth < 0 && limits.perMonth !== UNLIMITED)) {
    throw new RangeError(`perMonth must be a non-negative integer or -1, got ${String(limits.perMonth)}`);
  }
}

// The pool becomes part of a Redis key; anything but lowercase words and numbers joined by colons could make a
// counter no lookup finds again (or reach into another pool's keys with a glob).
const POOL_PATTERN = /^[a-z]+(?::[a-z0-9]+)+$/;
function checkPool(pool: string): void {
  if (!POOL_PATTERN.test(pool)) throw new RangeError(`a quota pool is written like "consumer:12:plan:3", got ${JSON.stringify(pool)}`);
}

function timeOf(now: Date): number {
  const ms = now.getTime();
  if (Number.isNaN(ms)) throw new RangeError('now is an invalid Date');
  return ms;
}

function utcStamp(now: Date, withMinute: boolean): string {
  const pad = (value: number, width = 2) => String(value).padStart(width, '0');
  const month = `${pad(now.getUTCFullYear(), 4)}${pad(now.getUTCMonth() + 1)}`;
  if (!withMinute) return month;
  return `${month}${pad(now.getUTCDate())}${pad(now.getUTCHours())}${pad(now.getUTCMinutes())}`;
}

function toCount(raw: string | null): number {
  if (raw === null) return 0;
  const value = Number(raw);
  return Number.isFinite(value) ? value : 0;
}

function parseReply(reply: unknown): ConsumeReply {
  if (Array.isArray(reply) && reply.length === 4 && reply.every((value) => typeof value === 'number')) {
    return reply as ConsumeReply;
  }
  throw new Error(`unexpected reply from the quota script: ${JSON.stringify(reply)}`);
}
