import { useEffect, useRef, useState } from 'react';
import type { FilterTestInput, FilterTestOutcome } from './api-types';
import type { Filter } from './filter-editing';
import { asProblem, type ApiProblem } from './http';

/** How long a filter field waits after the last keystroke before it judges the text or asks the server. */
export const FILTER_SETTLE_MS = 400;

/** `value` once it has stayed the same for `delayMs` (the first value at once). */
export function useSettled<T>(value: T, delayMs: number = FILTER_SETTLE_MS): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return settled;
}

export type FilterTry =
  /** Nothing to try: no filter, or no event type to try it on. */
  | { state: 'idle' }
  | { state: 'trying'; type: string }
  | { state: 'done'; type: string; matches: boolean }
  /** The server refused the try: `invalid_filter` (at the filter's field) or another problem. */
  | { state: 'refused'; type: string; problem: ApiProblem };

/**
 * A filter tried on an event type's example by the server (`filter-test`, through `test`), once
 * the filter has stayed the same for a moment; an answer to an older filter is dropped. `filter`
 * is compared by its JSON, so a new object of the same filter asks nothing again.
 */
export function useFilterTry(
  filter: Filter | null,
  type: string | undefined,
  test: (input: FilterTestInput) => Promise<FilterTestOutcome>
): FilterTry {
  const [tried, setTried] = useState<FilterTry>({ state: 'idle' });
  const testRef = useRef(test);
  testRef.current = test;
  const text = filter && type ? JSON.stringify(filter) : null;
  useEffect(() => {
    if (text === null || type === undefined) {
      setTried({ state: 'idle' });
      return undefined;
    }
    let current = true;
    // An answer about the filter before this one is no answer about this one.
    setTried({ state: 'trying', type });
    const timer = setTimeout(() => {
      testRef.current({ filter: JSON.parse(text) as Filter, type }).then(
        (outcome) => current && setTried({ state: 'done', type: outcome.type, matches: outcome.matches }),
        (error: unknown) => current && setTried({ state: 'refused', type, problem: asProblem(error, 'The filter could not be tried.') })
      );
    }, FILTER_SETTLE_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [text, type]);
  return tried;
}
