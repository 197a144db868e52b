import { isDeepStrictEqual } from 'node:util';

/**
 * The three ways a test waits, each named for what it waits for:
 * - `eventually`: until something happens (a delivery arrives, a run completes); returns as soon as it has.
 * - `quietFor`: a period in which something must NOT happen (no duplicate, no retry, no delivery
 *   while held back); fails the moment it does. The period is the caller's, named for what it guards.
 * - `timePasses`: only where the behaviour under test is about the clock itself (a rate window,
 *   an expiry, a lease running out); a comment at every call says why.
 * No test sleeps for a fixed time where an event can be awaited.
 */

/** Often enough to end a wait promptly, seldom enough that checks which query the app do not load it. */
export const POLL_MS = 50;

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Poll `check` until it returns a value other than undefined, and return that value. Fails after
 * `timeoutMs` with `what` (a function to describe the state it was left in).
 */
export async function eventually<T>(
  check: () => Promise<T | undefined> | T | undefined,
  timeoutMs = 15_000,
  what: string | (() => string) = 'condition'
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${typeof what === 'function' ? what() : what} not met within ${timeoutMs} ms`);
    await delay(POLL_MS);
  }
}

/**
 * Watch `value` for `ms` and fail as soon as it differs (deeply) from what it was at the start:
 * the check that something does not happen. Returns the value, for the caller to assert on.
 */
export async function quietFor<T>(ms: number, value: () => Promise<T> | T, what = 'the watched value'): Promise<T> {
  const start = await value();
  const deadline = Date.now() + ms;
  for (;;) {
    await delay(Math.min(POLL_MS, Math.max(0, deadline - Date.now())));
    const now = await value();
    if (!isDeepStrictEqual(now, start)) {
      throw new Error(`${what} changed during a ${ms} ms quiet period: ${JSON.stringify(start)} → ${JSON.stringify(now)}`);
    }
    if (Date.now() >= deadline) return now;
  }
}

/**
 * Let `ms` of wall-clock time pass. Only for behaviour that is about time itself (a window that
 * must roll over, a lease or a token that must expire); a comment at every call says which.
 */
export function timePasses(ms: number): Promise<void> {
  return delay(ms);
}
