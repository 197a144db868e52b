import type { Clock, ClockTimer } from '../../../clock';
import type { LeaseBook } from './endpoint-leases';

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
  /** Time and timers (tests pass a manual clock); the system's by default. */
  clock?: Clock;
}

/** A task run in a request slot; `release` gives the slot back before the task ends (idempotent). */
export type SlotTask<T> = (item: T, release: () => void) => Promise<void>;

/** One list handed to the lanes (`each`): its task, and what is left of it. */
export interface Batch {
  task: SlotTask<unknown>;
  pending: number;
  failures: unknown[];
  done(failures: unknown[]): void;
}

/** Consecutive items of one batch for one endpoint: plain data, nothing made per waiting send. */
export interface Segment {
  batch: Batch;
  items: unknown[];
  next: number;
}

/** An endpoint's lane: its waiting sends, what it runs, and what its answers taught (ms on the lanes' clock). */
export interface Lane {
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
  retry: ClockTimer | undefined;
  lastActive: number;
  /** When the sends deferred so far are due back. */
  deferredUntil: number;
  /** Waiting for the lane's first answer (`known`). */
  answered: Set<() => void>;
  /** Requests it has earned to have open beyond its share (fast answers while it used all of it). */
  earned: number;
  /** Until when it earns nothing: it answered slowly within the last `4 × slowMs`. */
  calmUntil: number;
  /** Answers within `slowMs` in a row (since its last slow one, or since it fell idle). */
  streak: number;
  /** When this process last told the others the endpoint is fast (0: it has not, or took it back). */
  markedAt: number;
  /** When the sends it gave back to the queue for any process are due. */
  spilledUntil: number;
  /** Since when it has had nothing running or waiting (0 while busy). */
  idleSince: number;
}

export function newLane(endpoint: string, consumer: string, now: number): Lane {
  return {
    endpoint,
    consumer,
    segments: [],
    waiting: 0,
    running: 0,
    starts: new Map(),
    latencyMs: undefined,
    ringed: false,
    acquiring: false,
    retry: undefined,
    lastActive: now,
    deferredUntil: 0,
    answered: new Set(),
    earned: 0,
    calmUntil: 0,
    streak: 0,
    markedAt: 0,
    spilledUntil: 0,
    idleSince: 0,
  };
}

/** How long the lane's oldest request under way has been open (0 when none is). */
export function openFor(lane: Lane, now: number): number {
  const oldest = lane.starts.values().next();
  return oldest.done ? 0 : now - oldest.value;
}
