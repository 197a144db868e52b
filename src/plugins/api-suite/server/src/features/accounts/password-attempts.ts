import type { Redis } from 'ioredis';

/**
 * Wrong passwords given to close an account, counted per user. Checking one costs a bcrypt
 * comparison (tens of milliseconds of CPU), and the account routes are counted in no plan's
 * quota: without a limit one signed-in client could keep a server's CPU busy for every other
 * consumer, or try passwords as fast as it likes. After `limit` wrong ones within `windowMs` the
 * user waits until the oldest of them is out of the window.
 *
 * A try is counted before its password is checked (`reserve`), and forgotten with the others once
 * a password is right: counted after the check, twenty tries sent at once would all pass the
 * limit while their bcrypt comparisons run.
 */
export interface PasswordAttempts {
  /** Seconds until this user's password is checked again; 0 when it may be checked now. */
  waitFor(userId: number, now?: number): number;
  failed(userId: number, now?: number): void;
  succeeded(userId: number): void;
  /** Count a try before checking it: 0 when it may be checked, else the seconds to wait. */
  reserve(userId: number, now?: number): number;
}

/** The same, shared by every instance through Redis, falling back to this instance's count while Redis is away. */
export interface SharedPasswordAttempts {
  reserve(userId: number): Promise<number>;
  succeeded(userId: number): Promise<void>;
}

/**
 * With Redis, one count per user for every instance: a window that opens at the first try and
 * lasts `windowMs`, counted atomically (a transaction of SET NX, INCR and PTTL), so tries sent to
 * several instances at once pass the limit no more than tries sent to one.
 */
export function sharedPasswordAttempts(
  redis: () => Redis | undefined,
  prefix: string,
  local: PasswordAttempts,
  options: { limit: number; windowMs: number }
): SharedPasswordAttempts {
  const key = (userId: number) => `${prefix}:account-password:${userId}`;
  return {
    async reserve(userId) {
      const client = redis();
      if (!client) return local.reserve(userId);
      try {
        const results = await client.multi().set(key(userId), '0', 'PX', options.windowMs, 'NX').incr(key(userId)).pttl(key(userId)).exec();
        const count = Number(results?.[1]?.[1]);
        const ttl = Number(results?.[2]?.[1]);
        if (!Number.isFinite(count)) return local.reserve(userId);
        return count <= options.limit ? 0 : Math.max(1, Math.ceil((ttl > 0 ? ttl : options.windowMs) / 1000));
      } catch {
        return local.reserve(userId);
      }
    },
    async succeeded(userId) {
      local.succeeded(userId);
      await redis()
        ?.del(key(userId))
        .catch(() => undefined);
    },
  };
}

export function createPasswordAttempts(options: { limit: number; windowMs: number; kept?: number }): PasswordAttempts {
  const { limit, windowMs } = options;
  const kept = options.kept ?? 10_000;
  /** Times of each user's recent wrong passwords, oldest first. */
  const failures = new Map<number, number[]>();

  const recent = (userId: number, now: number): number[] => {
    const times = (failures.get(userId) ?? []).filter((time) => time > now - windowMs);
    if (times.length === 0) failures.delete(userId);
    else failures.set(userId, times);
    return times;
  };

  return {
    waitFor(userId, now = Date.now()) {
      const times = recent(userId, now);
      if (times.length < limit) return 0;
      return Math.max(1, Math.ceil((times[times.length - limit] + windowMs - now) / 1000));
    },
    failed(userId, now = Date.now()) {
      const times = recent(userId, now);
      // The oldest user goes first when too many are remembered: memory stays bounded whatever the traffic.
      if (!failures.has(userId) && failures.size >= kept) failures.delete(failures.keys().next().value as number);
      failures.set(userId, [...times, now]);
    },
    succeeded(userId) {
      failures.delete(userId);
    },
    reserve(userId, now = Date.now()) {
      const wait = this.waitFor(userId, now);
      if (wait === 0) this.failed(userId, now);
      return wait;
    },
  };
}
