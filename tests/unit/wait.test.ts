import { POLL_MS, eventually, quietFor, timePasses } from '../helpers/wait';

/**
 * The tests' waiting helpers: a wait must end as soon as it can, and a quiet period must fail when
 * it is not quiet. On jest's fake clock (Date.now included): the figures are the helpers', not a
 * loaded machine's (1.9 s was once seen for two polls).
 */
beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());

describe('eventually', () => {
  it('returns the first value that is not undefined, as soon as there is one', async () => {
    let calls = 0;
    const value = eventually(() => {
      calls += 1;
      return calls === 3 ? 'ready' : undefined;
    });
    // Two polls after the first look: the third finds it, and nothing is asked after that.
    await jest.advanceTimersByTimeAsync(2 * POLL_MS);
    await expect(value).resolves.toBe('ready');
    await jest.advanceTimersByTimeAsync(10 * POLL_MS);
    expect(calls).toBe(3);
  });

  it('fails after its timeout, saying what it waited for and how things stood', async () => {
    let seen = 0;
    const waiting = eventually(
      async () => {
        seen += 1;
        return undefined;
      },
      100,
      () => `the answer (polled ${seen > 1 ? 'often' : 'once'})`
    );
    const failed = expect(waiting).rejects.toThrow('the answer (polled often) not met within 100 ms');
    await jest.advanceTimersByTimeAsync(100 + 2 * POLL_MS);
    await failed;
  });
});

describe('quietFor', () => {
  it('returns the value when it held still for the whole period, and not before', async () => {
    let settled = false;
    const quiet = quietFor(100, () => ({ count: 1 })).finally(() => (settled = true));
    await jest.advanceTimersByTimeAsync(99);
    expect(settled).toBe(false);
    await jest.advanceTimersByTimeAsync(1);
    await expect(quiet).resolves.toEqual({ count: 1 });
  });

  it('fails as soon as the value changes, naming it', async () => {
    let count = 0;
    let settled = false;
    const quiet = quietFor(2_000, () => count, 'deliveries').finally(() => (settled = true));
    const failed = expect(quiet).rejects.toThrow('deliveries changed during a 2000 ms quiet period: 0 → 1');
    await jest.advanceTimersByTimeAsync(POLL_MS);
    expect(settled).toBe(false);
    count += 1;
    // The next look sees it: one poll later, not at the end of the 2 s period.
    await jest.advanceTimersByTimeAsync(POLL_MS);
    expect(settled).toBe(true);
    await failed;
  });
});

describe('timePasses', () => {
  it('lets the time pass, and no less', async () => {
    let passed = false;
    const waiting = timePasses(50).then(() => (passed = true));
    await jest.advanceTimersByTimeAsync(49);
    expect(passed).toBe(false);
    await jest.advanceTimersByTimeAsync(1);
    await waiting;
    expect(passed).toBe(true);
  });
});
