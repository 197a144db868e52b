/**
 * One consumer's endpoints together (docs/webhooks.md#a-fair-share-per-endpoint): what the request
 * lanes (lanes.ts) count per consumer so that no consumer holds more than `cap` of a process's
 * slots while another consumer's send waits, whatever names their URLs give one place, and no more
 * than `cap` endpoint shares (leases) over every process sharing the lease book.
 */
export interface ConsumerLane {
  consumer: string;
  waiting: number;
}

export function createConsumerShares<L extends ConsumerLane>(cap: number) {
  /** Requests open per consumer, all its endpoints together. */
  const openBy = new Map<string, number>();
  /** Lanes in the ring per consumer, to tell whether another consumer has a send waiting. */
  const ringedBy = new Map<string, number>();
  /** Lanes held back at their consumer's cap: rung in again when one of that consumer's requests ends. */
  const heldBack = new Map<string, Set<L>>();
  /**
   * Lanes short of the slots (leases) they asked for because their consumer holds all they may:
   * they ask again as soon as one of that consumer's lanes here gives leases back, and meanwhile
   * when their lane retries (the consumer's leases may be given back by another process).
   */
  const shortOfLeases = new Map<string, Set<L>>();
  const add = (counts: Map<string, number>, key: string, by: number): void => {
    const next = (counts.get(key) ?? 0) + by;
    if (next === 0) counts.delete(key);
    else counts.set(key, next);
  };
  const join = (sets: Map<string, Set<L>>, lane: L): void => {
    let set = sets.get(lane.consumer);
    if (!set) sets.set(lane.consumer, (set = new Set()));
    set.add(lane);
  };

  return {
    /** What a lease request names of the lane's consumer: none when consumers are not bounded. */
    leaseOwner: (lane: L): { id: string; cap: number } | undefined => (Number.isFinite(cap) ? { id: lane.consumer, cap } : undefined),
    ringed(lane: L, by: 1 | -1): void {
      add(ringedBy, lane.consumer, by);
    },
    opened(lane: L): void {
      add(openBy, lane.consumer, 1);
    },
    /** One of the consumer's requests ended: the lanes held back at their cap, to ring in again. */
    closed(lane: L): Iterable<L> {
      add(openBy, lane.consumer, -1);
      const held = heldBack.get(lane.consumer);
      if (!held) return [];
      heldBack.delete(lane.consumer);
      return held;
    },
    /**
     * Whether the lane's consumer may open one more request: below its cap, or beyond it only while
     * the lane answers fast and no other consumer has a send waiting (`ringLength` lanes are, the
     * lane itself out of the ring): a lone fast consumer keeps the floor the share gives it. A lane
     * held back waits for its consumer's next request to end.
     */
    may(lane: L, ringLength: number, fast: () => boolean): boolean {
      if ((openBy.get(lane.consumer) ?? 0) < cap) return true;
      const othersWaiting = ringLength - (ringedBy.get(lane.consumer) ?? 0) > 0;
      if (!othersWaiting && fast()) return true;
      join(heldBack, lane);
      return false;
    },
    /** What the lease book answered the lane: short because its consumer holds all they may, or not. */
    leasesAnswered(lane: L, shortByConsumer: boolean): void {
      if (shortByConsumer) return join(shortOfLeases, lane);
      const held = shortOfLeases.get(lane.consumer);
      if (held?.delete(lane) && held.size === 0) shortOfLeases.delete(lane.consumer);
    },
    /** The consumers' lanes short of leases, now that those consumers gave some back (forgotten here). */
    takeShort(consumers: Iterable<string>): L[] {
      const short: L[] = [];
      for (const consumer of consumers) {
        for (const lane of shortOfLeases.get(consumer) ?? []) short.push(lane);
        shortOfLeases.delete(consumer);
      }
      return short;
    },
    /** Consumers held at their cap with a send waiting now (the saturation metric counts them). */
    atCap(): number {
      let count = heldBack.size;
      for (const consumer of shortOfLeases.keys()) if (!heldBack.has(consumer)) count += 1;
      return count;
    },
  };
}
