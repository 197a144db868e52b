import type { TargetAttribute } from './check';

/**
 * An item's value brought to the kind of the attribute it fills. Scraped values are text (or null
 * when a selector matched nothing), so each kind says which text it takes; anything else is a
 * reason the item is not written, reported in the run.
 */
export type Coerced = { ok: true; value: unknown } | { ok: false; reason: string };

export function coerceValue(attribute: TargetAttribute, raw: unknown): Coerced {
  if (attribute.scalar === 'json') return { ok: true, value: raw ?? null };
  const text = textOf(raw);
  if (text === null || text === '') {
    return attribute.required ? { ok: false, reason: 'no value, and the attribute is required' } : { ok: true, value: null };
  }
  switch (attribute.scalar) {
    case 'string':
      return { ok: true, value: text };
    case 'enumeration': {
      const value =
        attribute.values.find((candidate) => candidate === text) ?? attribute.values.find((v) => v.toLowerCase() === text.toLowerCase());
      return value === undefined ? refuse(`"${clip(text)}" is not one of ${attribute.values.join(', ')}`) : { ok: true, value };
    }
    case 'blocks':
      return { ok: true, value: paragraphs(text) };
    case 'integer': {
      const number = numberOf(text);
      return number !== null && Number.isSafeInteger(number)
        ? { ok: true, value: number }
        : refuse(`"${clip(text)}" is not a whole number`);
    }
    case 'biginteger': {
      const digits = numeral(text);
      return /^-?\d+$/.test(digits)
        ? { ok: true, value: digits.replace(/^(-?)0+(?=\d)/, '$1') }
        : refuse(`"${clip(text)}" is not a whole number`);
    }
    case 'number': {
      const number = numberOf(text);
      return number === null ? refuse(`"${clip(text)}" is not a number`) : { ok: true, value: number };
    }
    case 'boolean': {
      const lower = text.toLowerCase();
      if (TRUE.has(lower)) return { ok: true, value: true };
      if (FALSE.has(lower)) return { ok: true, value: false };
      return refuse(`"${clip(text)}" is not yes or no (true, false, yes, no, 1, 0, on, off)`);
    }
    case 'date': {
      const date = dateOf(text);
      return date ? { ok: true, value: date.toISOString().slice(0, 10) } : refuse(`"${clip(text)}" is not a date`);
    }
    case 'datetime': {
      const date = dateOf(text);
      return date ? { ok: true, value: date.toISOString() } : refuse(`"${clip(text)}" is not a date and time`);
    }
    case 'time': {
      const match = /^(\d{1,2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?$/.exec(text);
      if (!match || Number(match[1]) > 23 || Number(match[2]) > 59 || Number(match[3] ?? 0) > 59)
        return refuse(`"${clip(text)}" is not a time (HH:mm or HH:mm:ss)`);
      const [, hours, minutes, seconds = '00', fraction = '0'] = match;
      return { ok: true, value: `${hours.padStart(2, '0')}:${minutes}:${seconds}.${fraction.padEnd(3, '0')}` };
    }
    default:
      return refuse(`a ${attribute.type} attribute cannot be filled`);
  }
}

const TRUE = new Set(['true', 'yes', '1', 'on']);
const FALSE = new Set(['false', 'no', '0', 'off']);

function refuse(reason: string): Coerced {
  return { ok: false, reason };
}

/** Text of a scraped value: strings trimmed, numbers and booleans written out; anything else is not text. */
function textOf(raw: unknown): string | null {
  if (raw === null || raw === undefined) return null;
  if (typeof raw === 'string') return raw.trim();
  if (typeof raw === 'number' || typeof raw === 'boolean' || typeof raw === 'bigint') return String(raw);
  return null;
}

/**
 * A number as pages write it: spaces, a currency sign and thousands separators (`$1,200.50`,
 * `1 200 €`) are dropped; a decimal comma is not guessed at, so `1,5` is no number.
 */
function numeral(text: string): string {
  return text.replace(/^[\s$€£¥]+|[\s$€£¥]+$/gu, '').replace(/(?<=\d)[,\s\u00a0\u202f](?=\d{3}(?:\D|$))/gu, '');
}

function numberOf(text: string): number | null {
  const cleaned = numeral(text);
  if (!/^[+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?$/i.test(cleaned)) return null;
  const number = Number(cleaned);
  return Number.isFinite(number) ? number : null;
}

function dateOf(text: string): Date | null {
  const time = Date.parse(text);
  return Number.isNaN(time) ? null : new Date(time);
}

/** Text as the blocks editor stores it: one paragraph per block of lines. */
function paragraphs(text: string): Array<{ type: 'paragraph'; children: Array<{ type: 'text'; text: string }> }> {
  return text
    .split(/\n\s*\n/)
    .map((part) => part.trim())
    .filter((part) => part.length > 0)
    .map((part) => ({ type: 'paragraph', children: [{ type: 'text', text: part }] }));
}

function clip(text: string): string {
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}
