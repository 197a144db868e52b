/**
 * Wrong passwords given to close an account, counted per user on this instance. Checking one
 * costs a bcrypt comparison (tens of milliseconds of CPU), and the account routes are counted in
 * no plan's quota: without a limit one signed-in client could keep a server's CPU busy for every
 * other consumer, or try passwords as fast as it likes. After `limit` wrong ones within
 * `windowMs` the user waits until the oldest of them is out of the window.
 */
export interface PasswordAttempts {
  /** Seconds until this user's password is checked again; 0 when it may be checked now. */
  waitFor(userId: number, now?: number): number;
  failed(userId: number, now?: number): void;
  succeeded(userId: number): void;
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
  };
}
