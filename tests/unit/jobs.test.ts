import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import {
  createBullmqJobs,
  createInProcessJobs,
  createJobs,
  DeferJobError,
  InvalidJobIdError,
  JobsClosedError,
  UnrecoverableJobError,
  type Job,
  type JobsDriverName,
  type JobsPort,
  type Logger,
} from '../../src/plugins/api-suite/server/src/jobs';
import { assertRedisReachable } from '../helpers/services';
import { startTcpProxy } from '../helpers/tcp-proxy';
import { eventually, quietFor, timePasses } from '../helpers/wait';

/**
 * One suite, both drivers: features only see the port, so the drivers must behave the same.
 * The BullMQ half runs whenever the run is given REDIS_URL (CI's PostgreSQL + Redis pass), and
 * fails (never skips) when that Redis is not reachable. A run without REDIS_URL is the
 * SQLite + in-process configuration, which needs nothing but Node.
 */
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

const drivers: JobsDriverName[] = process.env.REDIS_URL ? ['in-process', 'bullmq'] : ['in-process'];
if (!process.env.REDIS_URL) {
  console.info('[jobs.test] REDIS_URL is not set: the BullMQ driver is covered by the PostgreSQL + Redis run (.ci/run)');
}

describe.each(drivers)('jobs port, %s driver', (driver) => {
  let jobs: JobsPort;
  let logger: TestLogger;
  let prefix: string;
  let redis: Redis | undefined;

  beforeAll(async () => {
    if (driver === 'bullmq') {
      await assertRedisReachable(REDIS_URL).catch((error: Error) => {
        throw new Error(`the BullMQ driver tests need Redis (REDIS_URL, default redis://127.0.0.1:6379): ${error.message}`);
      });
      redis = new Redis(REDIS_URL);
    }
  });

  afterAll(async () => {
    await redis?.quit();
  });

  beforeEach(() => {
    logger = testLogger();
    // A fresh prefix per test: no test sees another's queues, even on a shared Redis.
    prefix = `jobs-test-${randomUUID()}`;
    jobs = driver === 'bullmq' ? createBullmqJobs({ redisUrl: REDIS_URL, prefix, logger }) : createInProcessJobs({ logger });
  });

  afterEach(async () => {
    await jobs.close(2_000);
    if (redis) await deleteKeys(redis, `${prefix}:*`);
  });

  it('reports its driver', () => {
    expect(jobs.driver).toBe(driver);
  });

  it('runs jobs enqueued before a handler exists, in order, with their name, data and try numbers', async () => {
    const id1 = await jobs.enqueue('mail', 'welcome', { to: 'a@example.com', tags: ['x'] });
    const id2 = await jobs.enqueue('mail', 'welcome', { to: 'b@example.com', tags: [] });
    expect(await jobs.counts('mail')).toEqual({ waiting: 2, delayed: 0, active: 0 });

    const seen: Job<{ to: string; tags: string[] }>[] = [];
    jobs.process<{ to: string; tags: string[] }>('mail', async (job) => {
      seen.push(job);
    });
    await waitFor(() => seen.length === 2);

    expect(seen).toEqual([
      { id: id1, queue: 'mail', name: 'welcome', data: { to: 'a@example.com', tags: ['x'] }, attempt: 1, attempts: 1, started: 1 },
      { id: id2, queue: 'mail', name: 'welcome', data: { to: 'b@example.com', tags: [] }, attempt: 1, attempts: 1, started: 1 },
    ]);
    await waitFor(async () => isEmpty(await jobs.counts('mail')));
  });

  it('hands over data as JSON would carry it', async () => {
    const seen: unknown[] = [];
    jobs.process('json', async (job) => {
      seen.push(job.data);
    });
    await jobs.enqueue('json', 'dated', { at: new Date('2024-01-02T03:04:05.000Z'), skip: undefined });
    await jobs.enqueue('json', 'empty', undefined);
    await waitFor(() => seen.length === 2);
    expect(seen).toEqual([{ at: '2024-01-02T03:04:05.000Z' }, {}]);
  });

  it('does not run a delayed job before its delay, and runs it after', async () => {
    const ranAt: number[] = [];
    jobs.process('later', async () => {
      ranAt.push(Date.now());
    });
    const enqueuedAt = Date.now();
    await jobs.enqueue('later', 'remind', {}, { delayMs: 800 });
    expect(await jobs.counts('later')).toEqual({ waiting: 0, delayed: 1, active: 0 });

    // Half the delay: a run before it would be too early.
    expect(await quietFor(400, () => ranAt.length, 'runs before the delay')).toBe(0);
    await waitFor(() => ranAt.length === 1, 3_000);
    expect(ranAt[0] - enqueuedAt).toBeGreaterThanOrEqual(790);
  });

  it('retries a failing job with a fixed backoff until it succeeds', async () => {
    const tries: { attempt: number; attempts: number; started: number; at: number }[] = [];
    jobs.process('flaky', async (job) => {
      tries.push({ attempt: job.attempt, attempts: job.attempts, started: job.started, at: Date.now() });
      if (job.attempt < 3) throw new Error(`try ${job.attempt} fails`);
    });
    await jobs.enqueue('flaky', 'sync', {}, { attempts: 3, backoff: { type: 'fixed', delayMs: 150 } });

    await waitFor(() => tries.length === 3, 5_000);
    expect(tries.map((t) => [t.attempt, t.attempts, t.started])).toEqual([
      [1, 3, 1],
      [2, 3, 2],
      [3, 3, 3],
    ]);
    expect(tries[1].at - tries[0].at).toBeGreaterThanOrEqual(140);
    expect(tries[2].at - tries[1].at).toBeGreaterThanOrEqual(140);
    await waitFor(async () => isEmpty(await jobs.counts('flaky')));
    // Twice the 150 ms backoff: a fourth try would have come within it.
    expect(await quietFor(300, () => tries.length, 'tries')).toBe(3);
    expect(logger.lines.filter((line) => line.startsWith('warn'))).toHaveLength(2);
  });

  it('retries at once without a backoff, alongside other jobs', async () => {
    const tries = new Map<number, number[]>();
    jobs.process<{ i: number }>(
      'again',
      async (job) => {
        tries.set(job.data.i, [...(tries.get(job.data.i) ?? []), job.attempt]);
        if (job.attempt === 1) throw new Error('first try fails');
      },
      { concurrency: 3 }
    );
    await jobs.enqueueBulk(
      'again',
      Array.from({ length: 10 }, (_, i) => ({ name: 'sync', data: { i }, options: { attempts: 2 } }))
    );

    await waitFor(() => [...tries.values()].filter((t) => t.length === 2).length === 10);
    await waitFor(async () => isEmpty(await jobs.counts('again')));
    expect([...tries.values()]).toEqual(Array.from({ length: 10 }, () => [1, 2]));
  });

  it('waits twice as long before each retry with an exponential backoff, then gives up', async () => {
    const at: number[] = [];
    jobs.process('doomed', async () => {
      at.push(Date.now());
      throw new Error('always fails');
    });
    const id = await jobs.enqueue('doomed', 'sync', {}, { attempts: 3, backoff: { type: 'exponential', delayMs: 100 } });

    await waitFor(() => logger.lines.some((line) => line.startsWith('error') && line.includes(id)), 5_000);
    expect(at).toHaveLength(3);
    expect(at[1] - at[0]).toBeGreaterThanOrEqual(95);
    expect(at[2] - at[1]).toBeGreaterThanOrEqual(195);
    await waitFor(async () => isEmpty(await jobs.counts('doomed')));
  });

  it('stops retrying at once on UnrecoverableJobError', async () => {
    let calls = 0;
    jobs.process('hopeless', async () => {
      calls += 1;
      throw new UnrecoverableJobError('the account is gone');
    });
    const id = await jobs.enqueue('hopeless', 'sync', {}, { attempts: 5, backoff: { type: 'fixed', delayMs: 50 } });

    await waitFor(() => logger.lines.some((line) => line.startsWith('error') && line.includes(id)));
    // Eight times the 50 ms backoff: a retry would have come within it.
    expect(await quietFor(400, () => calls, 'calls')).toBe(1);
    expect(await jobs.counts('hopeless')).toEqual({ waiting: 0, delayed: 0, active: 0 });
    expect(logger.lines.find((line) => line.includes(id))).toMatch(/unrecoverable.*the account is gone/);
  });

  it('puts a deferred job back under its id after its delay, without counting a try, and runs others meanwhile', async () => {
    const seen: { name: string; id: string; attempt: number; started: number; at: number }[] = [];
    jobs.process(
      'turns',
      async (job) => {
        seen.push({ name: job.name, id: job.id, attempt: job.attempt, started: job.started, at: Date.now() });
        if (job.name === 'later' && seen.filter((entry) => entry.name === 'later').length < 3) throw new DeferJobError(150);
      },
      { concurrency: 1 }
    );
    await jobs.enqueue('turns', 'later', {}, { jobId: 'later-1', attempts: 1 });
    await jobs.enqueue('turns', 'now', {}, { jobId: 'now-1' });

    await waitFor(() => seen.filter((entry) => entry.name === 'later').length === 3, 5_000);
    const later = seen.filter((entry) => entry.name === 'later');
    expect(later.map((entry) => [entry.id, entry.attempt, entry.started])).toEqual([
      ['later-1', 1, 1],
      ['later-1', 1, 2],
      ['later-1', 1, 3],
    ]);
    expect(later[1].at - later[0].at).toBeGreaterThanOrEqual(140);
    // The slot went to the other job while the first waited.
    expect(seen.map((entry) => entry.name).slice(0, 2)).toEqual(['later', 'now']);
    await waitFor(async () => isEmpty(await jobs.counts('turns')));
    expect(logger.lines.filter((line) => line.startsWith('warn') || line.startsWith('error'))).toEqual([]);
  });

  it('processes a bulk of 500 jobs exactly once each, never more than the concurrency at a time', async () => {
    const runs = new Map<number, number>();
    let running = 0;
    let peak = 0;
    const ids = await jobs.enqueueBulk(
      'bulk',
      Array.from({ length: 500 }, (_, i) => ({ name: 'item', data: { i } }))
    );
    expect(ids).toHaveLength(500);
    expect(new Set(ids).size).toBe(500);

    // Each job is held until five are running (or every job left has started), then the five are
    // let go together: so the jobs overlap up to the concurrency however a loaded machine schedules
    // them, with no timer, and a sixth running at once would be seen.
    let held: Array<() => void> = [];
    let started = 0;
    jobs.process<{ i: number }>(
      'bulk',
      async (job) => {
        running += 1;
        started += 1;
        peak = Math.max(peak, running);
        const turn = new Promise<void>((resolve) => held.push(resolve));
        if (running >= 5 || started >= 500) {
          const all = held;
          held = [];
          for (const release of all) release();
        }
        await turn;
        runs.set(job.data.i, (runs.get(job.data.i) ?? 0) + 1);
        running -= 1;
      },
      { concurrency: 5 }
    );

    await waitFor(() => runs.size === 500, 20_000);
    await waitFor(async () => isEmpty(await jobs.counts('bulk')));
    expect([...runs.values()].every((count) => count === 1)).toBe(true);
    expect(peak).toBe(5);
  });

  it('ignores a job whose id is already waiting or active, and takes it again once done', async () => {
    expect(await jobs.enqueue('dedupe', 'sync', { v: 1 }, { jobId: 'order-42' })).toBe('order-42');
    expect(await jobs.enqueue('dedupe', 'sync', { v: 2 }, { jobId: 'order-42' })).toBe('order-42');
    expect(
      await jobs.enqueueBulk('dedupe', [
        { name: 'sync', data: { v: 3 }, options: { jobId: 'order-42' } },
        { name: 'sync', data: { v: 4 }, options: { jobId: 'order-43' } },
        { name: 'sync', data: { v: 5 }, options: { jobId: 'order-43' } },
      ])
    ).toEqual(['order-42', 'order-43', 'order-43']);
    expect(await jobs.counts('dedupe')).toEqual({ waiting: 2, delayed: 0, active: 0 });

    const seen: { id: string; v: number }[] = [];
    const release = gate();
    jobs.process<{ v: number }>('dedupe', async (job) => {
      seen.push({ id: job.id, v: job.data.v });
      if (job.data.v === 1) await release.promise;
    });
    await waitFor(() => seen.length === 1);
    // order-42 is active now
    await jobs.enqueue('dedupe', 'sync', { v: 6 }, { jobId: 'order-42' });
    release.open();
    await waitFor(() => seen.length === 2);
    await waitFor(async () => isEmpty(await jobs.counts('dedupe')));
    // The duplicate order-42 (v: 6), enqueued while the first was active, must never run: nothing is waiting, so it would at once.
    await quietFor(200, () => seen.length, 'jobs run');
    expect(seen).toEqual([
      { id: 'order-42', v: 1 },
      { id: 'order-43', v: 4 },
    ]);

    await jobs.enqueue('dedupe', 'sync', { v: 7 }, { jobId: 'order-42' });
    await waitFor(() => seen.length === 3);
    expect(seen[2]).toEqual({ id: 'order-42', v: 7 });
  });

  it('takes the id of a job that failed for good again', async () => {
    const seen: boolean[] = [];
    jobs.process<{ fail: boolean }>('retry-later', async (job) => {
      seen.push(job.data.fail);
      if (job.data.fail) throw new Error('nope');
    });
    await jobs.enqueue('retry-later', 'sync', { fail: true }, { jobId: 'invoice-7' });
    await waitFor(() => logger.lines.some((line) => line.startsWith('error') && line.includes('invoice-7')));
    await waitFor(async () => isEmpty(await jobs.counts('retry-later')));

    await jobs.enqueue('retry-later', 'sync', { fail: false }, { jobId: 'invoice-7' });
    await waitFor(() => seen.length === 2);
    expect(seen).toEqual([true, false]);
  });

  it('cancels waiting and delayed jobs, but not unknown or active ones', async () => {
    const ran: string[] = [];
    const release = gate();

    expect(await jobs.enqueue('cancel', 'sync', {}, { jobId: 'waiting-1' })).toBe('waiting-1');
    expect(await jobs.cancel('cancel', 'waiting-1')).toBe(true);
    expect(await jobs.cancel('cancel', 'waiting-1')).toBe(false);

    jobs.process('cancel', async (job) => {
      ran.push(job.id);
      if (job.id === 'busy-1') await release.promise;
    });
    await jobs.enqueue('cancel', 'sync', {}, { jobId: 'delayed-1', delayMs: 400 });
    expect(await jobs.cancel('cancel', 'delayed-1')).toBe(true);
    expect(await jobs.cancel('cancel', 'delayed-1')).toBe(false);
    expect(await jobs.cancel('cancel', 'never-enqueued')).toBe(false);
    expect(await jobs.counts('cancel')).toEqual({ waiting: 0, delayed: 0, active: 0 });

    await jobs.enqueue('cancel', 'sync', {}, { jobId: 'busy-1' });
    await waitFor(() => ran.includes('busy-1'));
    expect(await jobs.cancel('cancel', 'busy-1')).toBe(false);
    release.open();
    await waitFor(async () => isEmpty(await jobs.counts('cancel')));

    // Longer than delayed-1's 400 ms delay: the cancelled job would have run within it.
    expect(await quietFor(500, () => [...ran], 'jobs run')).toEqual(['busy-1']);
  });

  it('enqueues a job at every cron tick until unscheduled', async () => {
    const ticks: { name: string; data: unknown }[] = [];
    jobs.process('cron', async (job) => {
      ticks.push({ name: job.name, data: job.data });
    });
    await jobs.schedule('cron', 'every-second', { cron: '* * * * * *', name: 'tick', data: { source: 'cron' } });

    await waitFor(() => ticks.length >= 2, 3_500);
    expect(ticks.slice(0, 2)).toEqual([
      { name: 'tick', data: { source: 'cron' } },
      { name: 'tick', data: { source: 'cron' } },
    ]);

    expect(await jobs.unschedule('cron', 'every-second')).toBe(true);
    const seenAtUnschedule = ticks.length;
    // A tick already handed to the worker may still land; no new ones may, within one and a half cron intervals.
    expect(await quietFor(1_500, () => ticks.length > seenAtUnschedule + 1, 'a second tick after unscheduling')).toBe(false);
    expect(await jobs.unschedule('cron', 'every-second')).toBe(false);
  });

  it('replaces a schedule given the same id again', async () => {
    const data: unknown[] = [];
    jobs.process('cron', async (job) => {
      data.push(job.data);
    });
    await jobs.schedule('cron', 'report', { cron: '* * * * * *', name: 'tick', data: { version: 1 } });
    await jobs.schedule('cron', 'report', { cron: '* * * * * *', name: 'tick', data: { version: 2 }, timezone: 'Europe/Paris' });

    await waitFor(() => data.length >= 2, 3_500);
    expect(data.every((d) => (d as { version: number }).version === 2)).toBe(true);
    expect(await jobs.unschedule('cron', 'report')).toBe(true);
  });

  it('rejects an invalid cron expression or time zone', async () => {
    for (const cron of ['not a cron', '61 * * * * *', '* * * *', '* * * * * * *', '0 0 15W * *']) {
      await expect(jobs.schedule('cron', 'bad', { cron, name: 'tick' })).rejects.toThrow(/invalid cron expression/);
    }
    await expect(jobs.schedule('cron', 'bad', { cron: '0 3 * * *', name: 'tick', timezone: 'Mars/Olympus' })).rejects.toThrow(
      /invalid time zone/
    );
    expect(await jobs.unschedule('cron', 'bad')).toBe(false);
  });

  it('rejects job ids with ":" or only digits', async () => {
    for (const jobId of ['a:b', '123', '']) {
      await expect(jobs.enqueue('ids', 'sync', {}, { jobId })).rejects.toBeInstanceOf(InvalidJobIdError);
    }
    await expect(
      jobs.enqueueBulk('ids', [
        { name: 'sync', data: {}, options: { jobId: 'fine-1' } },
        { name: 'sync', data: {}, options: { jobId: '42' } },
      ])
    ).rejects.toBeInstanceOf(InvalidJobIdError);
    await expect(jobs.cancel('ids', 'a:b')).rejects.toBeInstanceOf(InvalidJobIdError);
    expect(await jobs.counts('ids')).toEqual({ waiting: 0, delayed: 0, active: 0 });
    expect(await jobs.enqueue('ids', 'sync', {}, { jobId: 'user-123' })).toBe('user-123');
  });

  it('closes gracefully: waits for the active job, then refuses work', async () => {
    let started = false;
    let finished = false;
    jobs.process('slow', async () => {
      started = true;
      // A job that takes its time: close must wait for it. About time itself: whether close returns
      // before the job ends can only be seen by giving it the time in which it could (a gate opened
      // on any event would race close's own round trips to Redis).
      await timePasses(600);
      finished = true;
    });
    await jobs.enqueue('slow', 'sync', {});
    await waitFor(() => started);

    await jobs.close(5_000);
    expect(finished).toBe(true);
    await expect(jobs.enqueue('slow', 'sync', {})).rejects.toBeInstanceOf(JobsClosedError);
    await expect(jobs.enqueueBulk('slow', [{ name: 'sync', data: {} }])).rejects.toBeInstanceOf(JobsClosedError);
    await expect(jobs.schedule('slow', 's', { cron: '* * * * *', name: 'tick' })).rejects.toBeInstanceOf(JobsClosedError);
    expect(() => jobs.process('other', async () => undefined)).toThrow(JobsClosedError);
    await expect(jobs.close()).resolves.toBeUndefined();
  });

  it('stops waiting for an active job after the close timeout', async () => {
    const release = gate();
    let started = false;
    let returned = false;
    jobs.process('stuck', async () => {
      started = true;
      await release.promise;
      returned = true;
    });
    await jobs.enqueue('stuck', 'sync', {});
    await waitFor(() => started);

    const closingAt = Date.now();
    await jobs.close(300);
    expect(Date.now() - closingAt).toBeLessThan(2_000);
    expect(logger.lines.some((line) => line.startsWith('warn') && line.includes('still running'))).toBe(true);
    release.open();
    // The closed port cannot report counts: let the BullMQ worker finish the job before the keys go.
    const client = redis;
    if (client) await waitFor(async () => (await client.llen(`${prefix}:stuck:active`)) === 0);
    else await waitFor(() => returned);
  });
});

describe('the store going away and coming back', () => {
  it('in-process: always available, never lost', async () => {
    const jobs = createInProcessJobs({ logger: testLogger() });
    const told: unknown[] = [];
    jobs.onRestored((restored) => told.push(restored));
    expect(jobs.available()).toBe(true);
    await jobs.close();
    expect(jobs.available()).toBe(false);
    expect(told).toEqual([]);
  });

  // Registered only with REDIS_URL, like the BullMQ half above.
  if (process.env.REDIS_URL)
    it('BullMQ: says whether Redis kept the jobs each time it is reachable again, and fails fast meanwhile', async () => {
      const url = new URL(REDIS_URL);
      const proxy = await startTcpProxy({ host: url.hostname, port: Number(url.port || 6379) });
      const direct = new Redis(REDIS_URL);
      const prefix = `jobs-test-${randomUUID()}`;
      const logger = testLogger();
      const jobs = createBullmqJobs({ redisUrl: `redis://127.0.0.1:${proxy.port}`, prefix, logger });
      try {
        const told: Array<{ lost: boolean; first: boolean }> = [];
        jobs.onRestored((restored) => told.push(restored));
        // A prefix Redis never held: its jobs are "lost" (pending work in the database is to be enqueued).
        await waitFor(() => told.length === 1);
        expect(told).toEqual([{ lost: true, first: true }]);
        expect(jobs.available()).toBe(true);
        await jobs.enqueue('q', 'job', { n: 1 });
        // A listener added later hears what the first connection found.
        const late: unknown[] = [];
        jobs.onRestored((restored) => late.push(restored));
        expect(late).toEqual([{ lost: true, first: true }]);

        // Away: enqueueing fails at once instead of waiting for Redis.
        proxy.cut('refuse');
        await waitFor(() => !jobs.available());
        const started = Date.now();
        await expect(jobs.enqueue('q', 'job', { n: 2 })).rejects.toThrow();
        expect(Date.now() - started).toBeLessThan(1_000);
        // Back with its data: not lost.
        proxy.restore();
        await waitFor(() => told.length === 2, 10_000);
        expect(told[1]).toEqual({ lost: false, first: false });
        expect((await jobs.counts('q')).waiting).toBe(1);

        // Back without it (as a Redis restarted without persistence): lost.
        proxy.cut('refuse');
        await waitFor(() => !jobs.available());
        await deleteKeys(direct, `${prefix}:*`);
        proxy.restore();
        await waitFor(() => told.length === 3, 10_000);
        expect(told[2]).toEqual({ lost: true, first: false });
        expect(logger.lines).toContain(
          `warn [jobs] Redis is back without the jobs it held (prefix ${prefix}): pending work is enqueued again from the database`
        );
      } finally {
        await jobs.close(2_000);
        await deleteKeys(direct, `${prefix}:*`);
        await direct.quit();
        await proxy.close();
      }
    });
});

describe('createJobs', () => {
  it('picks BullMQ when given a Redis URL and the in-process driver otherwise', async () => {
    const inProcess = createJobs({ prefix: 'unused', logger: testLogger() });
    // Creating the BullMQ driver opens no connection until a queue is used, so this needs no Redis.
    const bullmq = createJobs({ redisUrl: REDIS_URL, prefix: `jobs-test-${randomUUID()}`, logger: testLogger() });
    expect(inProcess.driver).toBe('in-process');
    expect(bullmq.driver).toBe('bullmq');
    await Promise.all([inProcess.close(), bullmq.close()]);
  });
});

interface TestLogger extends Logger {
  /** Every line as "level message". */
  lines: string[];
}

function testLogger(): TestLogger {
  const lines: string[] = [];
  return {
    lines,
    info: (msg) => lines.push(`info ${msg}`),
    warn: (msg) => lines.push(`warn ${msg}`),
    error: (msg) => lines.push(`error ${msg}`),
    debug: (msg) => lines.push(`debug ${msg}`),
  };
}

function isEmpty(counts: { waiting: number; delayed: number; active: number }): boolean {
  return counts.waiting === 0 && counts.delayed === 0 && counts.active === 0;
}

async function waitFor(condition: () => boolean | Promise<boolean>, timeoutMs = 5_000): Promise<void> {
  await eventually(async () => ((await condition()) ? true : undefined), timeoutMs);
}

function gate(): { promise: Promise<void>; open: () => void } {
  let open: () => void = () => undefined;
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

async function deleteKeys(redis: Redis, pattern: string): Promise<void> {
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 500);
    if (keys.length > 0) await redis.del(...keys);
    cursor = next;
  } while (cursor !== '0');
}
