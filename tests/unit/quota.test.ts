import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import {
  createMemoryQuotaCounter,
  createRedisQuotaCounter,
  minuteWindow,
  monthWindow,
  QuotaCounterClosedError,
  type QuotaCounter,
  type QuotaDecision,
} from '../../src/plugins/api-suite/server/src/features/access/quota';
import { rateLimitHeaders } from '../../src/plugins/api-suite/server/src/features/access/quota/headers';
import { DependencyUnavailableError } from '../../src/plugins/api-suite/server/src/dependencies';
import { assertRedisReachable } from '../helpers/services';
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy';
import { eventually } from '../helpers/wait';

/**
 * One suite, both counters: the access feature only sees QuotaCounter. The Redis half runs
 * whenever the run is given REDIS_URL and fails (never skips) when that Redis is not reachable.
 */
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

type CounterKind = 'memory' | 'redis';
const kinds: CounterKind[] = process.env.REDIS_URL ? ['memory', 'redis'] : ['memory'];
if (!process.env.REDIS_URL) {
  console.info('[quota.test] REDIS_URL is not set: the Redis quota counter is covered by the PostgreSQL + Redis run (.ci/run)');
}

const at = (iso: string): Date => new Date(iso);
const seconds = (iso: string): number => Date.parse(iso) / 1000;
const DAY = 86_400;

describe('quota windows', () => {
  it('identifies the UTC minute and its next boundary', () => {
    expect(minuteWindow(at('2025-03-07T09:05:42.250Z'))).toEqual({
      id: '202503070905',
      resetAt: seconds('2025-03-07T09:06:00Z'),
      windowSeconds: 60,
    });
    expect(minuteWindow(at('2025-03-07T09:05:00.000Z')).resetAt).toBe(seconds('2025-03-07T09:06:00Z'));
    expect(minuteWindow(at('2025-03-07T09:05:59.999Z')).resetAt).toBe(seconds('2025-03-07T09:06:00Z'));
    expect(minuteWindow(at('2025-12-31T23:59:30Z'))).toEqual({
      id: '202512312359',
      resetAt: seconds('2026-01-01T00:00:00Z'),
      windowSeconds: 60,
    });
  });

  it('identifies the UTC month, its length and the first second of the next one', () => {
    expect(monthWindow(at('2025-01-31T23:59:59Z'))).toEqual({
      id: '202501',
      resetAt: seconds('2025-02-01T00:00:00Z'),
      windowSeconds: 31 * DAY,
    });
    expect(monthWindow(at('2025-02-01T00:00:00Z'))).toEqual({
      id: '202502',
      resetAt: seconds('2025-03-01T00:00:00Z'),
      windowSeconds: 28 * DAY,
    });
    expect(monthWindow(at('2024-02-10T12:00:00Z')).windowSeconds).toBe(29 * DAY);
    expect(monthWindow(at('2024-12-31T23:59:59Z'))).toEqual({
      id: '202412',
      resetAt: seconds('2025-01-01T00:00:00Z'),
      windowSeconds: 31 * DAY,
    });
    // Local midnight in a zone ahead of UTC is still the previous UTC month.
    expect(monthWindow(at('2025-03-01T00:30:00+01:00')).id).toBe('202502');
  });

  it('refuses an invalid date', () => {
    expect(() => minuteWindow(new Date('nope'))).toThrow(RangeError);
    expect(() => monthWindow(new Date('nope'))).toThrow(RangeError);
  });
});

describe.each(kinds)('quota counter, %s', (kind) => {
  let redis: Redis | undefined;
  let prefix: string;
  let counter: QuotaCounter;
  const extraClients: Redis[] = [];

  beforeAll(async () => {
    if (kind === 'redis') {
      await assertRedisReachable(REDIS_URL).catch((error: Error) => {
        throw new Error(`the Redis quota counter tests need Redis (REDIS_URL, default redis://127.0.0.1:6379): ${error.message}`);
      });
      redis = new Redis(REDIS_URL);
    }
  });

  afterAll(async () => {
    await redis?.quit();
  });

  beforeEach(() => {
    // A fresh prefix per test: no test sees another's counters, even on a shared Redis.
    prefix = `quota-test-${randomUUID()}`;
    counter = redis ? createRedisQuotaCounter({ redis, prefix }) : createMemoryQuotaCounter();
  });

  afterEach(async () => {
    await counter.close();
    await Promise.all(extraClients.splice(0).map((client) => client.quit()));
    if (redis) await deleteKeys(redis, `${prefix}:*`);
  });

  /** Another app instance: its own connection, the same Redis and prefix. */
  function secondInstance(): QuotaCounter {
    if (!redis) return counter;
    const client = new Redis(REDIS_URL);
    extraClients.push(client);
    return createRedisQuotaCounter({ redis: client, prefix });
  }

  it('allows N a minute, then refuses by minute without counting, and allows N again next minute', async () => {
    const limits = { perMinute: 10, perMonth: 1000 };
    const first = await counter.consume('key:1', limits, at('2025-05-20T10:15:05Z'));
    expect(first).toEqual({
      allowed: true,
      refusedBy: null,
      minute: { limit: 10, used: 1, remaining: 9, resetAt: seconds('2025-05-20T10:16:00Z'), windowSeconds: 60 },
      month: { limit: 1000, used: 1, remaining: 999, resetAt: seconds('2025-06-01T00:00:00Z'), windowSeconds: 31 * DAY },
    });
    for (let i = 2; i <= 10; i += 1) {
      const decision = await counter.consume('key:1', limits, at('2025-05-20T10:15:30Z'));
      expect(decision.allowed).toBe(true);
      expect(decision.minute.used).toBe(i);
      expect(decision.minute.remaining).toBe(10 - i);
    }
    for (let i = 0; i < 5; i += 1) {
      const refused = await counter.consume('key:1', limits, at('2025-05-20T10:15:59.999Z'));
      expect(refused.allowed).toBe(false);
      expect(refused.refusedBy).toBe('minute');
      expect(refused.minute).toMatchObject({ used: 10, remaining: 0 });
      expect(refused.month).toMatchObject({ used: 10, remaining: 990 });
    }

    for (let i = 1; i <= 10; i += 1) {
      const decision = await counter.consume('key:1', limits, at('2025-05-20T10:16:00Z'));
      expect(decision.allowed).toBe(true);
      expect(decision.minute.used).toBe(i);
      expect(decision.minute.resetAt).toBe(seconds('2025-05-20T10:17:00Z'));
    }
    expect((await counter.consume('key:1', limits, at('2025-05-20T10:16:01Z'))).refusedBy).toBe('minute');
    // Only the 20 allowed requests reached the month.
    expect((await counter.monthUsed(['key:1'], at('2025-05-20T10:16:02Z'))).get('key:1')).toBe(20);
  });

  it('keeps keys apart', async () => {
    const limits = { perMinute: 2, perMonth: -1 };
    const now = at('2025-05-20T10:15:00Z');
    await counter.consume('key:1', limits, now);
    await counter.consume('key:1', limits, now);
    expect((await counter.consume('key:1', limits, now)).allowed).toBe(false);
    expect((await counter.consume('key:2', limits, now)).allowed).toBe(true);
  });

  it('is exact under concurrency: 150 concurrent requests against 50 a minute give 50 allowed', async () => {
    const limits = { perMinute: 50, perMonth: 10_000 };
    const now = at('2025-05-20T10:15:00Z');
    const decisions = await Promise.all(Array.from({ length: 150 }, () => counter.consume('key:7', limits, now)));
    expectExactly50(decisions);
    expect((await counter.peek('key:7', limits, now)).minute.used).toBe(50);
    expect((await counter.monthUsed(['key:7'], now)).get('key:7')).toBe(50);
  });

  it('is exact under concurrency across two app instances sharing the counters', async () => {
    const limits = { perMinute: 50, perMonth: 10_000 };
    const now = at('2025-05-20T10:15:00Z');
    const other = secondInstance();
    const decisions = await Promise.all(
      Array.from({ length: 150 }, (_, i) => (i % 2 === 0 ? counter : other).consume('key:7', limits, now))
    );
    expectExactly50(decisions);
    expect((await other.peek('key:7', limits, now)).minute.used).toBe(50);
    expect((await counter.peek('key:7', limits, now)).minute.used).toBe(50);
  });

  it('is exact when the month limit is the one being raced', async () => {
    const limits = { perMinute: 1000, perMonth: 50 };
    const now = at('2025-05-20T10:15:00Z');
    const other = secondInstance();
    const decisions = await Promise.all(
      Array.from({ length: 150 }, (_, i) => (i % 2 === 0 ? counter : other).consume('key:8', limits, now))
    );
    expect(decisions.filter((d) => d.allowed)).toHaveLength(50);
    expect(decisions.filter((d) => d.refusedBy === 'month')).toHaveLength(100);
    expect((await counter.monthUsed(['key:8'], now)).get('key:8')).toBe(50);
  });

  it('refuses by month once the month is used up, and a new month starts from zero (Jan 31 → Feb 1)', async () => {
    const limits = { perMinute: 100, perMonth: 3 };
    const lastSecond = at('2025-01-31T23:59:59Z');
    for (let i = 1; i <= 3; i += 1) {
      const decision = await counter.consume('key:3', limits, lastSecond);
      expect(decision.allowed).toBe(true);
      expect(decision.month).toEqual({
        limit: 3,
        used: i,
        remaining: 3 - i,
        resetAt: seconds('2025-02-01T00:00:00Z'),
        windowSeconds: 31 * DAY,
      });
    }
    const refused = await counter.consume('key:3', limits, lastSecond);
    expect(refused.allowed).toBe(false);
    expect(refused.refusedBy).toBe('month');
    expect(refused.month).toMatchObject({ used: 3, remaining: 0 });
    expect(refused.minute).toMatchObject({ used: 3, remaining: 97 });

    const february = await counter.consume('key:3', limits, at('2025-02-01T00:00:00Z'));
    expect(february.allowed).toBe(true);
    expect(february.month).toEqual({ limit: 3, used: 1, remaining: 2, resetAt: seconds('2025-03-01T00:00:00Z'), windowSeconds: 28 * DAY });
    expect(february.minute.used).toBe(1);
  });

  it('rolls the month over from December to January', async () => {
    const limits = { perMinute: 100, perMonth: 2 };
    await counter.consume('key:4', limits, at('2024-12-31T23:59:59Z'));
    await counter.consume('key:4', limits, at('2024-12-31T23:59:59Z'));
    const refused = await counter.consume('key:4', limits, at('2024-12-31T23:59:59Z'));
    expect(refused.refusedBy).toBe('month');
    expect(refused.month.resetAt).toBe(seconds('2025-01-01T00:00:00Z'));

    const january = await counter.consume('key:4', limits, at('2025-01-01T00:00:00Z'));
    expect(january.allowed).toBe(true);
    expect(january.month).toEqual({ limit: 2, used: 1, remaining: 1, resetAt: seconds('2025-02-01T00:00:00Z'), windowSeconds: 31 * DAY });
    expect((await counter.monthUsed(['key:4'], at('2025-01-15T00:00:00Z'))).get('key:4')).toBe(1);
  });

  it('checks the minute before the month', async () => {
    const limits = { perMinute: 2, perMonth: 2 };
    const now = at('2025-05-20T10:15:00Z');
    await counter.consume('key:5', limits, now);
    await counter.consume('key:5', limits, now);
    expect((await counter.consume('key:5', limits, now)).refusedBy).toBe('minute');
    expect((await counter.consume('key:5', limits, at('2025-05-20T10:16:00Z'))).refusedBy).toBe('month');
  });

  it('never refuses by month when the month is unlimited (-1), and reports remaining null', async () => {
    const limits = { perMinute: 1000, perMonth: -1 };
    const now = at('2025-05-20T10:15:00Z');
    for (let i = 1; i <= 25; i += 1) {
      const decision = await counter.consume('key:6', limits, now);
      expect(decision.allowed).toBe(true);
      expect(decision.month).toEqual({
        limit: -1,
        used: i,
        remaining: null,
        resetAt: seconds('2025-06-01T00:00:00Z'),
        windowSeconds: 31 * DAY,
      });
    }
    const peeked = await counter.peek('key:6', limits, now);
    expect(peeked.allowed).toBe(true);
    expect(peeked.month.remaining).toBeNull();
    // The month is still counted, for usage reports.
    expect((await counter.monthUsed(['key:6'], now)).get('key:6')).toBe(25);
  });

  it('peeks without counting', async () => {
    const limits = { perMinute: 2, perMonth: 10 };
    const now = at('2025-05-20T10:15:00Z');
    expect(await counter.peek('key:9', limits, now)).toEqual({
      allowed: true,
      refusedBy: null,
      minute: { limit: 2, used: 0, remaining: 2, resetAt: seconds('2025-05-20T10:16:00Z'), windowSeconds: 60 },
      month: { limit: 10, used: 0, remaining: 10, resetAt: seconds('2025-06-01T00:00:00Z'), windowSeconds: 31 * DAY },
    });
    for (let i = 0; i < 5; i += 1) await counter.peek('key:9', limits, now);
    await counter.consume('key:9', limits, now);
    expect((await counter.peek('key:9', limits, now)).minute).toMatchObject({ used: 1, remaining: 1 });
    await counter.consume('key:9', limits, now);
    const full = await counter.peek('key:9', limits, now);
    expect(full).toMatchObject({
      allowed: false,
      refusedBy: 'minute',
      minute: { used: 2, remaining: 0 },
      month: { used: 2, remaining: 8 },
    });
    expect((await counter.peek('key:9', { perMinute: 2, perMonth: 2 }, at('2025-05-20T10:16:00Z'))).refusedBy).toBe('month');
    expect((await counter.monthUsed(['key:9'], now)).get('key:9')).toBe(2);
  });

  it('reports month usage of several pools, including pools never used', async () => {
    const limits = { perMinute: 100, perMonth: -1 };
    const now = at('2025-05-20T10:15:00Z');
    for (let i = 0; i < 3; i += 1) await counter.consume('key:11', limits, now);
    await counter.consume('key:12', limits, now);
    await counter.consume('key:11', limits, at('2025-04-30T12:00:00Z'));
    const used = await counter.monthUsed(['key:11', 'key:12', 'key:13'], at('2025-05-31T23:00:00Z'));
    expect([...used.entries()]).toEqual([
      ['key:11', 3],
      ['key:12', 1],
      ['key:13', 0],
    ]);
    expect((await counter.monthUsed([], now)).size).toBe(0);
  });

  it('refuses bad limits and key ids rather than allowing everything', async () => {
    const now = at('2025-05-20T10:15:00Z');
    await expect(counter.consume('key:1', { perMinute: Number.NaN, perMonth: 10 }, now)).rejects.toThrow(RangeError);
    await expect(counter.consume('key:1', { perMinute: 10, perMonth: -2 }, now)).rejects.toThrow(RangeError);
    await expect(counter.consume('key:1.5', { perMinute: 10, perMonth: 10 }, now)).rejects.toThrow(RangeError);
    await expect(counter.peek('key:1', { perMinute: -1, perMonth: 10 }, now)).rejects.toThrow(RangeError);
  });

  it('refuses every request when the minute limit is 0', async () => {
    const decision = await counter.consume('key:1', { perMinute: 0, perMonth: -1 }, at('2025-05-20T10:15:00Z'));
    expect(decision).toMatchObject({ allowed: false, refusedBy: 'minute', minute: { used: 0, remaining: 0 } });
  });

  it('stops working once closed', async () => {
    await counter.close();
    await expect(counter.consume('key:1', { perMinute: 1, perMonth: 1 })).rejects.toThrow(QuotaCounterClosedError);
    await expect(counter.peek('key:1', { perMinute: 1, perMonth: 1 })).rejects.toThrow(QuotaCounterClosedError);
    await expect(counter.monthUsed(['key:1'])).rejects.toThrow(QuotaCounterClosedError);
  });

  if (kind === 'redis') {
    it('uses the documented keys with their expiries, and leaves the caller’s client open', async () => {
      const client = redis as Redis;
      const now = at('2025-01-31T23:59:30Z');
      await counter.consume('key:42', { perMinute: 5, perMonth: 5 }, now);
      const minuteKey = `${prefix}:quota:min:key:42:202501312359`;
      const monthKey = `${prefix}:quota:mon:key:42:202501`;
      expect(await client.mget(minuteKey, monthKey)).toEqual(['1', '1']);
      const minuteTtl = await client.ttl(minuteKey);
      expect(minuteTtl).toBeGreaterThan(110);
      expect(minuteTtl).toBeLessThanOrEqual(120);
      // End of January (30 s after `now`) plus one day.
      const monthTtl = await client.ttl(monthKey);
      expect(monthTtl).toBeGreaterThan(30 + DAY - 10);
      expect(monthTtl).toBeLessThanOrEqual(30 + DAY);
      // A second consume does not push the expiries out.
      await client.expire(monthKey, 1000);
      await counter.consume('key:42', { perMinute: 5, perMonth: 5 }, now);
      expect(await client.ttl(monthKey)).toBeLessThanOrEqual(1000);

      await counter.close();
      expect(client.status).toBe('ready');
      expect(await client.ping()).toBe('PONG');
    });
  }

  if (kind === 'memory') {
    it('forgets past minutes and months rather than growing without bound', async () => {
      const limits = { perMinute: 1, perMonth: 1 };
      expect((await counter.consume('key:1', limits, at('2025-01-31T23:59:00Z'))).allowed).toBe(true);
      expect((await counter.peek('key:1', limits, at('2025-01-31T23:59:00Z'))).refusedBy).toBe('minute');
      // Seeing February drops January's minute and month buckets.
      await counter.consume('key:2', limits, at('2025-02-01T00:00:00Z'));
      const january = await counter.peek('key:1', limits, at('2025-01-31T23:59:00Z'));
      expect(january.minute.used).toBe(0);
      expect(january.month.used).toBe(0);
      // A clock a little behind does not wipe what is current.
      expect((await counter.peek('key:2', limits, at('2025-02-01T00:00:00Z'))).minute.used).toBe(1);
    });
  }
});

// Registered only with REDIS_URL, like the Redis half above: without it there is no Redis to lose.
if (process.env.REDIS_URL)
  describe('quota counter, Redis taken away', () => {
    let proxy: TcpProxy;
    let client: Redis;
    let direct: Redis;
    let counter: QuotaCounter;
    const prefix = `quota-away-${randomUUID()}`;
    const now = at('2025-05-20T10:15:05Z');
    const month = monthWindow(now).id;

    beforeAll(async () => {
      const url = new URL(REDIS_URL);
      proxy = await startTcpProxy({ host: url.hostname, port: Number(url.port || 6379) });
      // An app instance's client: through the proxy, which the test cuts to take Redis away from it alone.
      client = new Redis({ host: '127.0.0.1', port: proxy.port, maxRetriesPerRequest: 3, retryStrategy: () => 50 });
      client.on('error', () => undefined);
      direct = new Redis(REDIS_URL);
      counter = createRedisQuotaCounter({ redis: client, prefix });
    });

    afterAll(async () => {
      await counter.close();
      client.disconnect();
      await deleteKeys(direct, `${prefix}:*`);
      await direct.quit();
      await proxy.close();
    });

    it('decides on what it last read, refuses with 503 what it never read, and adds its count to Redis once it is back', async () => {
      const limited = { perMinute: 100, perMonth: 4 };
      expect((await counter.consume('consumer:1:plan:1', limited, now)).month.used).toBe(1);
      expect((await counter.consume('consumer:1:plan:1', limited, now)).month.used).toBe(2);

      proxy.cut('refuse');
      await eventually(() => (client.status === 'ready' ? undefined : true), 5_000, 'the client to see Redis gone');

      // Known: counted here, on top of the 2 Redis gave; the 4th of 4 is the last allowed.
      const third = await counter.consume('consumer:1:plan:1', limited, now);
      expect(third).toMatchObject({ allowed: true, month: { used: 3, remaining: 1 }, minute: { used: 1 } });
      expect((await counter.consume('consumer:1:plan:1', limited, now)).month.used).toBe(4);
      // Known to have reached its quota: refused, as it could only be higher.
      expect(await counter.consume('consumer:1:plan:1', limited, now)).toMatchObject({ allowed: false, refusedBy: 'month' });
      // Never read here, with a monthly quota: a guess could give quota away.
      await expect(counter.consume('consumer:2:plan:1', limited, now)).rejects.toBeInstanceOf(DependencyUnavailableError);
      await expect(counter.monthUsed(['consumer:2:plan:1'], now)).rejects.toBeInstanceOf(DependencyUnavailableError);
      // No monthly quota: nothing to guess, the minute is held per instance.
      const unlimited = { perMinute: 2, perMonth: -1 };
      expect((await counter.consume('consumer:3:plan:2', unlimited, now)).allowed).toBe(true);
      expect((await counter.consume('consumer:3:plan:2', unlimited, now)).allowed).toBe(true);
      expect(await counter.consume('consumer:3:plan:2', unlimited, now)).toMatchObject({ allowed: false, refusedBy: 'minute' });
      expect(await counter.monthUsed(['consumer:1:plan:1'], now)).toEqual(new Map([['consumer:1:plan:1', 4]]));
      // Headers only: peek answers whatever it knows, never refusing to.
      expect((await counter.peek('consumer:2:plan:1', limited, now)).month.used).toBe(0);

      proxy.restore();
      // What was allowed while it was away is added to Redis's month counters.
      const counted = await eventually(
        async () => {
          const [known, unknown] = await direct.mget(
            `${prefix}:quota:mon:consumer:1:plan:1:${month}`,
            `${prefix}:quota:mon:consumer:3:plan:2:${month}`
          );
          return known === '4' && unknown === '2' ? { known, unknown } : undefined;
        },
        10_000,
        'the counts made while Redis was away added to it'
      );
      expect(counted).toEqual({ known: '4', unknown: '2' });
      expect(await direct.ttl(`${prefix}:quota:mon:consumer:3:plan:2:${month}`)).toBeGreaterThan(0);
      // And Redis decides again.
      expect(await counter.consume('consumer:1:plan:1', limited, now)).toMatchObject({ allowed: false, refusedBy: 'month' });
      expect((await counter.consume('consumer:2:plan:1', limited, now)).month.used).toBe(1);
    });
  });

describe('rate-limit headers', () => {
  const now = at('2025-05-20T10:15:20Z');
  const minuteReset = seconds('2025-05-20T10:16:00Z');
  const monthReset = seconds('2025-06-01T00:00:00Z');

  function sample(overrides: Partial<QuotaDecision> = {}): QuotaDecision {
    return {
      allowed: true,
      refusedBy: null,
      minute: { limit: 10, used: 1, remaining: 9, resetAt: minuteReset, windowSeconds: 60 },
      month: { limit: 1000, used: 101, remaining: 899, resetAt: monthReset, windowSeconds: 31 * DAY },
      ...overrides,
    };
  }

  it('describes an allowed request with a limited month', () => {
    expect(rateLimitHeaders(sample(), now)).toEqual({
      'X-RateLimit-Limit': '10',
      'X-RateLimit-Remaining': '9',
      'X-RateLimit-Reset': String(minuteReset),
      'X-RateLimit-Monthly-Limit': '1000',
      'X-RateLimit-Monthly-Remaining': '899',
      'RateLimit-Policy': '"minute";q=10;w=60, "month";q=1000;w=2678400',
      RateLimit: '"minute";r=9;t=40',
    });
  });

  it('describes an allowed request with an unlimited month', () => {
    const decision = sample({ month: { limit: -1, used: 5000, remaining: null, resetAt: monthReset, windowSeconds: 31 * DAY } });
    expect(rateLimitHeaders(decision, now)).toEqual({
      'X-RateLimit-Limit': '10',
      'X-RateLimit-Remaining': '9',
      'X-RateLimit-Reset': String(minuteReset),
      'X-RateLimit-Monthly-Limit': 'unlimited',
      'X-RateLimit-Monthly-Remaining': 'unlimited',
      'RateLimit-Policy': '"minute";q=10;w=60',
      RateLimit: '"minute";r=9;t=40',
    });
  });

  it('adds Retry-After for a request refused by the minute', () => {
    const decision = sample({
      allowed: false,
      refusedBy: 'minute',
      minute: { limit: 10, used: 10, remaining: 0, resetAt: minuteReset, windowSeconds: 60 },
    });
    expect(rateLimitHeaders(decision, now)).toEqual({
      'X-RateLimit-Limit': '10',
      'X-RateLimit-Remaining': '0',
      'X-RateLimit-Reset': String(minuteReset),
      'X-RateLimit-Monthly-Limit': '1000',
      'X-RateLimit-Monthly-Remaining': '899',
      'RateLimit-Policy': '"minute";q=10;w=60, "month";q=1000;w=2678400',
      RateLimit: '"minute";r=0;t=40',
      'Retry-After': '40',
    });
  });

  it('reports the month for a request refused by the month', () => {
    const decision = sample({
      allowed: false,
      refusedBy: 'month',
      minute: { limit: 10, used: 3, remaining: 7, resetAt: minuteReset, windowSeconds: 60 },
      month: { limit: 1000, used: 1000, remaining: 0, resetAt: monthReset, windowSeconds: 31 * DAY },
    });
    const untilJune = monthReset - seconds('2025-05-20T10:15:20Z');
    expect(rateLimitHeaders(decision, now)).toEqual({
      'X-RateLimit-Limit': '10',
      'X-RateLimit-Remaining': '7',
      'X-RateLimit-Reset': String(minuteReset),
      'X-RateLimit-Monthly-Limit': '1000',
      'X-RateLimit-Monthly-Remaining': '0',
      'RateLimit-Policy': '"minute";q=10;w=60, "month";q=1000;w=2678400',
      RateLimit: `"month";r=0;t=${untilJune}`,
      'Retry-After': String(untilJune),
    });
  });

  it('never reports a negative remaining, and asks for at least one second', () => {
    const decision = sample({
      allowed: false,
      refusedBy: 'minute',
      minute: { limit: 10, used: 12, remaining: -2, resetAt: minuteReset, windowSeconds: 60 },
    });
    const headers = rateLimitHeaders(decision, at('2025-05-20T10:16:00Z'));
    expect(headers['X-RateLimit-Remaining']).toBe('0');
    expect(headers.RateLimit).toBe('"minute";r=0;t=0');
    expect(headers['Retry-After']).toBe('1');
  });

  it('works on a real decision', async () => {
    const counter = createMemoryQuotaCounter();
    const decision = await counter.consume('key:1', { perMinute: 10, perMonth: -1 }, now);
    expect(rateLimitHeaders(decision, now)).toMatchObject({ 'X-RateLimit-Remaining': '9', RateLimit: '"minute";r=9;t=40' });
    await counter.close();
  });
});

function expectExactly50(decisions: QuotaDecision[]): void {
  expect(decisions.filter((d) => d.allowed)).toHaveLength(50);
  expect(decisions.filter((d) => !d.allowed && d.refusedBy === 'minute')).toHaveLength(100);
  // Every allowed request saw a distinct count: no two were handed the same slot.
  const used = decisions
    .filter((d) => d.allowed)
    .map((d) => d.minute.used)
    .sort((a, b) => a - b);
  expect(used).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
}

async function deleteKeys(client: Redis, pattern: string): Promise<void> {
  let cursor = '0';
  do {
    const [next, keys] = await client.scan(cursor, 'MATCH', pattern, 'COUNT', 500);
    if (keys.length > 0) await client.del(...keys);
    cursor = next;
  } while (cursor !== '0');
}
