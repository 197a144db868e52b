import { createLanes, type LanesOptions } from '../../src/plugins/api-suite/server/src/features/webhooks/delivery/lanes';
import { memoryLeaseBook, type LeaseBook } from '../../src/plugins/api-suite/server/src/features/webhooks/delivery/endpoint-leases';
import { createManualClock, type ManualClock } from '../helpers/manual-clock';

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

const tick = () => new Promise((resolve) => setImmediate(resolve));
/** A few turns of the event loop (a lease given back is written in the next turn, then asked for in the one after). */
const turns = async (count: number) => {
  for (let n = 0; n < count; n += 1) await tick();
};
/** Items are "<endpoint><n>": the endpoint is the letters. */
const endpointOf = (item: string) => item.replace(/\d+$/, '');

/** Slots of one endpoint shared by several processes, each with its own view (as Redis leases are). */
function sharedPool() {
  const pool = {
    used: 0,
    view(): LeaseBook {
      let mine = 0;
      return {
        acquire: async (requests) =>
          requests.map(({ count, cap }) => {
            const taken = Math.max(0, Math.min(count, cap - pool.used));
            pool.used += taken;
            mine += taken;
            return taken;
          }),
        release: (_endpoint, count) => {
          const given = Math.min(count, mine);
          mine -= given;
          pool.used -= given;
        },
        held: () => mine,
        close: async () => undefined,
      };
    },
  };
  return pool;
}

/**
 * Lanes on a manual clock (`overrides.clock` when the test moves time itself): every answer time,
 * retry and wait below is the clock's, so a loaded machine decides nothing.
 */
function lanesOf(size: number, cap: number, overrides: Partial<LanesOptions> & { clock?: ManualClock } = {}) {
  return createLanes({
    clock: createManualClock(),
    size,
    cap,
    leases: memoryLeaseBook(),
    slowMs: 250,
    admitWaitMs: 1000,
    retryMs: 20,
    maxDeferMs: 10_000,
    keepMs: 500,
    busy: () => false,
    onError: (error) => {
      throw error;
    },
    ...overrides,
  });
}

describe('request slots shared between endpoints (createLanes)', () => {
  it('runs at most `size` tasks at once and each list ends when all of its tasks have', async () => {
    const lanes = lanesOf(2, 10);
    const run = controlled();
    let firstDone = false;
    const first = lanes.each(['a1', 'a2', 'a3'], endpointOf, run.task).then((failures) => {
      firstDone = true;
      return failures;
    });
    await tick();
    expect(run.started).toEqual(['a1', 'a2']);
    await run.finish('a2');
    expect(run.started).toEqual(['a1', 'a2', 'a3']);
    await run.finish('a1');
    await run.finish('a3');
    expect(firstDone).toBe(true);
    await expect(first).resolves.toEqual([]);
  });

  it('gives one endpoint at most `cap` slots, and the other endpoints the rest, in turns', async () => {
    const lanes = lanesOf(4, 2);
    const run = controlled();
    const slow = lanes.each(['s1', 's2', 's3', 's4', 's5'], endpointOf, run.task);
    const fast = lanes.each(['f1', 'f2', 'f3'], endpointOf, run.task);
    const other = lanes.each(['o1', 'o2'], endpointOf, run.task);
    await tick();
    // 4 slots: the slow endpoint holds its 2, the others take the rest.
    expect(run.started.filter((name) => name.startsWith('s'))).toEqual(['s1', 's2']);
    expect(run.started).toHaveLength(4);
    // The slow endpoint never answers; every send of the others goes through the two slots left.
    const others = ['f1', 'f2', 'f3', 'o1', 'o2'];
    const finished = new Set<string>();
    for (let turn = 0; turn < 20 && finished.size < others.length; turn += 1) {
      for (const name of run.started.filter((started) => others.includes(started) && !finished.has(started))) {
        finished.add(name);
        await run.finish(name);
      }
    }
    expect(finished.size).toBe(others.length);
    expect(run.started.filter((name) => name.startsWith('s'))).toEqual(['s1', 's2']);
    await expect(fast).resolves.toEqual([]);
    await expect(other).resolves.toEqual([]);
    await run.finish('s1');
    expect(run.started).toContain('s3');
    for (const name of ['s2', 's3', 's4', 's5']) await run.finish(name);
    await expect(slow).resolves.toEqual([]);
  });

  it('lets a task give its slot back before it ends, once however often it asks', async () => {
    const lanes = lanesOf(1, 10);
    const run = controlled();
    const done = lanes.each(['a1', 'a2', 'a3'], endpointOf, run.task);
    await tick();
    expect(run.started).toEqual(['a1']);
    await run.release('a1');
    await run.release('a1');
    expect(run.started).toEqual(['a1', 'a2']);
    await run.finish('a1');
    expect(run.started).toEqual(['a1', 'a2']);
    await run.finish('a2');
    await run.finish('a3');
    await expect(done).resolves.toEqual([]);
  });

  it('collects the failures of a list, thrown or rejected, and frees their slots', async () => {
    const lanes = lanesOf(1, 10);
    const run = controlled();
    const done = lanes.each(['a1', 'boom1', 'b1'], endpointOf, (name, release) => {
      if (name === 'boom1') throw new Error('thrown');
      return run.task(name, release);
    });
    await tick();
    await run.fail('a1', 'rejected');
    await tick();
    expect(run.started).toEqual(['a1', 'b1']);
    await run.finish('b1');
    await expect(done).resolves.toEqual([new Error('rejected'), new Error('thrown')]);
  });

  it('starts the next task in the same loop when a task gives its slot back at once', async () => {
    const lanes = lanesOf(1, 10);
    const started: number[] = [];
    const items = Array.from({ length: 20_000 }, (_, index) => index);
    const done = lanes.each(
      items,
      () => 'one',
      async (item, release) => {
        started.push(item);
        release();
      }
    );
    await tick();
    expect(started).toHaveLength(20_000);
    await expect(done).resolves.toEqual([]);
  });

  it('holds an endpoint to the slots the lease book grants, and asks again when they free elsewhere', async () => {
    // Another process holds 2 of the endpoint's 3 slots.
    const pool = sharedPool();
    const elsewhere = pool.view();
    await elsewhere.acquire([{ endpoint: 'x', count: 2, cap: 3 }]);
    const leases = pool.view();
    const clock = createManualClock();
    const lanes = lanesOf(10, 3, { leases, clock });
    const run = controlled();
    const done = lanes.each(['x1', 'x2', 'x3'], endpointOf, run.task);
    await tick();
    expect(run.started).toEqual(['x1']);
    elsewhere.release('x', 2);
    // Asked again after retryMs (20 ms), not before.
    await clock.advance(19);
    expect(run.started).toEqual(['x1']);
    await clock.advance(1);
    expect(run.started).toEqual(['x1', 'x2', 'x3']);
    for (const name of ['x1', 'x2', 'x3']) await run.finish(name);
    await expect(done).resolves.toEqual([]);
    // Nothing left to send: every slot is given back.
    await tick();
    expect(leases.held('x')).toBe(0);
    expect(pool.used).toBe(0);
  });

  it('admits every send of a fast endpoint, and of a slow one only what starts within a second', async () => {
    const clock = createManualClock();
    const lanes = lanesOf(50, 2, { slowMs: 200, admitWaitMs: 700, clock });
    const run = controlled();
    // Unknown endpoint: everything.
    expect(lanes.admit('s', 500)).toBe(500);
    const slow = lanes.each(['s1', 's2', 's3'], endpointOf, run.task);
    await tick();
    // Requests open but none answered yet and none open for long: cannot tell.
    expect(lanes.admit('s', 5)).toBeUndefined();
    const known = lanes.known('s');
    await clock.advance(201);
    await known;
    // Open for 201 ms (past slowMs) on two slots: 700 ms × 2 ÷ 201 = 6 sends, less the one waiting beyond its share.
    expect(lanes.admit('s', 100)).toBe(5);
    const waits = lanes.deferWaits('s', 3);
    // After the one waiting (201 ms ÷ 2 slots... judged at slowMs, 200 ms: 100 ms), then 100 ms apart.
    expect(waits).toEqual([100, 200, 300]);
    // Later deferrals queue behind earlier ones.
    expect(lanes.deferWaits('s', 1)[0]).toBeGreaterThan(waits[2]);
    for (const name of ['s1', 's2', 's3']) await run.finish(name);
    await expect(slow).resolves.toEqual([]);

    const fast = lanes.each(['f1', 'f2', 'f3'], endpointOf, async (_name, release) => release());
    await fast;
    expect(lanes.admit('f', 10_000)).toBe(10_000);
  });

  it("does not take a new endpoint's sends on trust while none of them has started", async () => {
    // No slot is ever granted (another process holds them all): the first sends wait, none answers.
    const refusing: LeaseBook = {
      acquire: async (requests) => requests.map(() => 0),
      release: () => undefined,
      held: () => 0,
      close: async () => undefined,
    };
    const clock = createManualClock();
    const lanes = lanesOf(50, 2, { leases: refusing, slowMs: 30, retryMs: 1_000, clock });
    void lanes.each(['z1', 'z2', 'z3'], endpointOf, async () => undefined);
    await tick();
    // Jobs fetched together: the second cannot tell yet whether the endpoint is slow.
    expect(lanes.admit('z', 100)).toBeUndefined();
    // None of them starts: it waits a slow answer's time (31 ms) three times over, then gives up.
    let known = false;
    void lanes.known('z').then(() => (known = true));
    await clock.advance(92);
    expect(known).toBe(false);
    await clock.advance(1);
    expect(known).toBe(true);
    // Still nothing to judge by: it takes twice the share, less what waits already.
    expect(lanes.admit('z', 100)).toBeUndefined();
    expect(lanes.admitUnknown('z', 100)).toBe(1);
  });

  it('ends an empty list at once', async () => {
    await expect(lanesOf(1, 1).each([], endpointOf, () => Promise.resolve())).resolves.toEqual([]);
  });
});

describe('the share is a floor, not a ceiling', () => {
  const names = (prefix: string, count: number) => Array.from({ length: count }, (_, n) => `${prefix}${n + 1}`);
  const open = (run: ReturnType<typeof controlled>, finished: Set<string>, prefix: string) =>
    run.started.filter((name) => name.startsWith(prefix) && !finished.has(name));

  /** Answer the lane's first send at once, so that it is known to be fast. */
  async function warm(lanes: ReturnType<typeof lanesOf>, run: ReturnType<typeof controlled>, prefix: string) {
    const first = lanes.each([`${prefix}0`], endpointOf, run.task);
    await tick();
    await run.finish(`${prefix}0`);
    await first;
  }

  it('lets a lone fast endpoint take every free slot but the reserve, and gives the next ones to a newcomer', async () => {
    const clock = createManualClock();
    const lanes = lanesOf(10, 2, { clock });
    const run = controlled();
    const finished = new Set<string>(['f0']);
    await warm(lanes, run, 'f');
    // Idle for longer than a slow answer since: it starts again from its share.
    await clock.advance(251);
    const fast = lanes.each(names('f', 60), endpointOf, run.task);
    await tick();
    // It starts with its share; after a share's worth of fast answers in a row (2), each fast answer
    // while it uses all it holds earns one more.
    expect(open(run, finished, 'f')).toHaveLength(2);
    const growth: number[] = [];
    for (let turn = 0; turn < 8; turn += 1) {
      const name = open(run, finished, 'f')[0];
      finished.add(name);
      await run.finish(name);
      growth.push(open(run, finished, 'f').length);
    }
    // Ten slots, a share of 2 and a reserve of 1: up to nine under way, not two.
    expect(growth).toEqual([2, 3, 4, 5, 6, 7, 8, 9]);
    expect(lanes.stats()).toMatchObject({ running: 9, saturated: 0 });

    // A newcomer: its first send takes the reserved slot at once, the rest wait for the borrower's answers.
    const other = lanes.each(names('n', 3), endpointOf, run.task);
    await tick();
    expect(open(run, finished, 'n')).toEqual(['n1']);
    // The borrower's next answer frees a slot for the newcomer (up to its share of 2), not for the borrower.
    const borrowed = open(run, finished, 'f')[0];
    finished.add(borrowed);
    await run.finish(borrowed);
    expect(open(run, finished, 'n')).toEqual(['n1', 'n2']);
    expect(open(run, finished, 'f')).toHaveLength(8);
    // With the newcomer at its share, the borrower may take what frees again, short of the reserve.
    const again = open(run, finished, 'f')[0];
    finished.add(again);
    await run.finish(again);
    expect(open(run, finished, 'f')).toHaveLength(7);
    expect(lanes.stats().running).toBe(9);
    for (const name of ['n1', 'n2', 'n3']) {
      finished.add(name);
      await run.finish(name);
    }
    await expect(other).resolves.toEqual([]);
    // Nobody else waits: the borrower takes the free slots again as its sends answer.
    for (let turn = 0; turn < 200; turn += 1) {
      const name = open(run, finished, 'f')[0];
      if (!name) break;
      finished.add(name);
      await run.finish(name);
      expect(open(run, finished, 'f').length).toBeLessThanOrEqual(9);
    }
    await expect(fast).resolves.toEqual([]);
    // A gap shorter than a slow answer (a burst's next job on its way) keeps what it earned.
    const next = lanes.each(names('f', 120).slice(100), endpointOf, run.task);
    await tick();
    expect(open(run, finished, 'f').length).toBeGreaterThan(2);
    for (let turn = 0; turn < 40; turn += 1) {
      const name = open(run, finished, 'f')[0];
      if (!name) break;
      finished.add(name);
      await run.finish(name);
    }
    await expect(next).resolves.toEqual([]);
  });

  it('holds a slow endpoint to its share, and lets it borrow once it answers fast again, and the reverse', async () => {
    const clock = createManualClock();
    const lanes = lanesOf(10, 2, { slowMs: 30, clock });
    const run = controlled();
    const finished = new Set<string>();
    // Its first answers take 40 ms: slow.
    const first = lanes.each(['s1', 's2'], endpointOf, run.task);
    await tick();
    await clock.advance(40);
    for (const name of ['s1', 's2']) {
      finished.add(name);
      await run.finish(name);
    }
    await first;
    // The calm after its slow answers (4 × 30 ms) is over; its average (40 ms) still says slow.
    await clock.advance(130);
    const backlog = lanes.each(names('t', 30), endpointOf, run.task);
    await tick();
    expect(open(run, finished, 't')).toHaveLength(2);
    expect(lanes.stats().saturated).toBe(1);
    // It answers at once from now on: once its average falls below 30 ms, it borrows the free slots.
    for (let turn = 0; turn < 10; turn += 1) {
      const name = open(run, finished, 't')[0];
      finished.add(name);
      await run.finish(name);
    }
    expect(open(run, finished, 't').length).toBeGreaterThan(2);
    expect(lanes.stats().saturated).toBe(0);
    // Then it turns slow again (a request open past 30 ms): it starts nothing more beyond its share.
    await clock.advance(40);
    const before = run.started.length;
    const name = open(run, finished, 't')[0];
    finished.add(name);
    await run.finish(name);
    expect(run.started.length).toBe(before);
    // Each answer from now on frees a slot it may not refill until it is back within its share of 2.
    while (open(run, finished, 't').length > 0) {
      await clock.advance(35);
      const before = open(run, finished, 't').length;
      const next = open(run, finished, 't')[0];
      finished.add(next);
      await run.finish(next);
      expect(open(run, finished, 't').length).toBeLessThanOrEqual(Math.max(2, before - 1));
    }
    await expect(backlog).resolves.toEqual([]);
  });

  it('with other worker processes about, keeps of a fast backlog only what it sends within keepMs and paces the rest back for all of them', async () => {
    let workers = 1;
    const leases: LeaseBook = { ...memoryLeaseBook(), workers: () => workers };
    // 10 slots, 1 reserved: 9 a lone fast lane may use. Answers take about 20 ms: a send per 2.2 ms here.
    const clock = createManualClock();
    const lanes = lanesOf(10, 2, { leases, keepMs: 100, clock });
    const run = controlled();
    void lanes.each(names('f', 3), endpointOf, run.task);
    await tick();
    await clock.advance(20);
    for (const name of ['f1', 'f2']) await run.finish(name);
    // Alone: it keeps everything (no other process could take it sooner).
    expect(lanes.spill('f', 1_000)).toEqual([]);
    workers = 2;
    // With a second process: it keeps 100 ms of sends (100 ÷ (20 ms ÷ 9 slots) = 45), the rest come back.
    const waits = lanes.spill('f', 1_000);
    expect(waits).toHaveLength(1_000 - 45);
    // The first is due before the kept ones run out (keepMs ÷ 2), the others at both processes' pace
    // together (answer time ÷ 9 slots ÷ 2 processes: 1.11 ms apart).
    expect(waits[0]).toBe(50);
    const spacing = (waits[waits.length - 1] - waits[0]) / (waits.length - 1);
    expect(spacing).toBeCloseTo(20 / 9 / 2, 6);
    // What is spilled later comes back after what was spilled before, even from a later moment.
    await clock.advance(10);
    const later = lanes.spill('f', 100);
    expect(10 + later[0]).toBeCloseTo(waits[waits.length - 1] + spacing, 6);
    // A process whose event loop is busy is bound by its CPU, not its slots: it spills nothing.
    const quick = lanesOf(10, 2, { leases, keepMs: 100, busy: () => true, clock });
    const quickRun = controlled();
    void quick.each(names('q', 3), endpointOf, quickRun.task);
    await tick();
    await clock.advance(20);
    for (const name of ['q1', 'q2', 'q3']) await quickRun.finish(name);
    expect(quick.spill('q', 1_000)).toEqual([]);
    // A slow endpoint is not spilled: `admit` keeps its sends to what starts within a second.
    void lanes.each(names('s', 1), endpointOf, run.task);
    await tick();
    await clock.advance(300);
    await run.finish('s1');
    expect(lanes.spill('s', 1_000)).toEqual([]);
    for (const name of ['f3']) await run.finish(name);
  });

  it('lends nothing to an endpoint not yet known to be fast', async () => {
    const lanes = lanesOf(10, 2);
    const run = controlled();
    void lanes.each(names('u', 10), endpointOf, run.task);
    await tick();
    expect(run.started).toEqual(['u1', 'u2']);
  });
});

describe("a consumer's share across all their endpoints (consumerCap)", () => {
  /** Items are "<consumer> <host>#<n>": the endpoint is what comes before the #, its consumer what comes before the space. */
  const endpointOfItem = (item: string) => item.slice(0, item.indexOf('#'));
  const items = (endpoint: string, count: number) => Array.from({ length: count }, (_, n) => `${endpoint}#${n}`);
  const consumerOfItem = (item: string) => item.slice(0, item.indexOf(' '));

  it('holds one consumer with eight names for one slow place to its cap, and lets another consumer straight in', async () => {
    const lanes = lanesOf(50, 10, { consumerCap: 20 });
    const run = controlled();
    const names = ['localhost', '127.0.0.2', '127.0.0.3', '127.0.0.4', '127.0.0.5', '127.0.0.6', '[::ffff:7f00:1]', 'x.nip.io'];
    const greedy = names.map((name) => lanes.each(items(`mallory ${name}`, 10), endpointOfItem, run.task));
    await tick();
    // Eight endpoints of ten slots each would take 80: the consumer holds 20 of the 50, however its endpoints are named.
    expect(run.started.filter((item) => consumerOfItem(item) === 'mallory')).toHaveLength(20);
    expect(lanes.stats().consumersAtCap).toBe(1);

    const other = lanes.each(items('alice example.com', 5), endpointOfItem, run.task);
    await tick();
    expect(run.started.filter((item) => consumerOfItem(item) === 'alice')).toHaveLength(5);
    for (const item of items('alice example.com', 5)) await run.finish(item);
    await expect(other).resolves.toEqual([]);

    // Alone again but unanswered (slow, as far as anyone knows): still no more than its cap.
    const first = run.started.find((item) => consumerOfItem(item) === 'mallory') as string;
    await run.finish(first);
    // The slot comes back to the consumer once its lease is given back (a turn or two of the event loop).
    const open = () => run.started.filter((item) => consumerOfItem(item) === 'mallory').length - 1;
    expect(open()).toBe(19);
    await turns(3);
    expect(open()).toBe(20);
    // Everything it queued still goes out, 20 at a time.
    const finished = new Set([first]);
    for (let turn = 0; turn < 200 && finished.size < 80; turn += 1) {
      for (const item of run.started.filter((started) => consumerOfItem(started) === 'mallory' && !finished.has(started))) {
        finished.add(item);
        await run.finish(item);
      }
      await tick();
    }
    expect(finished.size).toBe(80);
    for (const list of greedy) await expect(list).resolves.toEqual([]);
    expect(lanes.stats().consumersAtCap).toBe(0);
  });

  it('leaves a consumer below its cap as it was: one endpoint still takes its full share', async () => {
    const lanes = lanesOf(50, 10, { consumerCap: 20 });
    const run = controlled();
    const list = lanes.each(items('bob api.example', 15), endpointOfItem, run.task);
    await tick();
    expect(run.started).toHaveLength(10);
    for (const item of items('bob api.example', 15)) await run.finish(item);
    await expect(list).resolves.toEqual([]);
  });
});
