/**
 * Pure checks behind the input guard (input-guard.ts), kept apart so they are tested alone.
 *
 * Each walks its input with a stack of its own rather than by recursion: a body of 8,000 nested
 * arrays is 16 KB, well under the body parser's limit, and would exhaust the call stack of a
 * recursive walk (a 500 on every route).
 */

/** A NUL, or a surrogate half without its other half. */
// eslint-disable-next-line no-control-regex -- a NUL is exactly what this looks for
const BAD_CHARACTER = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Objects and arrays nested deeper than this in a body or a query string are refused (the body's
 * own object or array is the first level). Far more than any request of the API or of Strapi's
 * content API needs, and far less than what overflows what comes after the guard: zod, Strapi's
 * sanitizers, `JSON.stringify` (a few thousand levels).
 */
export const MAX_NESTING = 64;

export interface InputProblem {
  /** `character`: a NUL or an unpaired surrogate; `nesting`: containers deeper than the limit. */
  kind: 'character' | 'nesting';
  /**
   * Where: the dotted path of the string (or key) for a character ('' for the input itself); for
   * nesting, the top-level field it happens under, as a longer path would only repeat `0.0.0…`.
   */
  at: string;
}

/** One place in the input still to look at: a value, or an object's key (checked before its value). */
interface Step {
  value: unknown;
  isKey: boolean;
  /** Containers this value is inside of. */
  depth: number;
  /** The key or index under which `value` stands, and the place that holds it: paths are built only when something is found. */
  name?: string;
  parent?: Step;
}

/**
 * The first problem in a parsed body or query, in document order: a string (value or key)
 * holding a NUL or an unpaired surrogate, or objects and arrays nested more than `maxNesting`
 * deep. Undefined when there is none.
 */
export function inputProblemAt(value: unknown, maxNesting = MAX_NESTING): InputProblem | undefined {
  const stack: Step[] = [{ value, isKey: false, depth: 0 }];
  for (let step = stack.pop(); step !== undefined; step = stack.pop()) {
    const item = step.value;
    if (typeof item === 'string') {
      if (!BAD_CHARACTER.test(item)) continue;
      const path = pathOf(step.isKey ? step.parent : step);
      return { kind: 'character', at: step.isKey ? join(path, item.replace(BAD_CHARACTER, '?')) : path };
    }
    if (typeof item !== 'object' || item === null) continue;
    if (step.depth >= maxNesting) return { kind: 'nesting', at: topLevelOf(step) };
    const depth = step.depth + 1;
    // Pushed last first, so that they come off the stack in document order.
    if (Array.isArray(item)) {
      for (let index = item.length - 1; index >= 0; index -= 1)
        stack.push({ value: item[index], isKey: false, depth, name: String(index), parent: step });
      continue;
    }
    const entries = Object.entries(item);
    for (let index = entries.length - 1; index >= 0; index -= 1) {
      const [key, entry] = entries[index];
      const here: Step = { value: entry, isKey: false, depth, name: key, parent: step };
      stack.push(here, { value: key, isKey: true, depth, parent: step });
    }
  }
  return undefined;
}

/**
 * Where in a parsed body the first string (value or key) holding a NUL or an unpaired surrogate
 * is, as a dotted path ('' for the body itself), or undefined when there is none; at any depth.
 */
export function badCharacterAt(value: unknown): string | undefined {
  return inputProblemAt(value, Number.POSITIVE_INFINITY)?.at;
}

/** Operators that combine filters; every other `$` key compares a field with a value. */
const COMBINING = new Set(['$and', '$or', '$not']);

/**
 * Where in Strapi's `filters` query a comparing operator is given an object instead of a value
 * (`[title][$eq][$ne]`), or undefined. Strapi's query engine answers such a filter with a 500.
 */
export function badFilterAt(filters: unknown): string | undefined {
  // A filter to look into, or a comparing operator's value to check; in the order a recursive walk would take.
  type Task = { filters: unknown; operator: boolean; name?: string; parent?: Task };
  const stack: Task[] = [{ filters, operator: false }];
  for (let task = stack.pop(); task !== undefined; task = stack.pop()) {
    if (task.operator) {
      const values = Array.isArray(task.filters) ? task.filters : [task.filters];
      if (!values.some((item) => typeof item === 'object' && item !== null)) continue;
      const names: string[] = [];
      for (let at: Task | undefined = task; at?.name !== undefined; at = at.parent) names.push(`[${at.name}]`);
      return names.reverse().join('');
    }
    if (typeof task.filters !== 'object' || task.filters === null) continue;
    const entries = Object.entries(task.filters);
    for (let index = entries.length - 1; index >= 0; index -= 1) {
      const [key, value] = entries[index];
      stack.push({ filters: value, operator: key.startsWith('$') && !COMBINING.has(key), name: key, parent: task });
    }
  }
  return undefined;
}

/** The dotted path of `step` from the input's root ('' for the root). */
function pathOf(step: Step | undefined): string {
  const names: string[] = [];
  for (let at = step; at?.name !== undefined; at = at.parent) names.push(at.name);
  return names.reverse().join('.');
}

/** The name of the top-level field `step` stands under ('' for the root itself). */
function topLevelOf(step: Step): string {
  let at = step;
  while (at.parent?.name !== undefined) at = at.parent;
  return at.name ?? '';
}

function join(path: string, key: string): string {
  return path === '' ? key : `${path}.${key}`;
}
