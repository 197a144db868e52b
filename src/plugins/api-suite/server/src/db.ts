import type { Core } from '@strapi/strapi';

/**
 * The few things hot paths need when they write through knex rather than the document service:
 * batched inserts, one-statement updates of many rows with different values, and reading back
 * values whose type differs between PostgreSQL and SQLite (dates, JSON, booleans).
 */
export type Knex = Core.Strapi['db']['connection'];

/** SQLite takes at most 500 rows in one INSERT through knex. */
export const INSERT_CHUNK = 500;

export type ColumnKind = 'text' | 'integer' | 'timestamp';

export function dialectOf(strapi: Core.Strapi): string {
  return strapi.db.dialect.client as string;
}

export function tableOf(strapi: Core.Strapi, uid: string): string {
  return strapi.db.metadata.get(uid as Parameters<Core.Strapi['db']['metadata']['get']>[0]).tableName;
}

export async function insertChunked(knex: Knex, table: string, rows: Record<string, unknown>[], chunk = INSERT_CHUNK): Promise<void> {
  for (let start = 0; start < rows.length; start += chunk) {
    await knex(table).insert(rows.slice(start, start + chunk));
  }
}

/**
 * UPDATE table SET col = v.col ... for many rows at once, each with its own values, keyed by
 * `key`: one statement per chunk instead of one per row. PostgreSQL needs the parameter types
 * spelled out; SQLite (3.33+ for UPDATE ... FROM) takes them as they come.
 */
export async function updateMany(
  knex: Knex,
  client: string,
  table: string,
  key: { name: string; kind: ColumnKind },
  columns: Array<{ name: string; kind: ColumnKind; keepWhenNull?: boolean }>,
  rows: Array<Record<string, unknown>>,
  chunk = 200
): Promise<void> {
  if (rows.length === 0) return;
  if (client !== 'postgres' && client !== 'sqlite') {
    // Other dialects: one statement per row, still in one transaction.
    await knex.transaction(async (trx) => {
      for (const row of rows) {
        await trx(table)
          .where(key.name, row[key.name] as string | number)
          .update(
            Object.fromEntries(
              columns.filter((column) => !(column.keepWhenNull && row[column.name] == null)).map((column) => [column.name, row[column.name]])
            )
          );
      }
    });
    return;
  }
  const all = [key, ...columns];
  const cast = (kind: ColumnKind) => (client === 'postgres' ? `CAST(? AS ${PG_TYPES[kind]})` : kind === 'integer' ? 'CAST(? AS INTEGER)' : '?');
  const tuple = `(${all.map((column) => cast(column.kind)).join(', ')})`;
  const names = all.map((column) => `"${column.name}"`).join(', ');
  const assignments = columns
    .map((column) =>
      column.keepWhenNull
        ? `"${column.name}" = COALESCE(v."${column.name}", "${table}"."${column.name}")`
        : `"${column.name}" = v."${column.name}"`
    )
    .join(', ');
  for (let start = 0; start < rows.length; start += chunk) {
    const part = rows.slice(start, start + chunk);
    const bindings = part.flatMap((row) => all.map((column) => bindable(row[column.name], column.kind, client)));
    await knex.raw(
      `WITH v(${names}) AS (VALUES ${part.map(() => tuple).join(', ')}) ` +
        `UPDATE "${table}" SET ${assignments} FROM v WHERE "${table}"."${key.name}" = v."${key.name}"`,
      bindings as never
    );
  }
}

const PG_TYPES: Record<ColumnKind, string> = { text: 'text', integer: 'integer', timestamp: 'timestamptz' };

/** Strapi keeps SQLite datetimes as epoch milliseconds; PostgreSQL takes them as ISO strings. */
function bindable(value: unknown, kind: ColumnKind, client: string): unknown {
  if (value === undefined || value === null) return null;
  if (kind === 'timestamp') {
    const date = value instanceof Date ? value : new Date(value as string | number);
    return client === 'sqlite' ? date.getTime() : date.toISOString();
  }
  return value;
}

/** The rows of a raw query, whichever driver answered it. */
export function rowsOf<T>(result: unknown): T[] {
  if (Array.isArray(result)) return result as T[];
  const rows = (result as { rows?: unknown } | undefined)?.rows;
  return Array.isArray(rows) ? (rows as T[]) : [];
}

/** A datetime column as read by knex: a Date (pg), epoch ms (SQLite) or an ISO string. */
export function toDate(value: unknown): Date | null {
  if (value === null || value === undefined || value === '') return null;
  const date = value instanceof Date ? value : new Date(typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : (value as string | number));
  return Number.isNaN(date.getTime()) ? null : date;
}

export function toIso(value: unknown): string | null {
  return toDate(value)?.toISOString() ?? null;
}

/** A JSON column: parsed already by pg, a string in SQLite. */
export function fromJson<T>(value: unknown, fallback: T): T {
  if (value === null || value === undefined) return fallback;
  if (typeof value !== 'string') return value as T;
  try {
    return JSON.parse(value) as T;
  } catch {
    return fallback;
  }
}

/** A boolean column: true/false in pg, 1/0 in SQLite. */
export function toBool(value: unknown): boolean {
  return value === true || value === 1 || value === '1' || value === 't';
}

/** A count from knex, which answers a string on pg for bigint counts. */
export function toCount(value: unknown): number {
  return Number(value ?? 0);
}
