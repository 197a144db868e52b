import { POLL_MS, eventually, quietFor, timePasses } from '../helpers/wait';

/** The tests' waiting helpers: a wait must end as soon as it can, and a quiet period must fail when it is not quiet. */
describe('eventually', () => {
  it('returns the first value that is not undefined, as soon as there is one', async () => {
    // On a fake clock: a loaded machine's timers must not decide it (1.9 s seen for two polls).
    jest.useFakeTimers();
    try {
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
    } finally {
      jest.useRealTimers();
    }
  });

  it('fails after its timeout, saying what it waited for and how things stood', async () => {
    let seen = 0;
    await expect(
      eventually(
        async () => {
          seen += 1;
          return undefined;
        },
        100,
        () => `the answer (polled ${seen > 1 ? 'often' : 'once'})`
      )
    ).rejects.toThrow('the answer (polled often) not met within 100 ms');
  });
});

describe('quietFor', () => {
  it('returns the value when it held still for the whole period', async () => {
    const started = Date.now();
    expect(await quietFor(100, () => ({ count: 1 }))).toEqual({ count: 1 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(100);
  });

  it('fails as soon as the value changes, naming it', async () => {
    let count = 0;
    setTimeout(() => (count += 1), 30);
    const started = Date.now();
    await expect(quietFor(2_000, () => count, 'deliveries')).rejects.toThrow('deliveries changed during a 2000 ms quiet period: 0 → 1');
    expect(Date.now() - started).toBeLessThan(1_000);
  });
});

describe('timePasses', () => {
  it('lets the time pass', async () => {
    const started = Date.now();
    await timePasses(50);
    expect(Date.now() - started).toBeGreaterThanOrEqual(49);
  });
});
