import { systemClock } from '../../../clock';
import { createConsumerShares } from './consumer-shares';
import { newLane, type Batch, type Lane, type LanesOptions, type SlotTask } from './lane';
import { createBorrowing } from './lane-borrowing';
import { createAdmission } from './lane-admission';

export type { LanesOptions, SlotTask } from './lane';

/**
 * Request slots shared fairly between endpoints (a lane per share: a consumer's host, `share.ts`).
 *
 * A job hands over its sends grouped by endpoint; each group waits in its endpoint's lane as
 * plain data (a segment of the job's list: nothing is made per waiting send), and lanes take
 * turns: each time a slot frees, the next lane in the ring that has a send waiting and a free
 * slot of its own starts one. A lane runs at most `cap` requests at once, and only as many as
 * the lease book grants it (with Redis, the endpoint's slots are shared by every process), so
 * one endpoint can hold at most `cap` of the process's `size` slots and the others keep theirs.
 *
 * The share is a floor, not a ceiling: a lane that answers fast (within `slowMs`) also takes the
 * process's free slots while no other lane waits for one, up to all but a reserve of `cap / 2`
 * (so a lane that turns slow with every slot in hand cannot shut the others out). It earns them
 * as TCP's window grows: after a share's worth of answers within `slowMs` in a row, each further
 * fast answer while it uses all it holds lets it have one more request open, and one slow answer (or a request open past `slowMs`) takes it back to
 * its share for a second (four times `slowMs`), and falling idle for longer than `slowMs` takes it back to its share too. So an endpoint answering a test event at once and then
 * hanging holds no more than its share. Those slots are borrowed, not leased: the moment another lane has a send waiting, the
 * borrower starts nothing more beyond its share, so the newcomer gets the next slot that frees,
 * within about one fast answer. With Redis, a process whose lane borrows says so (for a second at a
 * time); another process whose every slot of that endpoint is held elsewhere then lends it a
 * share of its own free slots, so two worker processes deliver about twice what one does.
 *
 * `admit` is how the worker keeps a slow endpoint's sends out of memory (and their jobs out of
 * the queue's slots): it says how many more sends an endpoint takes now; the worker defers the
 * rest to the queue.
 */
export function createLanes(options: LanesOptions) {
  const { size, cap, leases } = options;
  const clock = options.clock ?? systemClock;
  const lanes = new Map<string, Lane>();
  const ring: Lane[] = [];
  const consumerOf =
    options.consumerOf ??
    ((endpoint: string) => {
      const space = endpoint.indexOf(' ');
      return space === -1 ? endpoint : endpoint.slice(0, space);
    });
  const consumers = createConsumerShares<Lane>(options.consumerCap ?? Infinity);
  const borrowing = createBorrowing({ size, cap, slowMs: options.slowMs, leases });
  const wanting = new Set<Lane>();
  const trimming = new Set<Lane>();
  let trimScheduled = false;
  let running = 0;
  let pumping = false;
  let startId = 0;

  const laneOf = (endpoint: string): Lane => {
    let lane = lanes.get(endpoint);
    if (!lane) {
      lane = newLane(endpoint, consumerOf(endpoint), clock.now());
      lanes.set(endpoint, lane);
    }
    return lane;
  };

  const ringIn = (lane: Lane): void => {
    if (lane.ringed) return;
    lane.ringed = true;
    ring.push(lane);
    consumers.ringed(lane, 1);
  };

  const consumerMay = (lane: Lane): boolean => consumers.may(lane, ring.length, () => borrowing.isFast(lane, clock.now()));

  /** The slots the lane may hold as its share now: its cap, or fewer while other processes hold the rest. */
  const shareOf = (lane: Lane): number => Math.min(cap, leases.held(lane.endpoint));

  /** Beyond its share only while nobody else waits (asked with the lane out of the ring). */
  const mayBorrow = (lane: Lane, share: number): boolean => borrowing.mayBorrow(lane, share, ring.length > 0, running, clock.now());

  /** Slots the lane should hold for what it has under way and waiting, beyond those it holds. */
  const shortOf = (lane: Lane): number => Math.min(cap, lane.running + lane.waiting) - leases.held(lane.endpoint);

  const wantLeases = (lane: Lane): void => {
    if (lane.acquiring || lane.retry || shortOf(lane) <= 0) return;
    wanting.add(lane);
  };

  /** Ask for the slots every wanting lane is short of, in one round trip. */
  const acquire = (): void => {
    if (wanting.size === 0) return;
    const asking = [...wanting];
    wanting.clear();
    for (const lane of asking) lane.acquiring = true;
    // A consumer's leases count together too (with Redis, over every process): their endpoints hold at most `consumerCap` shares.
    const requests = asking.map((lane) => ({ endpoint: lane.endpoint, count: shortOf(lane), cap, consumer: consumers.leaseOwner(lane) }));
    const answered = (taken: number[]): void => {
      asking.forEach((lane, n) => {
        lane.acquiring = false;
        // Short of slots because its consumer holds all they may: held back at the consumer's cap.
        consumers.leasesAnswered(lane, taken[n] < requests[n].count && lane.waiting > 0 && (leases.consumerFull?.(lane.consumer) ?? false));
        if (taken[n] > 0 || borrowing.lendIfFastElsewhere(lane)) ringIn(lane);
        if (lane.waiting > 0 && lane.running >= leases.held(lane.endpoint)) {
          // Every slot of the endpoint is held (by other processes): ask again shortly.
          lane.retry = clock.setTimeout(() => {
            lane.retry = undefined;
            wantLeases(lane);
            acquire();
          }, options.retryMs);
        }
      });
      pump();
    };
    leases.acquire(requests).then(answered, (error: Error) => {
      options.onError(error);
      answered(asking.map(() => 0));
    });
  };

  /** Give back the slots of lanes that have nothing more waiting (once per turn of the event loop, so a lane fed job after job keeps its slots). */
  const trim = (): void => {
    trimScheduled = false;
    const freed = new Set<string>();
    for (const lane of trimming) {
      const idle = leases.held(lane.endpoint) - Math.max(lane.running, Math.min(cap, lane.running + lane.waiting));
      if (idle > 0) {
        leases.release(lane.endpoint, idle);
        freed.add(lane.consumer);
      }
    }
    trimming.clear();
    // The consumer's lanes held back for want of their leases ask at once for those given back (after
    // the lease book has written them back: it does so in the next turn too, and first).
    const short = consumers.takeShort(freed);
    if (short.length > 0)
      setImmediate(() => {
        for (const lane of short) {
          clock.clearTimeout(lane.retry);
          lane.retry = undefined;
          wantLeases(lane);
        }
        acquire();
      });
  };

  const pump = (): void => {
    // A slot given back while this loop starts tasks is taken by the loop itself, not by a nested one.
    if (pumping) return;
    pumping = true;
    try {
      while (running < size && ring.length > 0) {
        const lane = ring.shift() as Lane;
        lane.ringed = false;
        consumers.ringed(lane, -1);
        if (lane.waiting === 0) continue;
        const share = shareOf(lane);
        if (lane.running >= share) {
          wantLeases(lane);
          if (!mayBorrow(lane, share)) continue;
        }
        // One consumer's endpoints together, whatever names they give one place (checked out of the ring too).
        if (!consumerMay(lane)) continue;
        startNext(lane);
        // Round robin: the lane goes to the back of the ring, behind every other lane waiting.
        if (lane.waiting > 0) {
          if ((lane.running < share || mayBorrow(lane, share)) && consumerMay(lane)) ringIn(lane);
          else wantLeases(lane);
        }
      }
    } finally {
      pumping = false;
    }
    acquire();
  };

  const startNext = (lane: Lane): void => {
    const segment = lane.segments[0];
    const item = segment.items[segment.next];
    segment.next += 1;
    if (segment.next === segment.items.length) lane.segments.shift();
    lane.waiting -= 1;
    lane.running += 1;
    running += 1;
    consumers.opened(lane);
    const id = (startId += 1);
    const startedAt = clock.now();
    lane.starts.set(id, startedAt);
    let released = false;
    const release = (): void => {
      if (released) return;
      released = true;
      const now = clock.now();
      lane.starts.delete(id);
      borrowing.answered(lane, now - startedAt, shareOf(lane), now);
      lane.running -= 1;
      running -= 1;
      // A slot of this consumer freed: its lanes held back at the cap take their turn again.
      for (const waiting of consumers.closed(lane)) if (waiting.waiting > 0) ringIn(waiting);
      if (lane.running === 0 && lane.waiting === 0) lane.idleSince = now;
      if (lane.waiting > 0) ringIn(lane);
      else {
        trimming.add(lane);
        if (!trimScheduled) {
          trimScheduled = true;
          setImmediate(trim);
        }
      }
      pump();
    };
    const batch = segment.batch;
    let result: Promise<void>;
    try {
      result = batch.task(item, release);
    } catch (error) {
      result = Promise.reject(error);
    }
    result.then(
      () => settle(batch, release),
      (error: unknown) => {
        batch.failures.push(error);
        settle(batch, release);
      }
    );
  };

  const settle = (batch: Batch, release: () => void): void => {
    release();
    batch.pending -= 1;
    if (batch.pending === 0) batch.done(batch.failures);
  };

  const admission = createAdmission({ ...options, reserve: borrowing.reserve, clock, lane: (endpoint) => lanes.get(endpoint), laneOf });

  return {
    /**
     * Run `task` for each item in a request slot of its endpoint's lane; resolves with the
     * failures once every one has ended.
     */
    each<T>(items: T[], endpointOf: (item: T) => string, task: SlotTask<T>): Promise<unknown[]> {
      if (items.length === 0) return Promise.resolve([]);
      return new Promise<unknown[]>((done) => {
        const batch: Batch = { task: task as SlotTask<unknown>, pending: items.length, failures: [], done };
        // Consecutive items of one endpoint make one segment (publishing lists a subscription's sends together).
        let start = 0;
        for (let n = 1; n <= items.length; n += 1) {
          if (n < items.length && endpointOf(items[n]) === endpointOf(items[start])) continue;
          const lane = laneOf(endpointOf(items[start]));
          borrowing.woke(lane, clock.now());
          lane.segments.push({ batch, items: start === 0 && n === items.length ? items : items.slice(start, n), next: 0 });
          lane.waiting += n - start;
          ringIn(lane);
          start = n;
        }
        pump();
      });
    },

    ...admission,

    /** What the process is doing, for status pages and metrics. */
    stats(): { running: number; waiting: number; endpoints: number; saturated: number; consumersAtCap: number } {
      let waiting = 0;
      let saturated = 0;
      const now = clock.now();
      for (const lane of lanes.values()) {
        waiting += lane.waiting;
        // Sends waiting behind its own share (all the slots it may hold, here or with other processes,
        // are busy), answering slowly: a fast lane's backlog drains by itself.
        if (lane.waiting > 0 && !lane.acquiring && lane.running >= shareOf(lane) && !borrowing.isFast(lane, now)) saturated += 1;
      }
      return { running, waiting, endpoints: lanes.size, saturated, consumersAtCap: consumers.atCap() };
    },

    /** Forget endpoints idle for `idleMs` (their answer times) and stop asking for slots. */
    forgetIdle(idleMs: number): void {
      const before = clock.now() - idleMs;
      for (const [endpoint, lane] of lanes) {
        if (lane.running === 0 && lane.waiting === 0 && !lane.acquiring && lane.answered.size === 0 && lane.lastActive < before) {
          clock.clearTimeout(lane.retry);
          lanes.delete(endpoint);
        }
      }
    },
  };
}

export type Lanes = ReturnType<typeof createLanes>;
