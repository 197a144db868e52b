import crypto from 'node:crypto';
import { Redis } from 'ioredis';
import {
  createMemoryStreamSlots,
  createRedisStreamSlots,
  type StreamSlots,
} from '../../src/plugins/api-suite/server/src/features/access/stream-slots';
import { assertRedisReachable } from '../helpers/services';
import { eventually } from '../helpers/wait';

/**
 * The usage streams each consumer holds open (features/access/stream-slots.ts), in memory and in
 * Redis. The Redis half runs whenever the run is given REDIS_URL (the PostgreSQL + Redis run).
 */
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const kinds = process.env.REDIS_URL ? (['memory', 'redis'] as const) : (['memory'] as const);

describe.each(kinds)('%s stream slots', (kind) => {
  let redis: Redis | undefined;
  const made: StreamSlots[] = [];
  let prefix: string;

  beforeAll(async () => {
    if (kind === 'redis') {
      await assertRedisReachable(REDIS_URL);
      redis = new Redis(REDIS_URL);
    }
  });

  afterAll(async () => {
    await redis?.quit();
  });

  beforeEach(() => {
    prefix = `test-slots-${crypto.randomBytes(4).toString('hex')}`;
  });

  afterEach(async () => {
    for (const slots of made.splice(0)) await slots.close();
    if (redis) {
      const keys = await redis.keys(`${prefix}:*`);
      if (keys.length > 0) await redis.del(...keys);
    }
  });

  /** One app instance's slots; with Redis, every instance made in a test shares the same prefix. */
  const instance = (leaseMs?: number): StreamSlots => {
    const slots = redis
      ? createRedisStreamSlots({
          redis,
          prefix,
          leaseMs,
          onError: (error) => {
            throw error;
          },
        })
      : createMemoryStreamSlots();
    made.push(slots);
    return slots;
  };

  it('gives a consumer `limit` slots, refuses the next, and takes one back when released (once)', async () => {
    const slots = instance();
    const releases = [];
    for (let i = 0; i < 3; i += 1) releases.push(await slots.acquire(7, 3));
    expect(releases.every((release) => typeof release === 'function')).toBe(true);
    expect(await slots.acquire(7, 3)).toBeNull();
    expect(await slots.acquire(8, 3)).not.toBeNull();
    releases[0]?.();
    releases[0]?.();
    await eventually(async () => (await slots.acquire(7, 3)) ?? undefined, 2_000, 'a slot given back');
    expect(await slots.acquire(7, 3)).toBeNull();
  });

  if (kind === 'redis') {
    it('counts the streams of every instance together', async () => {
      const [one, two] = [instance(), instance()];
      expect(await one.acquire(7, 2)).not.toBeNull();
      expect(await two.acquire(7, 2)).not.toBeNull();
      expect(await one.acquire(7, 2)).toBeNull();
      expect(await two.acquire(7, 2)).toBeNull();
    });

    it('keeps an open stream while it renews its lease, and frees the slots of a process that died', async () => {
      // A 3 s lease renewed each second: the living instance keeps its slot through two seconds of
      // a stalled event loop (a loaded CI machine), while the dead one's runs out in Redis's time.
      const alive = instance(3_000);
      const dying = instance(3_000);
      expect(await alive.acquire(7, 2)).not.toBeNull();
      expect(await dying.acquire(7, 2)).not.toBeNull();
      await dying.close(); // stops renewing, as a killed process would
      expect(await alive.acquire(7, 2)).toBeNull();
      // The lease is the behaviour under test: it must run out, and only the dead one's.
      await eventually(async () => (await alive.acquire(7, 2)) ?? undefined, 10_000, "the dead instance's slot");
      expect(await alive.acquire(7, 2)).toBeNull();
    });
  }
});
