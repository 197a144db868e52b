import type { ClockTimer } from '../../../clock';

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
