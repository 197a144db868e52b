/**
 * The entries a webhook subscription's `events` may hold (docs/webhooks.md#creating-and-changing-a-subscription):
 * an event type's name, `*` (every type), or a prefix ending in `.*` (`recipe.*`: every type whose
 * name starts with `recipe.`). One rule for the server (publishing, the save-time checks) and the
 * browsers (which types a form's filter is tried on).
 */
export const WILDCARD = '*';

/** Whether an entry is a prefix pattern (`order.*`), not a name or `*`. */
export function isPrefixPattern(entry: string): boolean {
  return entry.length > 2 && entry.endsWith('.*') && !entry.slice(0, -2).includes('*');
}

/** Whether an `events` entry names this type. */
export function patternMatches(entry: string, type: string): boolean {
  if (entry === WILDCARD || entry === type) return true;
  return isPrefixPattern(entry) && type.startsWith(entry.slice(0, -1));
}

/** The entries that name a type besides its own name: each prefix pattern it falls under, and `*`. */
export function patternsOf(type: string): string[] {
  const patterns: string[] = [];
  for (let at = type.indexOf('.'); at !== -1; at = type.indexOf('.', at + 1)) patterns.push(`${type.slice(0, at)}.*`);
  patterns.push(WILDCARD);
  return patterns;
}
