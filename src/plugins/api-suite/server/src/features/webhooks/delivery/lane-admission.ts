import type { Clock } from '../../../clock';
import { openFor, type Lane, type LanesOptions } from './lane';

export type AdmissionOptions = Pick<
  LanesOptions,
  'size' | 'cap' | 'leases' | 'slowMs' | 'admitWaitMs' | 'retryMs' | 'maxDeferMs' | 'keepMs' | 'busy'
> & {
  /** Slots a fast lane never borrows (lane-borrowing.ts). */
  reserve: number;
  clock: Clock;
  /** The lane of an endpoint, if it has one; `laneOf` makes it. */
  lane(endpoint: string): Lane | undefined;
  laneOf(endpoint: string): Lane;
};

/**
 * How many of a job's sends an endpoint's lane takes into memory now, and when the rest come back
 * (docs/webhooks.md#a-fair-share-per-endpoint, "No queue-level blocking"): the worker keeps a slow endpoint's sends out of memory (and
 * their jobs out of the queue's slots), and with other worker processes about hands a fast
 * backlog's tail back to the queue for whichever process is free first.
 */
export function createAdmission(options: AdmissionOptions) {
  const { size, cap, reserve, leases, slowMs, clock } = options;
  const slotsOf = (endpoint: string): number => Math.max(1, Math.min(cap, leases.held(endpoint) || cap));

  return {
    /**
     * How many of `count` more sends the endpoint takes now. An endpoint that is not slow takes
     * every one (its sends leave at the pace the process allows). A slow one (answers, or requests
     * still open, past `slowMs`) takes only those that would start within `admitWaitMs`, judged
     * from its answer time and the slots it can use; at least enough to fill its slots. Undefined
     * while that cannot be told yet (requests open, none answered, none open past `slowMs`):
     * wait for `known` and ask again.
     */
    admit(endpoint: string, count: number): number | undefined {
      const lane = options.lane(endpoint);
      if (!lane) return count;
      const queued = lane.running + lane.waiting;
      if (queued + count <= cap) return count;
      const open = openFor(lane, clock.now());
      // Sends already wait or run but none has answered and none has been open for long: it cannot
      // be told yet (jobs fetched together for a new endpoint all land here, not only the first).
      if (lane.latencyMs === undefined && open < slowMs) return undefined;
      const latency = Math.max(lane.latencyMs ?? 0, open);
      if (latency < slowMs) return count;
      const room = Math.floor((options.admitWaitMs * slotsOf(endpoint)) / latency) + cap - queued;
      return Math.max(0, Math.min(count, room));
    },

    /**
     * When each of `count` sends of the endpoint that it cannot take now should come back (ms
     * from now): spaced at the rate its slots answer, after what waits in the lane and the sends
     * deferred before them, so they come back about when there is room for them.
     */
    deferWaits(endpoint: string, count: number): number[] {
      const lane = options.laneOf(endpoint);
      const latency = Math.max(lane.latencyMs ?? 0, slowMs);
      const slots = slotsOf(endpoint);
      const now = clock.now();
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
      const lane = options.lane(endpoint);
      // Fast by its answer times: a lane calmed by one slow answer (a busy event loop can make one)
      // still sends at about this pace, and `admit` has kept all its sends.
      if (workers <= 1 || !lane || lane.latencyMs === undefined || lane.latencyMs >= slowMs) return [];
      if (options.busy()) return [];
      // This process's time per send to the endpoint, at its answer time with every slot a fast lane
      // may have (it grows to that within a few answers; pacing the queue by the slots it has now
      // brought the spilled sends back seconds after the processes had run dry).
      const perSend = Math.max(lane.latencyMs, 1) / (size - reserve);
      const keep = Math.max(2 * size, Math.ceil(options.keepMs / perSend));
      const over = Math.min(count, lane.waiting + count - keep);
      if (over <= 0) return [];
      const now = clock.now();
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
        const lane = options.lane(endpoint);
        if (!lane || lane.latencyMs !== undefined || lane.running + lane.waiting === 0) return;
        const oldest = lane.starts.values().next();
        const left = oldest.done ? slowMs : slowMs - (clock.now() - oldest.value);
        if (left <= 0) return;
        await new Promise<void>((resolve) => {
          // A millisecond over: a timer may fire a little before the clock says it is due.
          const timer = clock.setTimeout(done, left + 1);
          function done(): void {
            clock.clearTimeout(timer);
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
      const lane = options.lane(endpoint);
      const queued = lane ? lane.running + lane.waiting : 0;
      return Math.max(0, Math.min(count, 2 * cap - queued));
    },
  };
}
