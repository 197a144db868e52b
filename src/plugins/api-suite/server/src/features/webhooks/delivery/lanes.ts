import { performance } from 'node:perf_hooks';
import { FAST_MARK_MS, type LeaseBook } from './endpoint-leases';
import { createConsumerShares } from './consumer-shares';

/** A task run in a request slot; `release` gives the slot back before the task ends (idempotent). */
export type SlotTask<T> = (item: T, release: () => void) => Promise<void>;

export interface LanesOptions {
  /** Requests open at once in this process, every endpoint together. */
  size: number;
  /** Requests open at once to one endpoint (across processes when the lease book is shared). */
  cap: number;
  /**
   * Requests one consumer's endpoints may have open at once together in this process while another
   * consumer's send waits, or at all while they answer slowly (`WEBHOOK_CONSUMER_CONCURRENCY`); and
   * the endpoint slots (leases) they hold together, in every process that shares the lease book.
   * Unset: no bound beyond each endpoint's.
   */
  consumerCap?: number;
  /** The consumer an endpoint (a lane's key) belongs to: by default what comes before its first space (share.ts). */
  consumerOf?: (endpoint: string) => string;
  leases: LeaseBook;
  /** Below this answer time an endpoint is never slow, however busy it is. */
  slowMs: number;
  /** A slow endpoint takes new sends while the newest would start within this long. */
  admitWaitMs: number;
  /** How soon to ask again for an endpoint's slots that other processes hold. */
  retryMs: number;
  /**
   * A deferred send comes back within this long at most, even when its endpoint's backlog says
   * later: an endpoint that recovers is then sent its backlog within that time, not at the pace
   * it had while slow (a send that comes back too early is deferred again).
   */
  maxDeferMs: number;
  /**
   * With other worker processes about, a fast lane keeps in this process only the sends it would
   * start within this long; the rest go back to the queue for whichever process is free first.
   */
  keepMs: number;
  /**
   * Whether this process's event loop is busy (its CPU, not its request slots, bounds what it
   * sends): a busy process spills nothing. Its answer times then measure its own queueing rather
   * than the endpoint, the spilled sends' pace would be set from them, and handing sends to the
   * others through the queue only adds queue writes on a machine whose cores are already in use.
   */
  busy(): boolean;
  onError(error: Error): void;
}

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
  interface Batch {
    task: SlotTask<unknown>;
    pending: number;
    failures: unknown[];
    done(failures: unknown[]): void;
  }
  interface Segment {
    batch: Batch;
    items: unknown[];
    next: number;
  }
  interface Lane {
    endpoint: string;
    consumer: string;
    segments: Segment[];
    waiting: number;
    running: number;
    /** Start times of the requests under way, oldest first (a Map keeps insertion order). */
    starts: Map<number, number>;
    /** Answer time, moving average (ms); undefined until the first answer. */
    latencyMs: number | undefined;
    ringed: boolean;
    acquiring: boolean;
    retry: NodeJS.Timeout | undefined;
    lastActive: number;
    /** When the sends deferred so far are due back (performance.now() ms). */
    deferredUntil: number;
    /** Waiting for the lane's first answer (`known`). */
    answered: Set<() => void>;
    /** Requests it has earned to have open beyond its share (fast answers while it used all of it). */
    earned: number;
    /** Until when it earns nothing: it answered slowly within the last `4 × slowMs` (performance.now() ms). */
    calmUntil: number;
    /** Answers within `slowMs` in a row (since its last slow one, or since it fell idle). */
    streak: number;
    /** When this process last told the others the endpoint is fast (0: it has not, or took it back). */
    markedAt: number;
    /** When the sends it gave back to the queue for any process are due (performance.now() ms). */
    spilledUntil: number;
    /** Since when it has had nothing running or waiting (performance.now() ms; 0 while busy). */
    idleSince: number;
  }

  /** Slots a fast lane never borrows, so others find room even while it holds the rest. */
  const reserve = Math.min(Math.ceil(cap / 2), size - 1);
  const lanes = new Map<string, Lane>();
  const ring: Lane[] = [];
  const consumerOf =
    options.consumerOf ??
    ((endpoint: string) => {
      const space = endpoint.indexOf(' ');
      return space === -1 ? endpoint : endpoint.slice(0, space);
    });
  const consumers = createConsumerShares<Lane>(options.consumerCap ?? Infinity);
  const wanting = new Set<Lane>();
  const trimming = new Set<Lane>();
  let trimScheduled = false;
  let running = 0;
  let pumping = false;
  let startId = 0;

  const laneOf = (endpoint: string): Lane => {
    let lane = lanes.get(endpoint);
    if (!lane) {
      lane = {
        endpoint,
        consumer: consumerOf(endpoint),
        segments: [],
        waiting: 0,
        running: 0,
        starts: new Map(),
        latencyMs: undefined,
        ringed: false,
        acquiring: false,
        retry: undefined,
        lastActive: performance.now(),
        deferredUntil: 0,
        answered: new Set(),
        earned: 0,
        calmUntil: 0,
        streak: 0,
        markedAt: 0,
        spilledUntil: 0,
        idleSince: 0,
      };
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

  const consumerMay = (lane: Lane): boolean => consumers.may(lane, ring.length, () => isFast(lane));

  /** The slots the lane may hold as its share now: its cap, or fewer while other processes hold the rest. */
  const shareOf = (lane: Lane): number => Math.min(cap, leases.held(lane.endpoint));

  /** Whether the lane answers fast: answered within `slowMs` on average, and nothing open for longer. */
  const isFast = (lane: Lane, now = performance.now()): boolean => {
    if (now < lane.calmUntil) return false;
    // Not answered here yet: fast if another process says so (with Redis), as long as nothing is open too long.
    const known = lane.latencyMs === undefined ? (leases.fastElsewhere?.(lane.endpoint) ?? false) : lane.latencyMs < options.slowMs;
    if (!known) return false;
    const oldest = lane.starts.values().next();
    return oldest.done || now - oldest.value < options.slowMs;
  };

  /**
   * Whether the lane may start one more now beyond its share of `share`: it has earned it, answers
   * fast, and nobody else waits for a slot. A lane found slow loses what it earned.
   */
  const mayBorrow = (lane: Lane, share: number): boolean => {
    if (lane.running >= share + lane.earned || ring.length > 0 || running >= size - reserve) return false;
    if (isFast(lane)) return true;
    lane.earned = 0;
    return false;
  };

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
        if (taken[n] > 0) ringIn(lane);
        else if (lane.waiting > 0 && lane.earned === 0 && leases.held(lane.endpoint) === 0 && leases.fastElsewhere?.(lane.endpoint)) {
          // Every slot of the endpoint is held elsewhere by a process that finds it fast: lend it a
          // share of this process's free slots to start with, kept and grown by its own fast answers.
          lane.earned = cap;
          lane.streak = cap;
          ringIn(lane);
        }
        if (lane.waiting > 0 && lane.running >= leases.held(lane.endpoint)) {
          // Every slot of the endpoint is held (by other processes): ask again shortly.
          lane.retry = setTimeout(() => {
            lane.retry = undefined;
            wantLeases(lane);
            acquire();
          }, options.retryMs);
          lane.retry.unref?.();
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
          if (lane.retry) clearTimeout(lane.retry);
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
          // Beyond its share only while nobody else waits (checked with the lane out of the ring).
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
    const startedAt = performance.now();
    lane.starts.set(id, startedAt);
    let released = false;
    const release = (): void => {
      if (released) return;
      released = true;
      const now = performance.now();
      lane.starts.delete(id);
      const took = now - startedAt;
      if (took >= options.slowMs) {
        // A host that answered one request slowly is not trusted with more for a while, even if
        // other paths of it answer fast meanwhile.
        lane.earned = 0;
        lane.streak = 0;
        lane.calmUntil = now + 4 * options.slowMs;
        if (lane.markedAt > 0) {
          leases.markFast?.(lane.endpoint, false);
          lane.markedAt = 0;
        }
      } else {
        lane.streak += 1;
        // Earned only after a whole share's worth of fast answers in a row (one quick answer, such as
        // a test event's, among slow ones earns nothing), and only while it had more waiting than it
        // could start: all it held was busy.
        const share = shareOf(lane);
        if (lane.streak >= cap && lane.waiting > 0 && lane.running >= share + lane.earned && lane.earned < size) lane.earned += 1;
        // Busy beyond its share and fast: the other processes may lend it their free slots too.
        if (lane.earned > 0 && now - lane.markedAt > FAST_MARK_MS / 4) {
          leases.markFast?.(lane.endpoint, true);
          lane.markedAt = now;
        }
      }
      if (lane.latencyMs === undefined) {
        lane.latencyMs = took;
        for (const done of [...lane.answered]) done();
      } else lane.latencyMs = lane.latencyMs * 0.8 + took * 0.2;
      lane.lastActive = now;
      lane.running -= 1;
      running -= 1;
      // A slot of this consumer freed: its lanes held back at the cap take their turn again.
      for (const waiting of consumers.closed(lane)) if (waiting.waiting > 0) ringIn(waiting);
      // What it earned holds for one busy spell: a lane idle for longer than a slow answer starts
      // again from its share (`each`). A shorter gap (the next job of a burst on its way) is no news.
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
          if (lane.idleSince > 0) {
            if (performance.now() - lane.idleSince > options.slowMs) {
              lane.earned = 0;
              lane.streak = 0;
            }
            lane.idleSince = 0;
          }
          lane.segments.push({ batch, items: start === 0 && n === items.length ? items : items.slice(start, n), next: 0 });
          lane.waiting += n - start;
          lane.lastActive = performance.now();
          ringIn(lane);
          start = n;
        }
        pump();
      });
    },

    /**
     * How many of `count` more sends the endpoint takes now. An endpoint that is not slow takes
     * every one (its sends leave at the pace the process allows). A slow one (answers, or requests
     * still open, past `slowMs`) takes only those that would start within `admitWaitMs`, judged
     * from its answer time and the slots it can use; at least enough to fill its slots. Undefined
     * while that cannot be told yet (requests open, none answered, none open past `slowMs`):
     * wait for `known` and ask again.
     */
    admit(endpoint: string, count: number): number | undefined {
      const lane = lanes.get(endpoint);
      if (!lane) return count;
      const queued = lane.running + lane.waiting;
      if (queued + count <= cap) return count;
      const oldest = lane.starts.values().next();
      const openFor = oldest.done ? 0 : performance.now() - oldest.value;
      // Sends already wait or run but none has answered and none has been open for long: it cannot
      // be told yet (jobs fetched together for a new endpoint all land here, not only the first).
      if (lane.latencyMs === undefined && openFor < options.slowMs) return undefined;
      const latency = Math.max(lane.latencyMs ?? 0, openFor);
      if (latency < options.slowMs) return count;
      const slots = Math.max(1, Math.min(cap, leases.held(endpoint) || cap));
      const room = Math.floor((options.admitWaitMs * slots) / latency) + cap - queued;
      return Math.max(0, Math.min(count, room));
    },

    /**
     * When each of `count` sends of the endpoint that it cannot take now should come back (ms
     * from now): spaced at the rate its slots answer, after what waits in the lane and the sends
     * deferred before them, so they come back about when there is room for them.
     */
    deferWaits(endpoint: string, count: number): number[] {
      const lane = laneOf(endpoint);
      const latency = Math.max(lane.latencyMs ?? 0, options.slowMs);
      const slots = Math.max(1, Math.min(cap, leases.held(endpoint) || cap));
      const now = performance.now();
      let at = Math.max(now + (lane.waiting / slots) * latency, lane.deferredUntil, now + options.retryMs);
      const waits: number[] = [];
      const latest = now + options.maxDeferMs;
      for (let n = 0; n < count; n += 1) {
        waits.push(Math.min(at, latest) - now);
        at += latency / slots;
      }
      lane.deferredUntil = Math.min(at, latest);
      return waits;
    },

    /**
     * With other worker processes delivering too, the last of `count` more sends of a fast lane
     * that this process should not keep: when each should come back (ms from now), or none. A
     * process keeps what it would start within `keepMs` at the pace it sends to the endpoint now;
     * the rest wait in the queue, each due about when its turn comes with every process sending
     * (the backlog ahead of it drained by all of them), so the process that is free then takes it.
     * Without this the process that fetched a burst's jobs kept them all, and a second process
     * sat idle: two delivered 1.16 times what one did to an endpoint answering in 50 ms.
     */
    spill(endpoint: string, count: number): number[] {
      const workers = leases.workers?.() ?? 1;
      const lane = lanes.get(endpoint);
      // Fast by its answer times: a lane calmed by one slow answer (a busy event loop can make one)
      // still sends at about this pace, and `admit` has kept all its sends.
      if (workers <= 1 || !lane || lane.latencyMs === undefined || lane.latencyMs >= options.slowMs) return [];
      if (options.busy()) return [];
      // This process's time per send to the endpoint, at its answer time with every slot a fast lane
      // may have (it grows to that within a few answers; pacing the queue by the slots it has now
      // brought the spilled sends back seconds after the processes had run dry).
      const perSend = Math.max(lane.latencyMs, 1) / (size - reserve);
      const keep = Math.max(2 * size, Math.ceil(options.keepMs / perSend));
      const over = Math.min(count, lane.waiting + count - keep);
      if (over <= 0) return [];
      const now = performance.now();
      // Due before the kept sends run out (half of them left), then at every process's pace together.
      let at = Math.max(now + options.keepMs / 2, lane.spilledUntil);
      const step = perSend / workers;
      const latest = now + options.maxDeferMs;
      const waits: number[] = [];
      for (let n = 0; n < over; n += 1) {
        waits.push(Math.min(at, latest) - now);
        at += step;
      }
      lane.spilledUntil = Math.min(at, latest);
      return waits;
    },

    /**
     * Resolves once it can be told whether the endpoint is slow: it has answered, it has nothing
     * under way, or its oldest request has been open for `slowMs` (sends still waiting for their
     * first slot are waited for too, up to twice). Until then `admit` would have to guess, and a
     * guess either fills the process with a slow endpoint's sends or defers a fast one's burst.
     */
    async known(endpoint: string): Promise<void> {
      for (let turn = 0; turn < 3; turn += 1) {
        const lane = lanes.get(endpoint);
        if (!lane || lane.latencyMs !== undefined || lane.running + lane.waiting === 0) return;
        const oldest = lane.starts.values().next();
        const left = oldest.done ? options.slowMs : options.slowMs - (performance.now() - oldest.value);
        if (left <= 0) return;
        await new Promise<void>((resolve) => {
          // A millisecond over: a timer may fire a little before performance.now() says it is due.
          const timer = setTimeout(done, left + 1);
          function done(): void {
            clearTimeout(timer);
            lane?.answered.delete(done);
            resolve();
          }
          lane.answered.add(done);
        });
      }
    },

    /**
     * What a slow-or-not question left open after `known` admits: enough to fill the endpoint's
     * share twice over, the rest deferred.
     */
    admitUnknown(endpoint: string, count: number): number {
      const lane = lanes.get(endpoint);
      const queued = lane ? lane.running + lane.waiting : 0;
      return Math.max(0, Math.min(count, 2 * cap - queued));
    },

    /** What the process is doing, for status pages and metrics. */
    stats(): { running: number; waiting: number; endpoints: number; saturated: number; consumersAtCap: number } {
      let waiting = 0;
      let saturated = 0;
      const now = performance.now();
      for (const lane of lanes.values()) {
        waiting += lane.waiting;
        // Sends waiting behind its own share (all the slots it may hold, here or with other processes,
        // are busy), answering slowly: a fast lane's backlog drains by itself.
        const share = shareOf(lane);
        if (lane.waiting > 0 && !lane.acquiring && lane.running >= share && !isFast(lane, now)) saturated += 1;
      }
      return { running, waiting, endpoints: lanes.size, saturated, consumersAtCap: consumers.atCap() };
    },

    /** Forget endpoints idle for `idleMs` (their answer times) and stop asking for slots. */
    forgetIdle(idleMs: number): void {
      const before = performance.now() - idleMs;
      for (const [endpoint, lane] of lanes) {
        if (lane.running === 0 && lane.waiting === 0 && !lane.acquiring && lane.answered.size === 0 && lane.lastActive < before) {
          if (lane.retry) clearTimeout(lane.retry);
          lanes.delete(endpoint);
        }
      }
    },
  };
}

export type Lanes = ReturnType<typeof createLanes>;
