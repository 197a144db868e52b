import { createHash, randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import {
  createLeaseBook,
  memoryLeaseBook,
  type LeaseBook,
} from '../../src/plugins/api-suite/server/src/features/webhooks/delivery/endpoint-leases';
import { eventually, timePasses } from '../helpers/wait';

/**
 * An endpoint's request slots shared by processes. The memory book always; the Redis book, two
 * books standing for two processes, whenever the run is given REDIS_URL (the PostgreSQL + Redis
 * pass of .ci/run).
 */
const fail = (error: Error) => {
  throw error;
};

describe('endpoint slots in one process (memory)', () => {
  it('grants up to the cap and takes back what is given', async () => {
    const book = memoryLeaseBook();
    expect(
      await book.acquire([
        { endpoint: 'a', count: 7, cap: 5 },
        { endpoint: 'b', count: 2, cap: 5 },
      ])
    ).toEqual([5, 2]);
    expect(await book.acquire([{ endpoint: 'a', count: 1, cap: 5 }])).toEqual([0]);
    book.release('a', 2);
    expect(book.held('a')).toBe(3);
    expect(await book.acquire([{ endpoint: 'a', count: 5, cap: 5 }])).toEqual([2]);
  });

  it('holds a consumer to their cap over all their endpoints, and gives it back as they release', async () => {
    const book = memoryLeaseBook();
    const mallory = { id: 'mallory', cap: 20 };
    const names = ['localhost', '127.0.0.2', '[::ffff:127.0.0.1]', '127.0.0.3'].map((host) => `mallory ${host}`);
    expect(await book.acquire(names.map((endpoint) => ({ endpoint, count: 10, cap: 10, consumer: mallory })))).toEqual([10, 10, 0, 0]);
    expect(book.consumerFull?.('mallory')).toBe(true);
    // Another consumer keeps their own; an endpoint at its own cap does not make its consumer full.
    expect(await book.acquire([{ endpoint: 'alice localhost', count: 10, cap: 10, consumer: { id: 'alice', cap: 20 } }])).toEqual([10]);
    expect(await book.acquire([{ endpoint: 'alice localhost', count: 5, cap: 10, consumer: { id: 'alice', cap: 20 } }])).toEqual([0]);
    expect(book.consumerFull?.('alice')).toBe(false);
    book.release(names[0], 4);
    expect(await book.acquire([{ endpoint: names[2], count: 10, cap: 10, consumer: mallory }])).toEqual([4]);
  });
});

if (process.env.REDIS_URL) {
  describe('endpoint slots across processes (Redis)', () => {
    let redis: Redis;
    const books: LeaseBook[] = [];
    const prefix = `test-leases-${randomUUID()}`;
    const book = (leaseMs = 15_000) => {
      const made = createLeaseBook(redis, prefix, leaseMs, fail);
      books.push(made);
      return made;
    };
    const tick = () => new Promise((resolve) => setImmediate(resolve));
    /** The sorted set of an endpoint's leases, one member a slot. */
    const keyOf = (endpoint: string) => `${prefix}:webhooks:endpoint:${createHash('sha1').update(endpoint).digest('hex').slice(0, 24)}`;

    beforeAll(() => {
      redis = new Redis(process.env.REDIS_URL as string);
    });
    afterAll(async () => {
      for (const made of books) await made.close();
      const keys = await redis.keys(`${prefix}:*`);
      if (keys.length > 0) await redis.del(...keys);
      await redis.quit();
    });

    it('shares one cap between two processes, each endpoint on its own, in one call for several endpoints', async () => {
      const first = book();
      const second = book();
      expect(
        await first.acquire([
          { endpoint: 'https://a.example/hook', count: 6, cap: 10 },
          { endpoint: 'https://b.example/hook', count: 3, cap: 10 },
        ])
      ).toEqual([6, 3]);
      expect(
        await second.acquire([
          { endpoint: 'https://a.example/hook', count: 6, cap: 10 },
          { endpoint: 'https://b.example/hook', count: 6, cap: 10 },
        ])
      ).toEqual([4, 6]);
      expect(first.held('https://a.example/hook') + second.held('https://a.example/hook')).toBe(10);
      // Given back (written once the event loop turns): the other process may take them.
      first.release('https://a.example/hook', 3);
      await tick();
      await eventually(
        async () => ((await redis.zcard(keyOf('https://a.example/hook'))) === 7 ? true : undefined),
        2_000,
        'three slots given back'
      );
      expect(await second.acquire([{ endpoint: 'https://a.example/hook', count: 5, cap: 10 }])).toEqual([3]);
      // Closing gives back everything it held.
      await first.close();
      expect(await second.acquire([{ endpoint: 'https://b.example/hook', count: 10, cap: 10 }])).toEqual([4]);
    });

    it('holds one consumer to their cap over all their endpoints and every process, while another keeps theirs', async () => {
      const first = book();
      const second = book();
      const mallory = { id: `mallory-${randomUUID()}`, cap: 20 };
      // Eight names for one slow place, asked for by two processes.
      const names = ['localhost', '127.0.0.2', '127.0.0.3', '127.0.0.4', '127.0.0.5', '127.0.0.6', '[::ffff:127.0.0.1]', '127.1'].map(
        (host) => `${mallory.id} ${host}`
      );
      const asked = names.map((endpoint) => ({ endpoint, count: 10, cap: 10, consumer: mallory }));
      const [one, two] = await Promise.all([first.acquire(asked), second.acquire(asked)]);
      const total = (answer: number[]) => answer.reduce((sum, n) => sum + n, 0);
      expect(total(one) + total(two)).toBe(20);
      expect(first.consumerFull?.(mallory.id) && second.consumerFull?.(mallory.id)).toBe(true);
      // Another consumer's endpoints are theirs to take; an endpoint at its own cap does not make its consumer full.
      const alice = { id: `alice-${randomUUID()}`, cap: 20 };
      expect(await second.acquire([{ endpoint: `${alice.id} localhost`, count: 10, cap: 10, consumer: alice }])).toEqual([10]);
      expect(await first.acquire([{ endpoint: `${alice.id} localhost`, count: 5, cap: 10, consumer: alice }])).toEqual([0]);
      expect(first.consumerFull?.(alice.id)).toBe(false);
      // A slot Mallory's first process gives back is Mallory's again, in either process, and no more.
      const holding = names.find((endpoint) => first.held(endpoint) > 0) ?? names[0];
      first.release(holding, 2);
      await tick();
      await eventually(
        async () =>
          (await redis.zcard(`${prefix}:webhooks:consumer:${createHash('sha1').update(mallory.id).digest('hex').slice(0, 24)}`)) === 18
            ? true
            : undefined,
        2_000,
        'two of the consumer’s slots given back'
      );
      expect(total(await second.acquire(asked))).toBe(2);
      expect(total(await first.acquire(asked))).toBe(0);
    });

    it('lets the slots of a process that died run out after their lease, and not before', async () => {
      // What a killed process leaves: three leases of the endpoint, running out in a second, never renewed.
      const endpoint = 'https://c.example/hook';
      const key = keyOf(endpoint);
      const [seconds, micros] = await redis.time();
      const runsOut = Number(seconds) * 1000 + Math.floor(Number(micros) / 1000) + 1_000;
      await redis.zadd(key, runsOut, 'dead-1', runsOut, 'dead-2', runsOut, 'dead-3');
      const alive = book();
      expect(await alive.acquire([{ endpoint, count: 3, cap: 3 }])).toEqual([0]);
      // A lease runs out by the clock: the time must pass.
      await timePasses(1_200);
      expect(await alive.acquire([{ endpoint, count: 3, cap: 3 }])).toEqual([3]);
      expect(await redis.zrange(key, 0, -1)).not.toContain('dead-1');
    });

    it('counts the worker processes delivering, and forgets one that closed', async () => {
      const scoped = `${prefix}:presence`;
      const first = createLeaseBook(redis, scoped, 15_000, fail);
      expect(first.workers?.()).toBe(1);
      const second = createLeaseBook(redis, scoped, 15_000, fail);
      await eventually(() => (first.workers?.() === 2 && second.workers?.() === 2 ? true : undefined), 3_000, 'both see two workers');
      await second.close();
      await eventually(() => (first.workers?.() === 1 ? true : undefined), 3_000, 'the one left sees one');
      await first.close();
    });

    it('renews what it holds, so a live process keeps its slots past the lease', async () => {
      const endpoint = 'https://d.example/hook';
      const holder = book(1_000);
      expect(await holder.acquire([{ endpoint, count: 2, cap: 2 }])).toEqual([2]);
      // Past the 1 s lease by the clock: the time must pass.
      await timePasses(1_700);
      expect(await book().acquire([{ endpoint, count: 1, cap: 2 }])).toEqual([0]);
    });
  });
}
