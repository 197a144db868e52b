import { retryOnDeadlock } from '../../src/plugins/api-suite/server/src/db';

const deadlock = () => Object.assign(new Error('deadlock detected'), { code: '40P01' });

describe('retryOnDeadlock', () => {
  it('runs a transaction again when PostgreSQL aborted it as a deadlock victim', async () => {
    let calls = 0;
    const result = await retryOnDeadlock(async () => {
      calls += 1;
      if (calls < 3) throw deadlock();
      return 'done';
    });
    expect(result).toBe('done');
    expect(calls).toBe(3);
  });

  it('gives up after the attempts it was given, with the last error', async () => {
    let calls = 0;
    await expect(
      retryOnDeadlock(async () => {
        calls += 1;
        throw deadlock();
      }, 2)
    ).rejects.toThrow('deadlock detected');
    expect(calls).toBe(2);
  });

  it('never retries another failure', async () => {
    let calls = 0;
    const unique = Object.assign(new Error('duplicate key'), { code: '23505' });
    await expect(
      retryOnDeadlock(async () => {
        calls += 1;
        throw unique;
      })
    ).rejects.toBe(unique);
    expect(calls).toBe(1);
  });
});
