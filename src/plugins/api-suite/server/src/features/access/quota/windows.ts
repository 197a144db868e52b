/**
 * What both quota counters share (memory.ts, redis.ts): the windows a count falls in, the
 * decision a count makes, and the checks on what callers pass in.
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

export function refusal(minuteUsed: number, monthUsed: number, limits: QuotaLimits): 'minute' | 'month' | null {
  if (minuteUsed >= limits.perMinute) return 'minute';
  if (limits.perMonth !== UNLIMITED && monthUsed >= limits.perMonth) return 'month';
  return null;
}

export function decision(
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

export function window(limit: number, used: number, id: QuotaWindowId): QuotaWindow {
  return {
    limit,
    used,
    remaining: limit === UNLIMITED ? null : Math.max(0, limit - used),
    resetAt: id.resetAt,
    windowSeconds: id.windowSeconds,
  };
}

export function increment(buckets: Map<string, Map<string, number>>, windowId: string, pool: string): number {
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

/** What every counter call checks first, in both counters: the counter is still open, and the pools and limits are well formed. */
export function checkCall(closed: boolean, pools: string[], limits?: QuotaLimits): void {
  if (closed) throw new QuotaCounterClosedError();
  pools.forEach(checkPool);
  if (limits) checkLimits(limits);
}

export function timeOf(now: Date): number {
  const ms = now.getTime();
  if (Number.isNaN(ms)) throw new RangeError('now is an invalid Date');
  return ms;
}

export function utcStamp(now: Date, withMinute: boolean): string {
  const pad = (value: number, width = 2) => String(value).padStart(width, '0');
  const month = `${pad(now.getUTCFullYear(), 4)}${pad(now.getUTCMonth() + 1)}`;
  if (!withMinute) return month;
  return `${month}${pad(now.getUTCDate())}${pad(now.getUTCHours())}${pad(now.getUTCMinutes())}`;
}

export function toCount(raw: string | null): number {
  if (raw === null) return 0;
  const value = Number(raw);
  return Number.isFinite(value) ? value : 0;
}

export type ConsumeReply = [allowed: number, refusedCode: number, minuteUsed: number, monthUsed: number];

export function parseReply(reply: unknown): ConsumeReply {
  if (Array.isArray(reply) && reply.length === 4 && reply.every((value) => typeof value === 'number')) {
    return reply as ConsumeReply;
  }
  throw new Error(`unexpected reply from the quota script: ${JSON.stringify(reply)}`);
}
