import { useEffect, useRef, useState } from 'react';
import type { FilterTestInput, FilterTestOutcome } from './api-types';
import type { CatalogType, Filter } from './filter-editing';
import { compileFilter, filterProblem, FilterProblem, type CompiledFilter, type JsonSchema } from './filters';
import { ApiProblem, asProblem } from './http';

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
 * The refusal the server would answer for this filter on this type (422 invalid_filter, at the
 * place of the fault, in the server's own words), found with the same shared check the server
 * runs (shared/filters): a filter that does not compile, or names what the type's data never
 * holds. Undefined when the filter fits, or the type's schema is not at hand (the server judges).
 */
export function localFilterRefusal(filter: Filter, type: CatalogType | undefined): ApiProblem | undefined {
  let compiled: CompiledFilter;
  let problem: FilterProblem | undefined;
  try {
    compiled = compileFilter(filter);
    const schema = type?.schema;
    if (type && (typeof schema === 'boolean' || (typeof schema === 'object' && schema !== null)))
      problem = filterProblem(compiled, [{ name: type.name, schema: schema as JsonSchema }]);
  } catch (error) {
    if (!(error instanceof FilterProblem)) return undefined;
    problem = error;
  }
  if (!problem) return undefined;
  const path = ['filter', ...problem.path].join('.');
  const message = `The filter cannot be applied at ${path}: ${problem.message}`;
  return new ApiProblem(422, 'invalid_filter', message, { [path]: message });
}

/**
 * A filter tried on an event type's example by the server (`filter-test`, through `test`), once
 * the filter has stayed the same for a moment; an answer to an older filter is dropped. `filter`
 * is compared by its JSON, so a new object of the same filter asks nothing again. A filter the
 * shared check already refuses on the type (`catalogType`, with its schema) is refused here, as
 * the server would, without asking it: the form's own check makes no failed request.
 */
export function useFilterTry(
  filter: Filter | null,
  type: string | undefined,
  test: (input: FilterTestInput) => Promise<FilterTestOutcome>,
  catalogType?: CatalogType
): FilterTry {
  const [tried, setTried] = useState<FilterTry>({ state: 'idle' });
  const testRef = useRef(test);
  testRef.current = test;
  const typeRef = useRef(catalogType);
  typeRef.current = catalogType;
  const text = filter && type ? JSON.stringify(filter) : null;
  useEffect(() => {
    if (text === null || type === undefined) {
      setTried({ state: 'idle' });
      return undefined;
    }
    let current = true;
    const known = typeRef.current;
    const refusal = localFilterRefusal(JSON.parse(text) as Filter, known?.name === type ? known : undefined);
    if (refusal) {
      setTried({ state: 'refused', type, problem: refusal });
      return undefined;
    }
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
