import { createPasswordAttempts } from '../../src/plugins/api-suite/server/src/features/accounts/password-attempts';

/** Wrong passwords given to close an account: five in fifteen minutes, then a wait until the oldest leaves the window. */
const WINDOW = 15 * 60_000;
const T0 = 1_800_000_000_000;

describe('password attempts', () => {
  it('lets four wrong passwords through and holds the fifth until the first is out of the window', () => {
    const attempts = createPasswordAttempts({ limit: 5, windowMs: WINDOW });
    for (let n = 0; n < 4; n += 1) {
      expect(attempts.waitFor(1, T0 + n * 1000)).toBe(0);
      attempts.failed(1, T0 + n * 1000);
    }
    expect(attempts.waitFor(1, T0 + 4000)).toBe(0);
    attempts.failed(1, T0 + 4000);
    // Five in the window: wait until the first (at T0) is 15 minutes old.
    expect(attempts.waitFor(1, T0 + 5000)).toBe(WINDOW / 1000 - 5);
    expect(attempts.waitFor(1, T0 + WINDOW - 1)).toBe(1);
    expect(attempts.waitFor(1, T0 + WINDOW)).toBe(0);
    // Another user is not held by the first one's mistakes.
    expect(attempts.waitFor(2, T0 + 5000)).toBe(0);
  });

  it('forgets the mistakes once the right password is given', () => {
    const attempts = createPasswordAttempts({ limit: 2, windowMs: WINDOW });
    attempts.failed(1, T0);
    attempts.succeeded(1);
    attempts.failed(1, T0 + 1);
    expect(attempts.waitFor(1, T0 + 2)).toBe(0);
    attempts.failed(1, T0 + 2);
    expect(attempts.waitFor(1, T0 + 3)).toBeGreaterThan(0);
  });

  it('remembers at most `kept` users, dropping the oldest', () => {
    const attempts = createPasswordAttempts({ limit: 1, windowMs: WINDOW, kept: 2 });
    attempts.failed(1, T0);
    attempts.failed(2, T0);
    attempts.failed(3, T0);
    expect(attempts.waitFor(1, T0 + 1)).toBe(0);
    expect(attempts.waitFor(2, T0 + 1)).toBeGreaterThan(0);
    expect(attempts.waitFor(3, T0 + 1)).toBeGreaterThan(0);
  });
});
