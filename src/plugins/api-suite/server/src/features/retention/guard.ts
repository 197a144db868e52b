import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Knex } from '../../db';

/**
 * One instance purges at a time. The instance that acquires the lease purges; the others let the
 * round pass. A lease lasts `ttlMs` unless renewed (every third of it while the purge runs), so an
 * instance killed mid-purge frees it within that time and the next round purges what it left.
 * A purge checks `lost` between batches and stops if another instance could have taken over.
 */
export interface Lease {
  /** The lease lapsed (renewal failed or found it taken): stop before the next batch. */
  readonly lost: boolean;
  release(): Promise<void>;
}

export interface PurgeGuard {
  /** The lease, or null when another instance holds it. */
  acquire(): Promise<Lease | null>;
}

export const LEASE_TTL_MS = 60_000;

/** With Redis: a key set only if absent (SET NX PX), renewed and released only by the token that set it. */
export function createRedisGuard(redis: Redis, key: string, ttlMs = LEASE_TTL_MS): PurgeGuard {
  return {
    async acquire() {
      const token = randomBytes(12).toString('hex');
      if ((await redis.set(key, token, 'PX', ttlMs, 'NX')) !== 'OK') return null;
      return keepAlive(ttlMs, {
        renew: async () => (await redis.eval(RENEW_SCRIPT, 1, key, token, String(ttlMs))) === 1,
        release: async () => {
          await redis.eval(RELEASE_SCRIPT, 1, key, token);
        },
      });
    },
  };
}

/**
 * Without Redis: a row of the purge's own table, taken by a conditional update that only one
 * instance's statement can win (its lease is empty or has lapsed), on any database the app runs on.
 */
export function createDatabaseGuard(knex: () => Knex, table: string, name: string, ttlMs = LEASE_TTL_MS): PurgeGuard {
  return {
    async acquire() {
      const token = randomBytes(12).toString('hex');
      const now = new Date();
      const taken = await knex()(table)
        .where({ name })
        .andWhere((free) => void free.whereNull('lease_until').orWhere('lease_until', '<', now))
        .update({ holder: token, lease_until: new Date(now.getTime() + ttlMs) });
      if (Number(taken) !== 1) return null;
      return keepAlive(ttlMs, {
        renew: async () =>
          Number(
            await knex()(table)
              .where({ name, holder: token })
              .update({ lease_until: new Date(Date.now() + ttlMs) })
          ) === 1,
        release: async () => {
          await knex()(table).where({ name, holder: token }).update({ holder: null, lease_until: null });
        },
      });
    },
  };
}

function keepAlive(ttlMs: number, store: { renew(): Promise<boolean>; release(): Promise<void> }): Lease {
  let lost = false;
  let renewedAt = Date.now();
  // Counted lost with a third of the lease to spare (two renewals missed), so a batch under way ends before another instance may start.
  const lapsesAt = () => renewedAt + (ttlMs * 2) / 3;
  const timer = setInterval(
    () => {
      store.renew().then(
        (held) => {
          if (held) renewedAt = Date.now();
          else lost = true;
        },
        // A renewal that failed (the store is unreachable) leaves the lease as it was: lost once it has lapsed.
        () => {
          if (Date.now() >= lapsesAt()) lost = true;
        }
      );
    },
    Math.floor(ttlMs / 3)
  );
  timer.unref();
  return {
    get lost() {
      return lost || Date.now() >= lapsesAt();
    },
    async release() {
      clearInterval(timer);
      if (!lost) await store.release();
    },
  };
}

const RENEW_SCRIPT = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) else return 0 end`;
const RELEASE_SCRIPT = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) else return 0 end`;
