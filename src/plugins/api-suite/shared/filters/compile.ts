import {
  FIELD_OPERATOR_NAMES,
  FIELD_OPERATORS,
  isFieldOperator,
  LOGICAL_OPERATORS,
  type FieldOperator,
  type OperandKind,
} from './operators';

/**
 * Strapi's filter syntax applied to JSON in memory (docs/webhooks.md#payload-filters): a filter is
 * compiled once into a function of the data, and the conditions it holds are listed for the
 * check against the event schemas (`check.ts`).
 *
 * - `{ field: { $op: value } }`, nested objects by nesting (`{ chef: { name: { $eq: 'Ada' } } }`);
 *   several entries of one object must all hold;
 * - a bare value means `$eq`, a bare list `$in`, a bare null `$null: true`;
 * - `$and` and `$or` take a list of filters, `$not` a filter (or a value: `$not: { $eq: value }`);
 * - on a list, a condition holds when it holds for some item, and a negative one (`$ne`, `$nei`,
 *   `$notIn`, `$notContains`, `$notContainsi`, `$not`) when it holds for none; `$null` and
 *   `$notNull` look at the list as a whole, which is null when it has no item with a value;
 * - strings that are ISO 8601 dates compare as instants, other strings in code-point order, and a
 *   value of another kind than the operand never matches (and never throws).
 */

/** A place in the filter, as the keys leading to it. */
export type FilterPath = string[];

/** A filter that cannot be applied, with the place of the fault. */
export class FilterProblem extends Error {
  constructor(
    readonly path: FilterPath,
    message: string
  ) {
    super(message);
    this.name = 'FilterProblem';
  }
}

export interface FilterCondition {
  /** The data's field the condition applies to, as keys from the payload's top ([] for the payload itself). */
  field: string[];
  /** Where the field is written in the filter. */
  fieldAt: FilterPath;
  /** Where each of the field's keys is written (the first of `field` at the first place, and so on). */
  keyAts: FilterPath[];
  /** Where the condition is written (its operator's place, or the field's for a bare value). */
  at: FilterPath;
  operator: FieldOperator;
  operand: unknown;
}

export interface CompiledFilter {
  /** Whether the data matches; never throws, whatever the data holds. */
  test(data: unknown): boolean;
  conditions: FilterCondition[];
}

/** Limits that keep one filter's cost at publish bounded. */
export const MAX_FILTER_CONDITIONS = 100;
export const MAX_FILTER_DEPTH = 12;

type Test = (value: unknown) => boolean;
type Scalar = string | number | boolean | null;

const OPERATOR_LIST = [...LOGICAL_OPERATORS, ...FIELD_OPERATOR_NAMES].join(', ');

const ISO_DATE = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

/** The instant an ISO 8601 date or date-time names, or NaN. */
export function isoTime(value: string): number {
  return ISO_DATE.test(value) ? Date.parse(value) : Number.NaN;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Compile a filter; throws FilterProblem naming the place of what cannot be applied. */
export function compileFilter(filter: unknown): CompiledFilter {
  const conditions: FilterCondition[] = [];
  const test = objectTest(filter, { keys: [], keyAts: [] }, [], conditions, 0);
  return {
    test: (data) => {
      // Conditions on one field of a list's items pick that list once per event, not once per condition.
      const outer = picked;
      picked = new Map();
      try {
        return test(data);
      } finally {
        picked = outer;
      }
    },
    conditions,
  };
}

/** What `pick` took from each list during the event being tested, by list and key. */
let picked: Map<unknown[], Map<string, unknown>> | undefined;

/** The data's field a part of the filter is about, and where each of its keys is written. */
interface FieldRef {
  keys: string[];
  keyAts: FilterPath[];
}

function objectTest(filter: unknown, field: FieldRef, at: FilterPath, conditions: FilterCondition[], depth: number): Test {
  if (!isPlainObject(filter)) throw new FilterProblem(at, 'must be an object of fields and operators');
  if (depth > MAX_FILTER_DEPTH) throw new FilterProblem(at, `is nested more than ${MAX_FILTER_DEPTH} levels deep`);
  const tests: Test[] = [];
  for (const [key, operand] of Object.entries(filter)) {
    const here = [...at, key];
    if (key === '$and' || key === '$or') {
      if (!Array.isArray(operand)) throw new FilterProblem(here, `${key} takes a list of filters`);
      const parts = operand.map((item, index) => objectTest(item, field, [...here, String(index)], conditions, depth + 1));
      tests.push(key === '$and' ? every(parts) : some(parts));
    } else if (key === '$not') {
      const inner = isPlainObject(operand)
        ? objectTest(operand, field, here, conditions, depth + 1)
        : leafTest('$eq', operand, field, at, here, conditions);
      tests.push((value) => !inner(value));
    } else if (key.startsWith('$')) {
      if (!isFieldOperator(key))
        throw new FilterProblem(here, `${key} is not an operator of Strapi's filter syntax; use one of ${OPERATOR_LIST}`);
      tests.push(leafTest(key, operand, field, at, here, conditions));
    } else {
      const child = valueTest(operand, { keys: [...field.keys, key], keyAts: [...field.keyAts, here] }, here, conditions, depth + 1);
      tests.push((value) => child(pick(value, key)));
    }
    if (conditions.length > MAX_FILTER_CONDITIONS)
      throw new FilterProblem(here, `a filter holds at most ${MAX_FILTER_CONDITIONS} conditions`);
  }
  return every(tests);
}

/** A field's filter: an object of operators and fields, or a bare value, list or null. */
function valueTest(value: unknown, field: FieldRef, at: FilterPath, conditions: FilterCondition[], depth: number): Test {
  if (isPlainObject(value)) return objectTest(value, field, at, conditions, depth);
  if (Array.isArray(value)) return leafTest('$in', value, field, at, at, conditions);
  if (value === null) return leafTest('$null', true, field, at, at, conditions);
  return leafTest('$eq', value, field, at, at, conditions);
}

function leafTest(
  operator: FieldOperator,
  operand: unknown,
  field: FieldRef,
  fieldAt: FilterPath,
  at: FilterPath,
  conditions: FilterCondition[]
): Test {
  const spec = FIELD_OPERATORS[operator] as { operand: OperandKind; negates?: FieldOperator };
  checkOperand(operator, spec.operand, operand, at);
  conditions.push({ field: field.keys, keyAts: field.keyAts, fieldAt, at, operator, operand });
  if (spec.operand === 'presence') {
    const wantsNull = (operator === '$null') === operand;
    return (value) => isNullish(value) === wantsNull;
  }
  const base = positiveTest(spec.negates ?? operator, operand as Scalar | Scalar[]);
  const onItems: Test = (value) => (Array.isArray(value) ? value.some(base) : base(value));
  return spec.negates ? (value) => !onItems(value) : onItems;
}

function positiveTest(operator: FieldOperator, operand: Scalar | Scalar[]): Test {
  switch (operator) {
    case '$eq':
      return equals(operand as Scalar);
    case '$in': {
      const tests = (operand as Scalar[]).map(equals);
      return (value) => tests.some((test) => test(value));
    }
    case '$lt':
    case '$lte':
    case '$gt':
    case '$gte': {
      const compare = comparer(operand as string | number);
      const holds =
        operator === '$lt'
          ? (order: number) => order < 0
          : operator === '$lte'
            ? (order: number) => order <= 0
            : operator === '$gt'
              ? (order: number) => order > 0
              : (order: number) => order >= 0;
      return (value) => {
        const order = compare(value);
        return order !== undefined && holds(order);
      };
    }
    case '$between': {
      const [low, high] = (operand as Array<string | number>).map(comparer);
      return (value) => {
        const above = low(value);
        const below = high(value);
        return above !== undefined && below !== undefined && above >= 0 && below <= 0;
      };
    }
    default:
      return textTest(operator, operand as string);
  }
}

function textTest(operator: FieldOperator, operand: string): Test {
  const lower = operand.toLowerCase();
  const on =
    (read: (text: string) => boolean): Test =>
    (value) =>
      typeof value === 'string' && read(value);
  switch (operator) {
    case '$eqi':
      return on((text) => text.toLowerCase() === lower);
    case '$contains':
      return on((text) => text.includes(operand));
    case '$containsi':
      return on((text) => text.toLowerCase().includes(lower));
    case '$startsWith':
      return on((text) => text.startsWith(operand));
    case '$startsWithi':
      return on((text) => text.toLowerCase().startsWith(lower));
    case '$endsWith':
      return on((text) => text.endsWith(operand));
    case '$endsWithi':
      return on((text) => text.toLowerCase().endsWith(lower));
    default:
      throw new Error(`${operator} is not a text operator`);
  }
}

/** Equality with a scalar: the same kind and value, dates as instants, numbers and numeric strings alike. */
function equals(operand: Scalar): Test {
  if (operand === null) return (value) => value === null || value === undefined;
  if (typeof operand === 'string') {
    const time = isoTime(operand);
    if (Number.isNaN(time)) return (value) => value === operand;
    return (value) => value === operand || (typeof value === 'string' && isoTime(value) === time);
  }
  if (typeof operand === 'number') return (value) => value === operand || (typeof value === 'string' && numeric(value) === operand);
  return (value) => value === operand;
}

/** The order of a value against the operand (negative: before it), or undefined when they do not compare. */
function comparer(operand: string | number): (value: unknown) => number | undefined {
  if (typeof operand === 'number') {
    return (value) => {
      const number = typeof value === 'number' ? value : typeof value === 'string' ? numeric(value) : Number.NaN;
      return Number.isNaN(number) ? undefined : number - operand;
    };
  }
  const time = isoTime(operand);
  return (value) => {
    if (typeof value !== 'string') return undefined;
    if (!Number.isNaN(time)) {
      const instant = isoTime(value);
      if (!Number.isNaN(instant)) return instant - time;
    }
    return value < operand ? -1 : value > operand ? 1 : 0;
  };
}

function numeric(text: string): number {
  return text.trim() === '' ? Number.NaN : Number(text);
}

/** Null, missing, or a list without an item that has a value. */
function isNullish(value: unknown): boolean {
  if (value === null || value === undefined) return true;
  return Array.isArray(value) && value.every(isNullish);
}

/** A field of an object, or of each item of a list (lists of lists flattened); undefined for anything else. */
function pick(value: unknown, key: string): unknown {
  if (Array.isArray(value)) {
    const known = picked?.get(value);
    if (known?.has(key)) return known.get(key);
    // A loop rather than flatMap: a filter is tried on every event, and this is its inner loop.
    const out: unknown[] = [];
    for (const item of value) {
      const one = pick(item, key);
      if (Array.isArray(one)) for (const each of one) out.push(each);
      else out.push(one);
    }
    if (picked) {
      const byKey = picked.get(value) ?? new Map<string, unknown>();
      byKey.set(key, out);
      picked.set(value, byKey);
    }
    return out;
  }
  if (!isPlainObject(value) || !Object.prototype.hasOwnProperty.call(value, key)) return undefined;
  return value[key];
}

function every(tests: Test[]): Test {
  if (tests.length === 0) return () => true;
  if (tests.length === 1) return tests[0];
  return (value) => tests.every((test) => test(value));
}

function some(tests: Test[]): Test {
  // Strapi ignores an empty `$or`, as it does an empty filter.
  if (tests.length === 0) return () => true;
  if (tests.length === 1) return tests[0];
  return (value) => tests.some((test) => test(value));
}

function isScalar(value: unknown): value is Scalar {
  return value === null || typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value));
}

function isOrdered(value: unknown): value is string | number {
  return typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));
}

function checkOperand(operator: FieldOperator, kind: OperandKind, operand: unknown, at: FilterPath): void {
  const refuse = (expected: string) => {
    throw new FilterProblem(at, `${operator} takes ${expected}`);
  };
  switch (kind) {
    case 'equality':
      if (!isScalar(operand)) refuse('a string, number, boolean or null');
      return;
    case 'list':
      if (!Array.isArray(operand) || !operand.every(isScalar)) refuse('a list of strings, numbers, booleans or nulls');
      return;
    case 'range':
      if (!Array.isArray(operand) || operand.length !== 2 || !operand.every(isOrdered))
        refuse('a list of two numbers or strings, lowest first');
      return;
    case 'order':
      if (!isOrdered(operand)) refuse('a number or a string');
      return;
    case 'text':
      if (typeof operand !== 'string') refuse('a string');
      return;
    case 'presence':
      if (typeof operand !== 'boolean') refuse('true or false');
      return;
  }
}
