import { checkCall, decision, increment, minuteWindow, monthWindow, refusal, type QuotaCounter, type QuotaLimits } from './windows';

/** The counter of one process (no Redis): see index.ts. */
export function createMemoryQuotaCounter(): QuotaCounter {
  // Buckets per window id, so dropping a past window is one delete rather than a scan of every key.
  const minutes = new Map<string, Map<string, number>>();
  const months = new Map<string, Map<string, number>>();
  let prunedMinute = '';
  let prunedMonth = '';
  let closed = false;

  // Ids are fixed-width digit strings, so string order is time order. Only windows older than the
  // one asked about go: a caller whose clock is a little behind another's loses nothing current.
  const prune = (minuteId: string, monthId: string): void => {
    if (minuteId > prunedMinute) {
      prunedMinute = minuteId;
      for (const id of minutes.keys()) if (id < minuteId) minutes.delete(id);
    }
    if (monthId > prunedMonth) {
      prunedMonth = monthId;
      for (const id of months.keys()) if (id < monthId) months.delete(id);
    }
  };

  /** The pool's windows now, what it has used of them, and which limit (if any) a further request would pass. */
  const read = (pool: string, limits: QuotaLimits, now: Date) => {
    const minute = minuteWindow(now);
    const month = monthWindow(now);
    prune(minute.id, month.id);
    const minuteUsed = minutes.get(minute.id)?.get(pool) ?? 0;
    const monthUsed = months.get(month.id)?.get(pool) ?? 0;
    return { minute, month, minuteUsed, monthUsed, refusedBy: refusal(minuteUsed, monthUsed, limits) };
  };

  return {
    async consume(pool, limits, now = new Date()) {
      checkCall(closed, [pool], limits);
      // No await between the read and the write: the event loop makes this check-and-increment atomic.
      const state = read(pool, limits, now);
      if (state.refusedBy !== null) {
        return decision(false, state.refusedBy, limits, state.minute, state.month, state.minuteUsed, state.monthUsed);
      }
      const minuteUsed = increment(minutes, state.minute.id, pool);
      const monthUsed = increment(months, state.month.id, pool);
      return decision(true, null, limits, state.minute, state.month, minuteUsed, monthUsed);
    },

    async peek(pool, limits, now = new Date()) {
      checkCall(closed, [pool], limits);
      const state = read(pool, limits, now);
      return decision(state.refusedBy === null, state.refusedBy, limits, state.minute, state.month, state.minuteUsed, state.monthUsed);
    },

    async monthUsed(pools, now = new Date()) {
      checkCall(closed, pools);
      const month = monthWindow(now);
      const bucket = months.get(month.id);
      return new Map(pools.map((pool) => [pool, bucket?.get(pool) ?? 0]));
    },

    async close() {
      closed = true;
      minutes.clear();
      months.clear();
    },
  };
}
