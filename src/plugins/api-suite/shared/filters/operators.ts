/**
 * The operators of Strapi's filter syntax (the REST API's `filters`, the Document Service's
 * `filters`), as the plugin applies them to JSON in memory: webhook subscriptions' payload
 * filters, and the names the content API's reference lists. See docs/webhooks.md#payload-filters.
 *
 * Strapi's experimental `$jsonSupersetOf` is left out: it is for Strapi's internal use.
 */

/** Combine filters: `$and` and `$or` take a list of filters, `$not` one filter (or a value, meaning `$not: { $eq: value }`). */
export const LOGICAL_OPERATORS = ['$and', '$or', '$not'] as const;

/**
 * What an operator compares its value with, which decides the operand it takes and the fields it
 * applies to:
 * - `equality`: a string, number, boolean or null, compared as it is (dates as instants);
 * - `list`: a list of such values;
 * - `range`: two such values, lowest first;
 * - `order`: a number or a string (dates as instants, other strings in code-point order);
 * - `text`: a string, for string fields;
 * - `presence`: true or false.
 */
export type OperandKind = 'equality' | 'list' | 'range' | 'order' | 'text' | 'presence';

export interface OperatorSpec {
  operand: OperandKind;
  /** Negative operators hold when their positive does not (on a list: when no item matches it). */
  negates?: string;
  description: string;
}

export const FIELD_OPERATORS = {
  $eq: { operand: 'equality', description: 'equal to' },
  $eqi: { operand: 'text', description: 'equal to, ignoring case' },
  $ne: { operand: 'equality', negates: '$eq', description: 'not equal to' },
  $nei: { operand: 'text', negates: '$eqi', description: 'not equal to, ignoring case' },
  $lt: { operand: 'order', description: 'less than' },
  $lte: { operand: 'order', description: 'less than or equal to' },
  $gt: { operand: 'order', description: 'greater than' },
  $gte: { operand: 'order', description: 'greater than or equal to' },
  $in: { operand: 'list', description: 'one of the values given' },
  $notIn: { operand: 'list', negates: '$in', description: 'none of the values given' },
  $contains: { operand: 'text', description: 'contains' },
  $notContains: { operand: 'text', negates: '$contains', description: 'does not contain' },
  $containsi: { operand: 'text', description: 'contains, ignoring case' },
  $notContainsi: { operand: 'text', negates: '$containsi', description: 'does not contain, ignoring case' },
  $startsWith: { operand: 'text', description: 'starts with' },
  $startsWithi: { operand: 'text', description: 'starts with, ignoring case' },
  $endsWith: { operand: 'text', description: 'ends with' },
  $endsWithi: { operand: 'text', description: 'ends with, ignoring case' },
  $null: { operand: 'presence', description: 'is null or missing (true), or is not (false)' },
  $notNull: { operand: 'presence', description: 'is not null (true), or is (false)' },
  $between: { operand: 'range', description: 'between the two values given, both included' },
} as const satisfies Record<string, OperatorSpec>;

export type FieldOperator = keyof typeof FIELD_OPERATORS;
export type LogicalOperator = (typeof LOGICAL_OPERATORS)[number];

export const FIELD_OPERATOR_NAMES = Object.keys(FIELD_OPERATORS) as FieldOperator[];

export function isFieldOperator(key: string): key is FieldOperator {
  return Object.prototype.hasOwnProperty.call(FIELD_OPERATORS, key);
}

export function isLogicalOperator(key: string): key is LogicalOperator {
  return (LOGICAL_OPERATORS as readonly string[]).includes(key);
}
