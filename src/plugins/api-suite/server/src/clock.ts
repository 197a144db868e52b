import { performance } from 'node:perf_hooks';

/**
 * Time as the stateful delivery and quota modules read it: a monotonic `now()` (ms) and the timers
 * that wait on it. Production passes `systemClock`; tests pass a manual clock they move forward
 * themselves (tests/helpers/manual-clock.ts), so nothing there waits for time to pass and a loaded
 * machine cannot make a timing decision come out differently.
 */
export interface Clock {
  /**
   * Milliseconds: on a monotonic scale for `systemClock` (only differences mean anything), since
   * the epoch for `wallClock` (times another process reads too).
   */
  now(): number;
  /** Runs `run` once `ms` have passed; the handle does not keep the process alive. */
  setTimeout(run: () => void, ms: number): ClockTimer;
  clearTimeout(timer: ClockTimer | undefined): void;
}

/** A pending timer: opaque to its owner, who only hands it back to `clearTimeout`. */
export interface ClockTimer {
  readonly clock?: unknown;
}

export const systemClock: Clock = {
  now: () => performance.now(),
  setTimeout(run, ms) {
    const timer = setTimeout(run, ms);
    timer.unref();
    return timer as unknown as ClockTimer;
  },
  clearTimeout(timer) {
    if (timer !== undefined) clearTimeout(timer as unknown as NodeJS.Timeout);
  },
};

/**
 * The same timers on the wall clock (`Date.now()`), for times written down for other processes to
 * read: the slot time a throttled delivery's job carries, booked by whichever instance paced it.
 */
export const wallClock: Clock = { ...systemClock, now: () => Date.now() };
