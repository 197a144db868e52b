import { performance } from 'node:perf_hooks';

/**
 * Time as the stateful delivery and quota modules read it: a monotonic `now()` (ms) and the timers
 * that wait on it. Production passes `systemClock`; tests pass a manual clock they move forward
 * themselves (tests/helpers/manual-clock.ts), so nothing there waits for time to pass and a loaded
 * machine cannot make a timing decision come out differently.
 */
export interface Clock {
  /** Milliseconds on a monotonic scale (not the wall clock: only differences mean anything). */
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
