import { createHash } from 'node:crypto';

/**
 * Content hashes for change detection: the same item gives the same hash on every run, machine
 * and database, whatever order its fields were collected or stored in (PostgreSQL's jsonb, for
 * one, reorders an object's keys).
 */

/** JSON with every object's keys sorted, recursively; otherwise what JSON.stringify writes. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value)) ?? 'null';
}

/** sha256 (hex) of the value's canonical JSON. */
export function contentHash(value: unknown): string {
  return sha256(canonicalJson(value));
}

/**
 * One hash for several items that share a key in one run: the hash of their hashes in sorted
 * order, so the order pages happened to be fetched in (concurrently) does not count as a change.
 * A single item's hash is its own, so a key held by one item hashes the same as that item.
 */
export function combineHashes(hashes: string[]): string {
  if (hashes.length === 1) return hashes[0];
  return sha256([...hashes].sort().join('\n'));
}

export function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map((element) => (element === undefined ? null : sortKeys(element)));
  if (value === null || typeof value !== 'object') return value;
  // Dates and other objects with a JSON form are hashed as that form.
  const withJson = value as { toJSON?: () => unknown };
  if (typeof withJson.toJSON === 'function') return sortKeys(withJson.toJSON());
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) {
    const field = (value as Record<string, unknown>)[key];
    if (field !== undefined && typeof field !== 'function') sorted[key] = sortKeys(field);
  }
  return sorted;
}

/** What `change_detection` holds: the field that identifies an item, or none for its URL. */
export interface ChangeDetectionSetting {
  key?: string;
}

/**
 * The hash of an item's key, or null when it has none (it is then left out of the comparison).
 * With a key field, that field of the item's data; without, the item's `url` field (which items
 * without selectors have), else the URL of the page it came from. Null, missing and empty values
 * are no key. Hashed as canonical JSON, so the number 1 and the text "1" are different keys.
 */
export function itemKeyHash(item: { url: string; data: Record<string, unknown> }, setting: ChangeDetectionSetting): string | null {
  const value = setting.key !== undefined ? item.data[setting.key] : (item.data.url ?? item.url);
  if (value === undefined || value === null || value === '') return null;
  return contentHash(value);
}
