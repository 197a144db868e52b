/**
 * What a JSON Schema (draft 2020-12, as the event catalog publishes them) says about the field a
 * filter names: whether it exists and what kind of value it holds. Lists are looked through (a
 * filter names `items.sku` for a list of items, as Strapi's filters name a relation's fields), and
 * `anyOf`, `oneOf`, `allOf` and local `$ref`s are followed. Used to check filters when they are
 * saved and to suggest field names in the forms that edit them.
 */

export type JsonSchema = boolean | { [key: string]: unknown };

export type ValueKind = 'string' | 'date' | 'number' | 'boolean' | 'null' | 'object' | 'array';

export interface FieldShape {
  /** The kinds of value the field may hold; `any` when the schema does not say. */
  kinds: Set<ValueKind> | 'any';
  /** The values a string field is limited to, when every schema of the field lists them. */
  choices?: Set<unknown>;
}

type SchemaObject = { [key: string]: unknown };

const DESCRIBING_KEYS = [
  'type',
  'properties',
  'items',
  'prefixItems',
  'anyOf',
  'oneOf',
  'allOf',
  '$ref',
  'enum',
  'const',
  'additionalProperties',
];

function isObject(value: unknown): value is SchemaObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** True for a schema that allows anything (`true`, `{}`, or one with only annotations). */
function allowsAnything(schema: JsonSchema): boolean {
  if (schema === true) return true;
  if (schema === false) return false;
  return !DESCRIBING_KEYS.some((key) => key in schema);
}

/** The schema's alternatives with references followed, as plain schemas (at most a few levels of references). */
function alternatives(schema: JsonSchema, root: JsonSchema, depth = 0): JsonSchema[] {
  if (!isObject(schema) || depth > 8) return [schema];
  const ref = schema.$ref;
  if (typeof ref === 'string') {
    const target = resolveRef(ref, root);
    return target === undefined ? [true] : alternatives(target, root, depth + 1);
  }
  const union = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (Array.isArray(union)) return union.flatMap((item) => alternatives(item, root, depth + 1));
  const all = schema.allOf as JsonSchema[] | undefined;
  if (Array.isArray(all)) {
    // Rare in the catalog: the parts are read as alternatives, which accepts what any allows.
    return all.flatMap((item) => alternatives(item, root, depth + 1));
  }
  return [schema];
}

function resolveRef(ref: string, root: JsonSchema): JsonSchema | undefined {
  if (!ref.startsWith('#')) return undefined;
  let node: unknown = root;
  for (const part of ref.slice(1).split('/').filter(Boolean)) {
    const key = part.replace(/~1/g, '/').replace(/~0/g, '~');
    if (!isObject(node)) return undefined;
    node = node[key];
  }
  return typeof node === 'boolean' || isObject(node) ? node : undefined;
}

function typesOf(schema: SchemaObject): string[] {
  const type = schema.type;
  if (typeof type === 'string') return [type];
  if (Array.isArray(type)) return type.filter((item): item is string => typeof item === 'string');
  if ('properties' in schema || 'additionalProperties' in schema) return ['object'];
  if ('items' in schema || 'prefixItems' in schema) return ['array'];
  return [];
}

/** A list's items as schemas (every tuple position, or `items`). */
function itemsOf(schema: SchemaObject): JsonSchema[] {
  const items: JsonSchema[] = [];
  if (Array.isArray(schema.prefixItems)) items.push(...(schema.prefixItems as JsonSchema[]));
  if (typeof schema.items === 'boolean' || isObject(schema.items)) items.push(schema.items as JsonSchema);
  return items.length > 0 ? items : [true];
}

/** The schemas a value of `schema` may take with lists looked through: the list itself and its items' (recursively). */
function withItems(schema: JsonSchema, root: JsonSchema, depth = 0): JsonSchema[] {
  const out: JsonSchema[] = [];
  for (const alternative of alternatives(schema, root)) {
    out.push(alternative);
    if (isObject(alternative) && typesOf(alternative).includes('array') && depth < 4) {
      for (const item of itemsOf(alternative)) out.push(...withItems(item, root, depth + 1));
    }
  }
  return out;
}

/**
 * The schemas of the field at `path` under `schema`, or `any` when some schema on the way allows
 * any field there, or an empty list when no schema has it.
 */
export function schemasAt(schema: JsonSchema, path: string[], root: JsonSchema = schema): JsonSchema[] | 'any' {
  let current: JsonSchema[] = [schema];
  for (const key of path) {
    const next: JsonSchema[] = [];
    for (const node of current.flatMap((item) => withItems(item, root))) {
      if (allowsAnything(node)) return 'any';
      if (!isObject(node) || !typesOf(node).includes('object')) continue;
      const properties = isObject(node.properties) ? node.properties : undefined;
      if (properties && Object.prototype.hasOwnProperty.call(properties, key)) {
        next.push(properties[key] as JsonSchema);
        continue;
      }
      const additional = node.additionalProperties;
      if (additional === true || (additional === undefined && !properties)) return 'any';
      if (isObject(additional)) next.push(additional);
    }
    if (next.length === 0) return [];
    current = next;
  }
  return current;
}

/** The kinds of value the schemas allow (with lists looked through, as filters see them). */
export function shapeOf(schemas: JsonSchema[] | 'any', root: JsonSchema): FieldShape {
  if (schemas === 'any') return { kinds: 'any' };
  const kinds = new Set<ValueKind>();
  const choices = new Set<unknown>();
  let everyStringLimited = true;
  for (const node of schemas.flatMap((item) => withItems(item, root))) {
    if (allowsAnything(node)) return { kinds: 'any' };
    if (!isObject(node)) continue;
    const listed = Array.isArray(node.enum) ? (node.enum as unknown[]) : 'const' in node ? [node.const] : undefined;
    if (listed) {
      for (const value of listed) {
        kinds.add(kindOfValue(value));
        choices.add(value);
      }
      continue;
    }
    for (const type of typesOf(node)) {
      if (type === 'string') {
        everyStringLimited = false;
        kinds.add(node.format === 'date-time' || node.format === 'date' ? 'date' : 'string');
      } else if (type === 'integer' || type === 'number') kinds.add('number');
      else if (type === 'boolean' || type === 'null' || type === 'object' || type === 'array') kinds.add(type);
    }
  }
  return everyStringLimited && choices.size > 0 ? { kinds, choices } : { kinds };
}

function kindOfValue(value: unknown): ValueKind {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  const type = typeof value;
  if (type === 'string' || type === 'number' || type === 'boolean') return type;
  return 'object';
}

export interface FieldSuggestion {
  /** The dotted path a filter names it by. */
  path: string;
  /** Its kinds, in words: `string`, `number`, `date`, `boolean`. */
  kinds: ValueKind[];
}

/** Every field a filter may name in a schema (lists looked through), for the forms' suggestions. */
export function fieldSuggestions(schema: JsonSchema, limit = 200): FieldSuggestion[] {
  const found = new Map<string, Set<ValueKind>>();
  const walk = (node: JsonSchema, prefix: string[], depth: number) => {
    if (depth > 6 || found.size >= limit) return;
    for (const alternative of withItems(node, schema)) {
      if (!isObject(alternative) || !isObject(alternative.properties)) continue;
      for (const [key, child] of Object.entries(alternative.properties)) {
        const path = [...prefix, key];
        const shape = shapeOf([child as JsonSchema], schema);
        const kinds = found.get(path.join('.')) ?? new Set<ValueKind>();
        if (shape.kinds !== 'any') for (const kind of shape.kinds) kinds.add(kind);
        found.set(path.join('.'), kinds);
        walk(child as JsonSchema, path, depth + 1);
      }
    }
  };
  walk(schema, [], 0);
  return [...found].map(([path, kinds]) => ({ path, kinds: [...kinds].filter((kind) => kind !== 'null') }));
}
