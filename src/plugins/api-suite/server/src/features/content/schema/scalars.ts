import { z } from 'zod';
import type { ScalarKind } from './attributes';

/**
 * Scalar attributes: their zod schema, how a value read from the database is brought to it (each
 * driver hands values back its own way), and an example value. Kept together so a kind's three
 * answers cannot drift apart.
 */

export interface ScalarField {
  name: string;
  scalar: ScalarKind;
  /** Strapi's type (`email`, `richtext`…), for examples. */
  type: string;
  /** An enumeration's values. */
  values: string[];
}

/**
 * The schema of a value that is there (callers make it nullable or optional). `output`: as
 * Strapi answers (and `project` writes) it; `input`: as a content API body may give it.
 */
export function scalarSchema(field: ScalarField, io: 'output' | 'input'): z.ZodType {
  switch (field.scalar) {
    case 'string':
    case 'password':
      return z.string();
    case 'enumeration':
      return field.values.length > 0 ? z.enum(field.values as [string, ...string[]]) : z.string();
    case 'blocks':
      return z
        .array(z.looseObject({ type: z.string() }))
        .meta({ description: 'Rich text, as the blocks editor stores it: an array of typed nodes.' });
    case 'integer':
      return z.int();
    case 'biginteger':
      // Strapi answers big integers as strings: a JSON number would lose digits past 2^53.
      return io === 'output' ? bigInteger : z.union([bigInteger, z.int()]);
    case 'number':
      return z.number();
    case 'boolean':
      return z.boolean();
    case 'date':
      return z.iso.date();
    case 'time':
      return time;
    case 'datetime':
      return io === 'output' ? z.iso.datetime() : z.iso.datetime({ offset: true });
    case 'json':
      return jsonValue;
    case 'unknown':
      return z.unknown();
  }
}

/**
 * A value read through the document service, brought to `scalarSchema(field, 'output')`: Dates
 * as ISO strings, PostgreSQL's decimal strings as numbers, SQLite's 0/1 as booleans, big
 * integers as strings, JSON stored as text parsed. A value that cannot be read as its kind is
 * null rather than a payload that breaks its own schema.
 */
export function normalizeScalar(field: ScalarField, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  switch (field.scalar) {
    case 'string':
    case 'password':
      return typeof value === 'string' ? value : typeof value === 'number' || typeof value === 'bigint' ? String(value) : null;
    case 'enumeration':
      return typeof value === 'string' && (field.values.length === 0 || field.values.includes(value)) ? value : null;
    case 'blocks': {
      const blocks = toJson(parsed(value));
      return Array.isArray(blocks) && blocks.every((node) => isObject(node) && typeof node.type === 'string') ? blocks : null;
    }
    case 'integer': {
      const number = toNumber(value);
      return number !== null && Number.isSafeInteger(number) ? number : null;
    }
    case 'biginteger':
      if (typeof value === 'number') return Number.isSafeInteger(value) ? String(value) : null;
      if (typeof value === 'bigint') return value.toString();
      return typeof value === 'string' && /^[+-]?\d+$/.test(value.trim()) ? BigInt(value.trim()).toString() : null;
    case 'number':
      return toNumber(value);
    case 'boolean':
      return typeof value === 'boolean' ? value : (BOOLEANS.get(String(value).toLowerCase()) ?? null);
    case 'date': {
      const date = value instanceof Date ? (Number.isNaN(value.getTime()) ? '' : value.toISOString()) : String(value);
      return z.iso.date().safeParse(date.slice(0, 10)).success ? date.slice(0, 10) : null;
    }
    case 'time': {
      const match = /^(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?$/.exec(String(value).trim());
      const written = match ? `${match[1]}:${match[2]}:${match[3] ?? '00'}${match[4] ? `.${match[4].slice(0, 3)}` : ''}` : '';
      return time.safeParse(written).success ? written : null;
    }
    case 'datetime': {
      const date = value instanceof Date ? value : typeof value === 'string' || typeof value === 'number' ? new Date(value) : undefined;
      return date && !Number.isNaN(date.getTime()) ? date.toISOString() : null;
    }
    case 'json':
      // Some drivers hand JSON columns back as text. (A JSON string that itself reads as JSON,
      // such as "42", cannot be told apart from text: it is read as what it says.)
      return toJson(parsed(value));
    case 'unknown':
      return toJson(value);
  }
}

/** A plausible value of the field's kind, the same on every call. */
export function exampleScalar(field: ScalarField): unknown {
  switch (field.scalar) {
    case 'string':
      if (field.type === 'email') return 'someone@example.com';
      if (field.type === 'uid') return `example-${field.name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;
      return `Example ${field.name}`;
    case 'password':
      return 'correct horse battery staple';
    case 'enumeration':
      return field.values[0] ?? `Example ${field.name}`;
    case 'blocks':
      return [{ type: 'paragraph', children: [{ type: 'text', text: `Example ${field.name}` }] }];
    case 'integer':
      return 1;
    case 'biginteger':
      return '1';
    case 'number':
      return 1.5;
    case 'boolean':
      return true;
    case 'date':
      return '2026-01-01';
    case 'time':
      return '12:00:00.000';
    case 'datetime':
      return EXAMPLE_DATETIME;
    case 'json':
      return { example: true };
    case 'unknown':
      return null;
  }
}

export const EXAMPLE_DATETIME = '2026-01-01T12:00:00.000Z';

/** Any JSON value: checked by parsing, described (JSON Schema `{}`) as any value. */
export const jsonValue = z
  .unknown()
  .refine((value) => value !== undefined && isJson(value), 'Expected a JSON value')
  .meta({ description: 'Any JSON value.' });

const bigInteger = z
  .string()
  .regex(/^-?\d+$/)
  .meta({ description: 'A big integer, as a string of digits.' });
const time = z
  .string()
  .regex(/^(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d(?:\.\d{1,3})?$/)
  .meta({ description: 'A time of day, HH:mm:ss or HH:mm:ss.SSS.' });

const BOOLEANS = new Map([
  ['1', true],
  ['true', true],
  ['t', true],
  ['0', false],
  ['false', false],
  ['f', false],
]);

function toNumber(value: unknown): number | null {
  const number =
    typeof value === 'number'
      ? value
      : typeof value === 'bigint' || (typeof value === 'string' && value.trim() !== '')
        ? Number(value)
        : NaN;
  return Number.isFinite(number) ? number : null;
}

function parsed(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
}

/** The value as JSON would carry it: Dates as strings, undefined keys dropped, big integers as strings. */
function toJson(value: unknown): unknown {
  if (value === undefined) return null;
  try {
    return JSON.parse(
      JSON.stringify(value, (_key, item: unknown) => (typeof item === 'bigint' ? item.toString() : item)) ?? 'null'
    ) as unknown;
  } catch {
    // A cycle: nothing JSON can carry.
    return null;
  }
}

function isJson(value: unknown): boolean {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value);
  if (Array.isArray(value)) return value.every(isJson);
  return isPlainObject(value) && Object.values(value).every(isJson);
}

/** Created by `{}` or JSON.parse, in any realm (not a Date, a Map, a class instance). */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (!isObject(value)) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === null || Object.getPrototypeOf(prototype) === null;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
