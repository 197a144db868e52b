import {
  honoursRetryAfter,
  parseRetryAfter,
  retryDelaySeconds,
} from '../../src/plugins/api-suite/server/src/features/webhooks/delivery/retry';
import { DEFAULT_RETRY_SCHEDULE_SECONDS } from '../../src/plugins/api-suite/server/src/features/webhooks/config';

/** The webhook retry schedule (docs/webhooks.md#outcome-retries-and-failure-accounting), and Retry-After honoured within it. */
describe('retryDelaySeconds', () => {
  const schedule = DEFAULT_RETRY_SCHEDULE_SECONDS;

  it('follows the default schedule: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h, then gives up', () => {
    expect([1, 2, 3, 4, 5, 6, 7].map((attempt) => retryDelaySeconds(schedule, attempt))).toEqual([5, 300, 1800, 7200, 18000, 36000, 36000]);
    expect(retryDelaySeconds(schedule, 8)).toBeNull();
  });

  it('never retries with an empty schedule', () => {
    expect(retryDelaySeconds([], 1)).toBeNull();
  });

  it('lets Retry-After push the next attempt later, up to the longest wait of the schedule', () => {
    expect(retryDelaySeconds(schedule, 1, 60)).toBe(60);
    expect(retryDelaySeconds(schedule, 1, 999_999)).toBe(36000);
    expect(retryDelaySeconds([1, 1, 1], 1, 30)).toBe(1);
  });

  it('never lets Retry-After bring an attempt forward', () => {
    expect(retryDelaySeconds(schedule, 2, 1)).toBe(300);
  });

  it('refuses nonsense attempt numbers', () => {
    expect(retryDelaySeconds(schedule, 0)).toBeNull();
    expect(retryDelaySeconds(schedule, 1.5)).toBeNull();
  });
});

describe('parseRetryAfter', () => {
  const now = Date.parse('2026-11-22T10:00:00Z');

  it('reads delta-seconds and HTTP dates', () => {
    expect(parseRetryAfter('120', now)).toBe(120);
    expect(parseRetryAfter(' 7 ', now)).toBe(7);
    expect(parseRetryAfter('Sun, 22 Nov 2026 10:01:30 GMT', now)).toBe(90);
    expect(parseRetryAfter('Sun, 22 Nov 2026 09:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter(['30', '60'], now)).toBe(30);
  });

  it('ignores what it cannot read', () => {
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter('-5', now)).toBeUndefined();
  });

  it('is honoured on 429 and 503 only', () => {
    expect([429, 503, 500, 502, 404].map(honoursRetryAfter)).toEqual([true, true, false, false, false]);
  });
});
