import { createSlots } from '../../src/plugins/api-suite/server/src/features/webhooks/services/delivery/jobs';

/** A task whose end the test decides: `finish(name)` resolves it, `fail(name)` rejects it. */
function controlled() {
  const started: string[] = [];
  const ends = new Map<string, { resolve(): void; reject(error: Error): void }>();
  const releases = new Map<string, () => void>();
  const task = (name: string, release: () => void) => {
    started.push(name);
    releases.set(name, release);
    return new Promise<void>((resolve, reject) => ends.set(name, { resolve, reject }));
  };
  const tick = () => new Promise((resolve) => setImmediate(resolve));
  return {
    started,
    task,
    finish: async (name: string) => {
      ends.get(name)?.resolve();
      await tick();
    },
    fail: async (name: string, message: string) => {
      ends.get(name)?.reject(new Error(message));
      await tick();
    },
    release: async (name: string) => {
      releases.get(name)?.();
      await tick();
    },
  };
}

describe('request slots (createSlots)', () => {
  it('runs at most `size` tasks at once, the oldest list first, and each list ends when all of its tasks have', async () => {
    const slots = createSlots(2);
    const run = controlled();
    let firstDone = false;
    const first = slots.each(['a1', 'a2', 'a3'], run.task).then((failures) => {
      firstDone = true;
      return failures;
    });
    const second = slots.each(['b1'], run.task);
    expect(run.started).toEqual(['a1', 'a2']);
    await run.finish('a2');
    expect(run.started).toEqual(['a1', 'a2', 'a3']);
    await run.finish('a1');
    expect(run.started).toEqual(['a1', 'a2', 'a3', 'b1']);
    expect(firstDone).toBe(false);
    await run.finish('a3');
    expect(firstDone).toBe(true);
    await expect(first).resolves.toEqual([]);
    await run.finish('b1');
    await expect(second).resolves.toEqual([]);
  });

  it('lets a task give its slot back before it ends, once however often it asks', async () => {
    const slots = createSlots(1);
    const run = controlled();
    const done = slots.each(['a', 'b', 'c'], run.task);
    expect(run.started).toEqual(['a']);
    await run.release('a');
    await run.release('a');
    // Released twice, freed once: b runs, c still waits.
    expect(run.started).toEqual(['a', 'b']);
    await run.finish('a');
    expect(run.started).toEqual(['a', 'b']);
    await run.finish('b');
    expect(run.started).toEqual(['a', 'b', 'c']);
    await run.finish('c');
    await expect(done).resolves.toEqual([]);
  });

  it('collects the failures of a list, thrown or rejected, and frees their slots', async () => {
    const slots = createSlots(1);
    const run = controlled();
    const done = slots.each(['a', 'boom', 'b'], (name, release) => {
      if (name === 'boom') throw new Error('thrown');
      return run.task(name, release);
    });
    await run.fail('a', 'rejected');
    expect(run.started).toEqual(['a', 'b']);
    await run.finish('b');
    await expect(done).resolves.toEqual([new Error('rejected'), new Error('thrown')]);
  });

  it('starts the next task in the same loop when a task gives its slot back before its first await', async () => {
    const slots = createSlots(1);
    const started: number[] = [];
    const items = Array.from({ length: 20_000 }, (_, index) => index);
    const done = slots.each(items, async (item, release) => {
      started.push(item);
      release();
    });
    // Every task gave its slot back at once: all of them started in this turn, without nesting a call per task.
    expect(started).toHaveLength(20_000);
    await expect(done).resolves.toEqual([]);
  });

  it('ends an empty list at once', async () => {
    await expect(createSlots(1).each([], () => Promise.resolve())).resolves.toEqual([]);
  });
});
