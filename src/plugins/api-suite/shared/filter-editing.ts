import { patternMatches } from './event-patterns';
import { compileFilter, fieldSuggestions, filterProblem, type FieldSuggestion, type JsonSchema } from './filters';
import { isPlainObject } from './filters/compile';

/**
 * What the two browsers' filter fields share (a subscription's payload filter, written as JSON
 * in Strapi's filter syntax): reading the text, the types a subscription receives, the fields
 * their schemas offer, the type whose example a filter is tried on, and a condition added from a
 * suggested field. Pure: no React, no client.
 */

/** An event type as both catalogs list it: its name, the JSON Schema of its data and an example. */
export interface CatalogType {
  name: string;
  schema?: unknown;
  example_payload?: unknown;
}

export type Filter = Record<string, unknown>;

/** A filter's text as the forms show it: indented JSON, or empty for none. */
export function filterText(filter: Filter | null | undefined): string {
  return filter ? JSON.stringify(filter, null, 2) : '';
}

/**
 * A filter field's new text once a suggested field is clicked: the condition added to what the
 * field holds (the received types' examples giving its value), or undefined while the text is not
 * a filter. The portal's form and the admin panel's dialog both call this.
 */
export function textWithCondition(parsed: ParsedFilter, field: FieldSuggestion, received: CatalogType[]): string | undefined {
  if (parsed.kind === 'invalid') return undefined;
  const current = parsed.kind === 'filter' ? parsed.filter : {};
  return filterText(
    withCondition(
      current,
      field,
      received.map((type) => type.example_payload)
    )
  );
}

export type ParsedFilter =
  | { kind: 'none' }
  | { kind: 'filter'; filter: Filter }
  /** `message` in English; `reason` and `detail` (the JSON parser's words) for a browser with its own. */
  | { kind: 'invalid'; reason: 'json' | 'not-object'; detail: string; message: string };

export const FILTER_EXAMPLE = '{ "total": { "$gte": 100 } }';

/** The text of a filter field: empty (or `null`) for none, a JSON object, or why it is neither. */
export function parseFilterText(text: string): ParsedFilter {
  if (text.trim() === '') return { kind: 'none' };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const detail = (error as Error).message;
    return { kind: 'invalid', reason: 'json', detail, message: `Not valid JSON: ${detail}` };
  }
  if (value === null) return { kind: 'none' };
  if (!isPlainObject(value)) {
    return { kind: 'invalid', reason: 'not-object', detail: '', message: `A filter is a JSON object, such as ${FILTER_EXAMPLE}` };
  }
  return { kind: 'filter', filter: value };
}

/**
 * Whether an `events` entry names a type, as the server reads it: the type's own name, `*` (every
 * type), or a prefix ending in `.*` (`order.*`: every type whose name starts with `order.`).
 */
export function entryNames(entry: string, type: string): boolean {
  return patternMatches(entry, type);
}

/** The catalog's types a subscription with these `events` receives, in the catalog's order. */
export function typesReceived<T extends CatalogType>(events: string[], types: T[]): T[] {
  return types.filter((type) => events.some((entry) => entryNames(entry, type.name)));
}

function schemaOf(type: CatalogType): JsonSchema {
  return typeof type.schema === 'boolean' || isPlainObject(type.schema) ? type.schema : true;
}

/** The fields a filter may name in these types' data, each once (its kinds merged), in the order first met. */
export function suggestedFields(types: CatalogType[]): FieldSuggestion[] {
  const found = new Map<string, Set<FieldSuggestion['kinds'][number]>>();
  for (const type of types) {
    for (const suggestion of fieldSuggestions(schemaOf(type))) {
      const kinds = found.get(suggestion.path) ?? new Set();
      for (const kind of suggestion.kinds) kinds.add(kind);
      found.set(suggestion.path, kinds);
    }
  }
  return [...found].map(([path, kinds]) => ({ path, kinds: [...kinds] }));
}

/**
 * The type whose example a filter is tried on: of the types `events` names by their own names (a
 * pattern names no one type), the first the filter fits as the server checks it, else the first
 * (whose refusal then says why). Undefined when `events` names no type by its name.
 */
export function typeToTry<T extends CatalogType>(filter: Filter, events: string[], types: T[]): T | undefined {
  const named = events.flatMap((entry) => types.filter((type) => type.name === entry));
  if (named.length === 0) return undefined;
  try {
    const compiled = compileFilter(filter);
    return named.find((type) => !filterProblem(compiled, [{ name: type.name, schema: schemaOf(type) }])) ?? named[0];
  } catch {
    return named[0];
  }
}

/** The value at a dotted path of an example (a list looked through at its first item). */
function valueAt(data: unknown, path: string[]): unknown {
  let node = data;
  for (const key of path) {
    while (Array.isArray(node)) node = node[0];
    if (!isPlainObject(node)) return undefined;
    node = node[key];
  }
  while (Array.isArray(node)) node = node[0];
  return node;
}

const START_VALUES: Record<string, unknown> = { number: 0, boolean: true, string: '', date: '2026-01-01T00:00:00Z' };

const isScalar = (value: unknown) => value === null || ['string', 'number', 'boolean'].includes(typeof value);

/**
 * The filter with a condition on a suggested field added (`customer.name` is written nested, as
 * the syntax names it: `{ "customer": { "name": { "$eq": … } } }`), equal to the value the first
 * example with one holds there, or to a start value of the field's kind. A field the filter
 * already names is left as it is.
 */
export function withCondition(filter: Filter, field: FieldSuggestion, examples: unknown[] = []): Filter {
  const keys = field.path.split('.');
  const found = examples.map((example) => valueAt(example, keys)).find((value) => value !== undefined && isScalar(value));
  const value = found !== undefined ? found : START_VALUES[field.kinds.find((kind) => kind in START_VALUES) ?? 'string'];
  const add = (node: Filter, at: number): Filter => {
    const key = keys[at];
    if (at === keys.length - 1) return key in node ? node : { ...node, [key]: { $eq: value } };
    const inner = node[key];
    if (inner === undefined) return { ...node, [key]: add({}, at + 1) };
    return isPlainObject(inner) ? { ...node, [key]: add(inner, at + 1) } : node;
  };
  return add(filter, 0);
}
