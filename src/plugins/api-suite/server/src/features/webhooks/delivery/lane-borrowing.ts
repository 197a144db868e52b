import { FAST_MARK_MS } from './endpoint-leases';
import { openFor, type Lane, type LanesOptions } from './lane';

/**
 * What a lane earns beyond its share (docs/webhooks.md#a-fair-share-per-endpoint): the slots a
 * fast endpoint borrows from the process while nobody else waits, earned as TCP's window grows and
 * lost at the first slow answer, a request open too long, or an idle spell. The scheduling
 * (lanes.ts) asks it whether a lane may start one more beyond its share and tells it each answer.
 */
export function createBorrowing(options: Pick<LanesOptions, 'size' | 'cap' | 'slowMs' | 'leases'>) {
  const { size, cap, slowMs, leases } = options;
  /** Slots a fast lane never borrows, so others find room even while it holds the rest. */
  const reserve = Math.min(Math.ceil(cap / 2), size - 1);

  /** Whether the lane answers fast: answered within `slowMs` on average, and nothing open for longer. */
  const isFast = (lane: Lane, now: number): boolean => {
    if (now < lane.calmUntil) return false;
    // Not answered here yet: fast if another process says so (with Redis), as long as nothing is open too long.
    const known = lane.latencyMs === undefined ? (leases.fastElsewhere?.(lane.endpoint) ?? false) : lane.latencyMs < slowMs;
    return known && openFor(lane, now) < slowMs;
  };

  return {
    reserve,
    isFast,

    /**
     * Whether the lane may start one more now beyond its share of `share`: it has earned it, answers
     * fast, and nobody else waits for a slot (`othersWaiting`) nor is the reserve reached. A lane
     * found slow loses what it earned.
     */
    mayBorrow(lane: Lane, share: number, othersWaiting: boolean, running: number, now: number): boolean {
      if (lane.running >= share + lane.earned || othersWaiting || running >= size - reserve) return false;
      if (isFast(lane, now)) return true;
      lane.earned = 0;
      return false;
    },

    /**
     * Every slot of the endpoint is held elsewhere by a process that finds it fast: lend it a share of
     * this process's free slots to start with, kept and grown by its own fast answers. True when lent.
     */
    lendIfFastElsewhere(lane: Lane): boolean {
      if (lane.waiting === 0 || lane.earned > 0 || leases.held(lane.endpoint) > 0 || !leases.fastElsewhere?.(lane.endpoint)) return false;
      lane.earned = cap;
      lane.streak = cap;
      return true;
    },

    /** One request of the lane answered after `took` ms, with `share` its share now. */
    answered(lane: Lane, took: number, share: number, now: number): void {
      if (took >= slowMs) {
        // A host that answered one request slowly is not trusted with more for a while, even if
        // other paths of it answer fast meanwhile.
        lane.earned = 0;
        lane.streak = 0;
        lane.calmUntil = now + 4 * slowMs;
        if (lane.markedAt > 0) {
          leases.markFast?.(lane.endpoint, false);
          lane.markedAt = 0;
        }
      } else {
        lane.streak += 1;
        // Earned only after a whole share's worth of fast answers in a row (one quick answer, such as
        // a test event's, among slow ones earns nothing), and only while it had more waiting than it
        // could start: all it held was busy.
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
    },

    /**
     * New sends for a lane: what it earned holds for one busy spell, so a lane idle for longer than a
     * slow answer starts again from its share. A shorter gap (the next job of a burst on its way) is no news.
     */
    woke(lane: Lane, now: number): void {
      if (lane.idleSince > 0) {
        if (now - lane.idleSince > slowMs) {
          lane.earned = 0;
          lane.streak = 0;
        }
        lane.idleSince = 0;
      }
      lane.lastActive = now;
    },
  };
}

export type Borrowing = ReturnType<typeof createBorrowing>;
