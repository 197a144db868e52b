import type { Core } from '@strapi/strapi';
import { compileFilter, filterProblem, FilterProblem, type CompiledFilter, type NamedSchema } from '../../../../../shared/filters';
import { fromJson } from '../../../db';
import { InvalidFilterError } from '../errors';
import { getService } from '../../../utils';

/**
 * Subscriptions' payload filters (docs/webhooks.md#payload-filters): checked when saved against
 * the schemas of the types the subscription receives, compiled once when publishing loads the
 * subscription, and applied to each event's data in the round that writes its deliveries.
 */

/** An active subscriber of a type as publishing sees it. */
export interface Subscriber {
  id: number;
  /** Its payload filter, compiled; undefined for none (every event of its types). */
  filter?: CompiledFilter;
}

/** Compiled filters by subscription, compiled again only when a subscription's filter text changes. */
export function compiledFilters(onBroken: (id: number, error: string) => void) {
  const compiled = new Map<number, { text: string; filter: CompiledFilter | undefined }>();
  return {
    subscriber(id: number, stored: unknown): Subscriber {
      const value = fromJson<unknown>(stored, null);
      if (value === null || value === undefined) {
        compiled.delete(id);
        return { id };
      }
      const text = typeof stored === 'string' ? stored : JSON.stringify(value);
      const known = compiled.get(id);
      if (known?.text === text) return { id, filter: known.filter };
      let filter: CompiledFilter | undefined;
      try {
        filter = compileFilter(value);
      } catch (error) {
        // Only a row written around the API (which checks every filter) can hold one: delivering
        // too much is the lesser harm than silently delivering nothing.
        onBroken(id, (error as Error).message);
      }
      compiled.set(id, { text, filter });
      return { id, filter };
    },
    forget(id: number): void {
      compiled.delete(id);
    },
    clear(): void {
      compiled.clear();
    },
  };
}

/** 422 invalid_filter at the place of the fault, as `filter.<keys>`. */
export function invalidFilter(problem: FilterProblem): InvalidFilterError {
  return new InvalidFilterError(['filter', ...problem.path].join('.'), problem.message);
}

/** Compile a filter, refusing it as the API does (422 invalid_filter) when it cannot be applied. */
export function compileOrRefuse(filter: unknown): CompiledFilter {
  try {
    return compileFilter(filter);
  } catch (error) {
    if (error instanceof FilterProblem) throw invalidFilter(error);
    throw error;
  }
}

/** Refuse a filter that does not fit the types it would see (a field none has, a value of the wrong kind). */
export function checkAgainst(filter: CompiledFilter, types: NamedSchema[]): void {
  const problem = filterProblem(filter, types);
  if (problem) throw invalidFilter(problem);
}

/**
 * The save-time check: a filter (null or undefined: none) against every active type the
 * subscription's `events` name. Run after the events are checked, so each names some type.
 */
export async function checkFilter(strapi: Core.Strapi, filter: unknown, events: string[]): Promise<void> {
  if (filter === null || filter === undefined) return;
  const compiled = compileOrRefuse(filter);
  checkAgainst(compiled, await getService(strapi, 'webhook-event-types').receivedBy(events));
}
