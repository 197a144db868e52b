/**
 * When a failed delivery is tried again (docs/webhooks.md#outcome-retries-and-failure-accounting):
 * the configured schedule gives the wait after each failed attempt (the default allows 8 attempts
 * over about 33 hours). A `Retry-After` on 429 or 503 is honoured within that schedule: it may
 * push the next attempt later than planned, but never beyond the schedule's longest wait, and
 * never makes it earlier.
 */
export function retryDelaySeconds(schedule: readonly number[], failedAttempt: number, retryAfterSeconds?: number): number | null {
  if (!Number.isInteger(failedAttempt) || failedAttempt < 1 || failedAttempt > schedule.length) return null;
  const planned = schedule[failedAttempt - 1];
  if (retryAfterSeconds === undefined || !Number.isFinite(retryAfterSeconds)) return planned;
  const longest = Math.max(...schedule);
  return Math.max(planned, Math.min(Math.ceil(retryAfterSeconds), longest));
}

/** A Retry-After header (delta-seconds or an HTTP date) as seconds from `now`; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | string[] | undefined, now = Date.now()): number | undefined {
  const header = Array.isArray(value) ? value[0] : value;
  if (header === undefined) return undefined;
  const trimmed = header.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  // An HTTP date names its day and month; Date.parse alone would read "-5" as a year.
  if (!/[A-Za-z]{3}/.test(trimmed)) return undefined;
  const at = Date.parse(trimmed);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, Math.ceil((at - now) / 1000));
}

/** Statuses whose Retry-After we honour. */
export function honoursRetryAfter(status: number): boolean {
  return status === 429 || status === 503;
}
