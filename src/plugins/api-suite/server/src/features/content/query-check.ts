import type { Core, UID } from '@strapi/strapi';
import { errors } from '@strapi/utils';

/**
 * What Strapi's content API cannot ask of the database, refused with its own 400
 * (`ValidationError`, the field named) rather than the database's error answered as a 500 with
 * the SQL in the log (docs/content-api.md#filters-the-database-cannot-apply):
 *
 * - a value of the wrong kind for its field: `filters[id][$eq]=x`, `filters[price][$gt]=abc`,
 *   `filters[stock][$eq]=1.5` on an integer, `1.5e999` (not a finite number), a date that is no
 *   date, a boolean that is neither;
 * - a combining or range operator directly below a relation (`filters[article][$not][title]…`,
 *   `filters[comments][$or][0]=x`, `filters[comments][$between][0]=1`): Strapi's query engine
 *   cannot apply them there; they go on the relation's fields (`filters[article][title][$not]…`);
 * - `$and` / `$or` whose items are not filters, `$not` whose value is not one.
 *
 * One document-service middleware on the reads made while answering a content-API request, after
 * Strapi's own validation of the query (which checks names and operators, not values), so every
 * route of every type, a site's own controllers included, is covered.
 */
const READS = new Set(['findMany', 'findFirst', 'findOne', 'count']);
const COMBINING = new Set(['$and', '$or']);
/** Operators whose operand is compared with the field's values (one value, or a list for $in, $notIn, $between). */
const VALUED = new Set(['$eq', '$ne', '$lt', '$lte', '$gt', '$gte', '$in', '$notIn', '$between']);
const BELOW_RELATION_REFUSED = new Set(['$and', '$or', '$not', '$between']);
const INTEGER = /^[+-]?\d+$/;

type Attribute = { type: string; target?: string };

export function checkContentQueries(strapi: Core.Strapi): void {
  strapi.documents.use(async (context, next) => {
    if (!READS.has(context.action)) return next();
    const request = strapi.requestContext.get() as { state?: { route?: { info?: { type?: string } } } } | undefined;
    if (request?.state?.route?.info?.type !== 'content-api') return next();
    const filters = (context.params as { filters?: unknown } | undefined)?.filters;
    if (filters !== undefined) checkFilters(strapi, context.uid, filters, 'filters');
    return next();
  });
}

function attributesOf(strapi: Core.Strapi, uid: string): Record<string, Attribute> {
  const model = strapi.getModel(uid as UID.Schema) as { attributes?: Record<string, Attribute> } | undefined;
  return model?.attributes ?? {};
}

function refuse(at: string, message: string): never {
  throw new errors.ValidationError(`Invalid filter at ${at}: ${message}`);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function checkFilters(strapi: Core.Strapi, uid: string, filters: unknown, at: string): void {
  if (Array.isArray(filters)) {
    filters.forEach((item, index) => checkFilters(strapi, uid, item, `${at}[${index}]`));
    return;
  }
  if (!isRecord(filters)) return;
  const attributes = attributesOf(strapi, uid);
  for (const [key, value] of Object.entries(filters)) {
    const here = `${at}[${key}]`;
    if (COMBINING.has(key)) {
      const items = Array.isArray(value) ? value : isRecord(value) ? Object.values(value) : [value];
      items.forEach((item, index) => {
        if (!isRecord(item)) refuse(`${here}[${index}]`, `${key} takes a list of filters`);
        checkFilters(strapi, uid, item, `${here}[${index}]`);
      });
      continue;
    }
    if (key === '$not') {
      if (!isRecord(value)) refuse(here, '$not takes a filter');
      checkFilters(strapi, uid, value, here);
      continue;
    }
    if (key.startsWith('$')) continue;
    const attribute: Attribute | undefined = key === 'id' ? { type: 'integer' } : attributes[key];
    if (!attribute) continue;
    if (attribute.type === 'relation' && attribute.target) {
      checkRelation(strapi, attribute.target, value, here);
      continue;
    }
    if (attribute.type === 'component' || attribute.type === 'media' || attribute.type === 'dynamiczone') continue;
    checkField(attribute.type, value, here);
  }
}

/** Below a relation: the related type's fields, or its id compared directly. */
function checkRelation(strapi: Core.Strapi, target: string, value: unknown, at: string): void {
  if (!isRecord(value)) {
    checkField('integer', value, at);
    return;
  }
  for (const key of Object.keys(value)) {
    if (BELOW_RELATION_REFUSED.has(key)) {
      refuse(
        `${at}[${key}]`,
        `${key} cannot be applied to a relation itself; apply it to the related entries' fields, e.g. ${at}[title][${key === '$between' ? '$between' : '$eq'}]`
      );
    }
  }
  const direct = Object.entries(value).filter(([key]) => key.startsWith('$'));
  for (const [operator, operand] of direct) checkOperand('integer', operator, operand, `${at}[${operator}]`);
  checkFilters(strapi, target, Object.fromEntries(Object.entries(value).filter(([key]) => !key.startsWith('$'))), at);
}

/** A scalar field: a bare value (`$eq`), or operators with their operands. */
function checkField(type: string, value: unknown, at: string): void {
  if (!isRecord(value)) {
    checkOperand(type, '$eq', value, at);
    return;
  }
  for (const [operator, operand] of Object.entries(value)) {
    if (operator === '$not') {
      checkField(type, operand, `${at}[$not]`);
      continue;
    }
    checkOperand(type, operator, operand, `${at}[${operator}]`);
  }
}

function checkOperand(type: string, operator: string, operand: unknown, at: string): void {
  if (!VALUED.has(operator)) return;
  const values = Array.isArray(operand) ? operand : isRecord(operand) ? Object.values(operand) : [operand];
  values.forEach((item, index) => {
    const where = values.length > 1 || Array.isArray(operand) ? `${at}[${index}]` : at;
    const problem = kindProblem(type, item);
    if (problem) refuse(where, problem);
  });
}

/** Why `value` cannot be compared with a field of `type`, or undefined when it can. */
function kindProblem(type: string, value: unknown): string | undefined {
  if (value === null || value === undefined) return undefined;
  const text = typeof value === 'string' ? value.trim() : value;
  switch (type) {
    case 'integer':
    case 'biginteger': {
      const ok = typeof text === 'number' ? Number.isInteger(text) : typeof text === 'string' && INTEGER.test(text);
      if (!ok) return `${JSON.stringify(value)} is not a whole number`;
      if (type === 'integer' && Math.abs(Number(text)) > 2_147_483_647) return `${JSON.stringify(value)} is out of range`;
      return undefined;
    }
    case 'float':
    case 'decimal': {
      const number = typeof text === 'number' ? text : typeof text === 'string' && text !== '' ? Number(text) : Number.NaN;
      return Number.isFinite(number) ? undefined : `${JSON.stringify(value)} is not a finite number`;
    }
    case 'boolean':
      return [true, false, 'true', 'false', '1', '0', 1, 0].includes(text as never)
        ? undefined
        : `${JSON.stringify(value)} is not true or false`;
    case 'date':
    case 'datetime':
    case 'timestamp':
      return typeof text === 'string' && !Number.isNaN(Date.parse(text)) ? undefined : `${JSON.stringify(value)} is not a date`;
    case 'time':
      return typeof text === 'string' && /^\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?$/.test(text)
        ? undefined
        : `${JSON.stringify(value)} is not a time (HH:mm:ss)`;
    default:
      return undefined;
  }
}
