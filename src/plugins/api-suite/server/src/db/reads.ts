import { ALL_CONSUMERS, type Owner } from '../constants';
import type { Knex } from './types';

// Reading back values whose type differs between PostgreSQL, MySQL and SQLite (dates, JSON, booleans, counts).

/** The rows of a raw query, whichever driver answered it: an array (SQLite), `{ rows }` (pg) or `[rows, fields]` (mysql2). */
export function rowsOf<T>(result: unknown): T[] {
  if (Array.isArray(result)) return (Array.isArray(result[0]) ? result[0] : result) as T[];
  const rows = (result as { rows?: unknown } | undefined)?.rows;
  return Array.isArray(rows) ? (rows as T[]) : [];
}

/** A datetime column as read by knex: a Date (pg), epoch ms (SQLite) or an ISO string. */
export function toDate(value: unknown): Date | null {
  if (value === null || value === undefined || value === '') return null;
  const date =
    value instanceof Date ? value : new Date(typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : (value as string | number));
  return Number.isNaN(date.getTime()) ? null : date;
}

export function toIso(value: unknown): string | null {
  return toDate(value)?.toISOString() ?? null;
}

/** A NOT NULL datetime column (a row's created_at): a missing or unreadable value is a fault, not null. */
export function toIsoRequired(value: unknown, column: string): string {
  const iso = toIso(value);
  if (iso === null) throw new Error(`api-suite: the ${column} column held no date: ${String(value)}`);
  return iso;
}

/** A JSON column: parsed already by pg (and mysql2 on MySQL 8), a string in SQLite and MariaDB (whose JSON is text). */
export function fromJson<T>(value: unknown, fallback: T): T {
  if (value === null || value === undefined) return fallback;
  if (typeof value !== 'string') return value as T;
  try {
    return JSON.parse(value) as T;
  } catch {
    return fallback;
  }
}

/** A text column that may be empty (null), whatever type the driver read it as. */
export function toText(value: unknown): string | null {
  return value === null || value === undefined ? null : String(value);
}

/** A boolean column: true/false in pg (and MySQL through Strapi's typeCast), 1/0 in SQLite and MySQL's raw aggregates. */
export function toBool(value: unknown): boolean {
  return value === true || value === 1 || value === '1' || value === 't';
}

/** A count from knex, which answers a string on pg and MySQL (Strapi's bigNumberStrings) for bigint counts. */
export function toCount(value: unknown): number {
  return Number(value ?? 0);
}

/**
 * One page of a table's rows owned by a consumer (every consumer's with `ALL_CONSUMERS`), newest
 * first, with the total: the list query of every consumer-owned record (scrapers, subscriptions).
 */
export async function pageOwned<Row>(
  query: () => ReturnType<Knex>,
  owner: Owner,
  page: number,
  limit: number
): Promise<{ rows: Row[]; total: number }> {
  const scoped = () => (owner === ALL_CONSUMERS ? query() : query().where({ consumer_id: owner }));
  const [rows, counted] = await Promise.all([
    scoped()
      .select('*')
      .orderBy('id', 'desc')
      .limit(limit)
      .offset((page - 1) * limit),
    scoped().count({ count: '*' }).first(),
  ]);
  return { rows: rows as Row[], total: toCount((counted as { count?: unknown } | undefined)?.count) };
}
