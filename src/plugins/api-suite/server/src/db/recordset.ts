import type { Column, ColumnKind } from './types';

// PostgreSQL's side of the bulk writes: rows passed as one JSON document read by `json_to_recordset`.

/**
 * Strapi's datetime columns are `timestamp` without a time zone, and the pg driver writes a Date
 * as local time with its offset (which such a column ignores); writing timestamps the driver's
 * way keeps these paths storing exactly what knex's own inserts store. JSON values travel as
 * their text and are cast.
 */
const RECORDSET_TYPES: Record<ColumnKind, string> = { text: 'text', integer: 'integer', timestamp: 'timestamp', json: 'text' };

/** The column list of `json_to_recordset(…) AS v(…)`. */
export function recordsetColumns(columns: Column[]): string {
  return columns.map((column) => `"${column.name}" ${RECORDSET_TYPES[column.kind]}`).join(', ');
}

/** A column's value read from the recordset `alias`, cast where its text stands for another type. */
export function recordsetValue(column: Column, alias: string): string {
  return column.kind === 'json' ? `${alias}."${column.name}"::jsonb` : `${alias}."${column.name}"`;
}

/** A constant's type in its cast. */
export const CONSTANT_TYPES: Record<ColumnKind, string> = { text: 'text', integer: 'integer', timestamp: 'timestamp', json: 'jsonb' };

/** A constant as bound: a timestamp as the driver writes one, JSON as its text. */
export function constantValue(column: Column, value: unknown): unknown {
  if (column.kind === 'timestamp') return pgTimestamp(value instanceof Date ? value : new Date(value as string | number));
  if (column.kind === 'json') return jsonText(value);
  return value;
}

/** A JSON column's value as its text; a string is taken to be JSON text already. */
export function jsonText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/**
 * The rows as one JSON array of objects holding exactly `columns` (null for a missing value):
 * the text JSON.stringify gives for such objects, written directly. This runs for every delivery
 * (its record, its attempt, its new state); building the objects first took about three times
 * as long.
 */
export function recordsetJson(rows: ReadonlyArray<object>, columns: Column[]): string {
  const timestamp = timestampJson();
  const keys = columns.map((column, index) => `${index === 0 ? '{' : ','}${JSON.stringify(column.name)}:`);
  let text = '[';
  for (let index = 0; index < rows.length; index += 1) {
    const row = rows[index] as Record<string, unknown>;
    text += index === 0 ? '' : ',';
    if (columns.length === 0) text += '{';
    for (let at = 0; at < columns.length; at += 1) {
      const { name, kind } = columns[at];
      const value = row[name];
      text += keys[at];
      if (value === undefined || value === null) text += 'null';
      else if (kind === 'timestamp') text += timestamp(value);
      else if (kind === 'json') text += JSON.stringify(jsonText(value));
      else text += JSON.stringify(value) ?? 'null';
    }
    text += '}';
  }
  return `${text}]`;
}

/**
 * Timestamps as JSON strings of pgTimestamp's text. A batch's rows fall within a few seconds:
 * each second is formatted once, and a timestamp is its second with the milliseconds put in.
 */
function timestampJson(): (value: unknown) => string {
  const seconds = new Map<number, [string, string]>();
  return (value) => {
    const time = (value instanceof Date ? value : new Date(value as string | number)).getTime();
    if (!Number.isFinite(time)) throw new TypeError(`Not a time: ${String(value)}`);
    const ms = ((time % 1000) + 1000) % 1000;
    let parts = seconds.get(time - ms);
    if (parts === undefined) {
      const text = pgTimestamp(new Date(time - ms));
      const dot = text.lastIndexOf('.');
      parts = [`"${text.slice(0, dot + 1)}`, `${text.slice(dot + 4)}"`];
      seconds.set(time - ms, parts);
    }
    return `${parts[0]}${ms < 10 ? '00' : ms < 100 ? '0' : ''}${ms}${parts[1]}`;
  };
}

/**
 * A Date exactly as the pg driver writes one: local time with its offset
 * (`2026-01-02T03:04:05.006+01:00`). `offsetMinutes` is the zone's, east of UTC.
 */
export function pgTimestamp(date: Date, offsetMinutes = -date.getTimezoneOffset()): string {
  const pad = (value: number, width: number) => String(value).padStart(width, '0');
  const local = new Date(date.getTime() + offsetMinutes * 60_000);
  const offset = Math.abs(offsetMinutes);
  return (
    `${pad(local.getUTCFullYear(), 4)}-${pad(local.getUTCMonth() + 1, 2)}-${pad(local.getUTCDate(), 2)}` +
    `T${pad(local.getUTCHours(), 2)}:${pad(local.getUTCMinutes(), 2)}:${pad(local.getUTCSeconds(), 2)}.${pad(local.getUTCMilliseconds(), 3)}` +
    `${offsetMinutes < 0 ? '-' : '+'}${pad(Math.floor(offset / 60), 2)}:${pad(offset % 60, 2)}`
  );
}
