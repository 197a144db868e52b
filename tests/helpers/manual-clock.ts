import type { Clock, ClockTimer } from '../../src/plugins/api-suite/server/src/clock';

/**
 * A clock the test moves: `now()` stands still until `advance(ms)`, which runs every timer that
 * falls due on the way, in order of when it is due (each at its own time), with the promise
 * callbacks and immediates they cause settled before the next. Nothing waits for real time, so a
 * loaded machine decides nothing.
 */
export interface ManualClock extends Clock {
  advance(ms: number): Promise<void>;
  /**
   * Time passes with nothing run: a stalled event loop. The timers that fell due meanwhile run late,
   * all at the time the next `advance` starts from.
   */
  jump(ms: number): void;
  /** Timers not yet run. */
  pending(): number;
}

interface Pending extends ClockTimer {
  at: number;
  seq: number;
  run: () => void;
}

export function createManualClock(start = 1_000): ManualClock {
  let now = start;
  let seq = 0;
  const timers = new Set<Pending>();
  const settle = () => new Promise<void>((resolve) => setImmediate(resolve));
  return {
    now: () => now,
    setTimeout(run, ms) {
      const timer: Pending = { at: now + Math.max(0, ms), seq: (seq += 1), run };
      timers.add(timer);
      return timer;
    },
    clearTimeout(timer) {
      if (timer) timers.delete(timer as Pending);
    },
    pending: () => timers.size,
    jump(ms) {
      now += ms;
    },
    async advance(ms) {
      const until = now + ms;
      await settle();
      for (;;) {
        let next: Pending | undefined;
        for (const timer of timers)
          if (timer.at <= until && (!next || timer.at < next.at || (timer.at === next.at && timer.seq < next.seq))) next = timer;
        if (!next) break;
        timers.delete(next);
        now = Math.max(now, next.at);
        next.run();
        await settle();
      }
      now = until;
      await settle();
    },
  };
}
