/**
 * A JSON Schema as a reader of the event catalog wants it: one row per field, with its dotted
 * place, what it holds in words ("text, date-time", "number or null", "one of paid, pending",
 * "list of objects") and its description; the raw schema stays one click away. Shared by the
 * admin panel and the portal.
 */
export interface OutlineRow {
  /** Dotted place in the data: `customer.name`, `items[].sku`. */
  path: string;
  /** How deep it sits (0 at the top), for indenting. */
  depth: number;
  /** What it holds, in words. */
  type: string;
  /** Whether the object it belongs to always has it. */
  required: boolean;
  description?: string;
}

type Node = Record<string, unknown>;

const isNode = (value: unknown): value is Node => typeof value === 'object' && value !== null && !Array.isArray(value);

const KIND_WORDS: Record<string, string> = {
  string: 'text',
  integer: 'whole number',
  number: 'number',
  boolean: 'true/false',
  object: 'object',
  array: 'list',
  null: 'null',
};

export function schemaOutline(schema: unknown, limit = 300): OutlineRow[] {
  const root = isNode(schema) ? schema : {};
  const rows: OutlineRow[] = [];

  /** A `$ref` into the schema's own `$defs` (or `definitions`) followed; anything else as it is. */
  const resolve = (node: unknown, seen = 0): Node => {
    if (!isNode(node)) return {};
    const ref = node.$ref;
    if (typeof ref !== 'string' || seen > 8) return node;
    const match = /^#\/(\$defs|definitions)\/(.+)$/.exec(ref);
    const defs = match ? root[match[1]] : undefined;
    return isNode(defs) ? resolve(defs[decodeURIComponent(match?.[2] ?? '')], seen + 1) : node;
  };

  /** The node's alternatives (anyOf / oneOf), or the node itself. */
  const alternatives = (node: Node): Node[] => {
    const list = (Array.isArray(node.anyOf) ? node.anyOf : Array.isArray(node.oneOf) ? node.oneOf : [node]) as unknown[];
    return list.map((entry) => resolve(entry));
  };

  const words = (node: Node): string => {
    if (Array.isArray(node.enum))
      return `one of ${node.enum.map((value) => (typeof value === 'string' ? value : JSON.stringify(value))).join(', ')}`;
    if ('const' in node) return `always ${JSON.stringify(node.const)}`;
    const types = Array.isArray(node.type) ? (node.type as string[]) : typeof node.type === 'string' ? [node.type] : [];
    const named = types.map((type) => {
      if (type === 'array') {
        const items = alternatives(resolve(node.items)).filter((item) => item.type !== 'null');
        return items.length > 0 ? `list of ${items.map((item) => plural(words(item))).join(' or ')}` : 'list';
      }
      const word = KIND_WORDS[type] ?? type;
      return type === 'string' && typeof node.format === 'string' ? `${word}, ${node.format}` : word;
    });
    return named.length > 0 ? named.join(' or ') : isNode(node.properties) ? 'object' : 'anything';
  };

  const describe = (node: Node): string => {
    const found = alternatives(node);
    const nullable = found.some((alternative) => alternative.type === 'null');
    const kinds = [...new Set(found.filter((alternative) => alternative.type !== 'null').map(words))];
    const said = kinds.length > 0 ? kinds.join(' or ') : 'null';
    return nullable && kinds.length > 0 ? `${said} or null` : said;
  };

  const walk = (node: Node, prefix: string, depth: number): void => {
    if (depth > 6) return;
    for (const alternative of alternatives(node)) {
      // The fields of an object, or of the objects a list holds (`items[].sku`).
      const holder =
        alternative.type === 'array' ? alternatives(resolve(alternative.items)).find((item) => isNode(item.properties)) : alternative;
      const at = alternative.type === 'array' ? `${prefix}[]` : prefix;
      if (!holder || !isNode(holder.properties)) continue;
      const required = new Set(Array.isArray(holder.required) ? (holder.required as string[]) : []);
      for (const [key, child] of Object.entries(holder.properties)) {
        if (rows.length >= limit) return;
        const field = resolve(child);
        const description = typeof field.description === 'string' ? field.description : undefined;
        rows.push({
          path: at ? `${at}.${key}` : key,
          depth,
          type: describe(field),
          required: required.has(key),
          ...(description ? { description } : {}),
        });
        walk(field, at ? `${at}.${key}` : key, depth + 1);
      }
    }
  };

  walk(root, '', 0);
  return rows;
}

function plural(word: string): string {
  if (word.startsWith('one of') || word.startsWith('always') || word.includes(' or ')) return `(${word})`;
  if (word === 'text') return 'texts';
  if (word.includes(',')) return `${word.replace(',', 's,')}`;
  return word.endsWith('s') ? word : `${word}s`;
}
