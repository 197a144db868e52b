/**
 * Pure checks behind the input guard (input-guard.ts), kept apart so they are tested alone.
 */

/** A NUL, or a surrogate half without its other half. */
// eslint-disable-next-line no-control-regex -- a NUL is exactly what this looks for
const BAD_CHARACTER = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Where in a parsed body the first string (value or key) holding a NUL or an unpaired surrogate
 * is, as a dotted path ('' for the body itself), or undefined when there is none.
 */
export function badCharacterAt(value: unknown, path = ''): string | undefined {
  if (typeof value === 'string') return BAD_CHARACTER.test(value) ? path : undefined;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index += 1) {
      const found = badCharacterAt(value[index], join(path, String(index)));
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (typeof value === 'object' && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      if (BAD_CHARACTER.test(key)) return join(path, key.replace(BAD_CHARACTER, '?'));
      const found = badCharacterAt(item, join(path, key));
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

/** Operators that combine filters; every other `$` key compares a field with a value. */
const COMBINING = new Set(['$and', '$or', '$not']);

/**
 * Where in Strapi's `filters` query a comparing operator is given an object instead of a value
 * (`[title][$eq][$ne]`), or undefined. Strapi's query engine answers such a filter with a 500.
 */
export function badFilterAt(filters: unknown, path = ''): string | undefined {
  if (typeof filters !== 'object' || filters === null) return undefined;
  for (const [key, value] of Object.entries(filters)) {
    const here = `${path}[${key}]`;
    if (key.startsWith('$') && !COMBINING.has(key)) {
      const values = Array.isArray(value) ? value : [value];
      if (values.some((item) => typeof item === 'object' && item !== null)) return here;
      continue;
    }
    const found = badFilterAt(value, here);
    if (found !== undefined) return found;
  }
  return undefined;
}

function join(path: string, key: string): string {
  return path === '' ? key : `${path}.${key}`;
}
