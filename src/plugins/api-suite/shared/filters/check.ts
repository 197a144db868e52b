import { FilterProblem, isoTime, type CompiledFilter, type FilterCondition } from './compile';
import { FIELD_OPERATORS, type OperandKind } from './operators';
import { schemasAt, shapeOf, type FieldShape, type JsonSchema, type ValueKind } from './schema-fields';

/** An event type's name and the JSON Schema of its data. */
export interface NamedSchema {
  name: string;
  schema: JsonSchema;
}

/**
 * The first condition of a filter that none of the event types it will see can satisfy: a field
 * none of their schemas has, or a value of a kind the field never holds (a string for a number,
 * a word that is not a date for a date, a choice the field does not offer). Undefined when the
 * filter fits. Checking against every type a subscription receives, a field needs to exist in one.
 */
export function filterProblem(filter: CompiledFilter, types: NamedSchema[]): FilterProblem | undefined {
  if (types.length === 0) return undefined;
  for (const condition of filter.conditions) {
    const shapes: Array<{ name: string; shape: FieldShape }> = [];
    for (const type of types) {
      const at = schemasAt(type.schema, condition.field);
      if (at === 'any' || at.length > 0) shapes.push({ name: type.name, shape: shapeOf(at, type.schema) });
    }
    const field = condition.field.join('.');
    if (shapes.length === 0) {
      // Named at the first key that no type has (`customer` of `customer.name`).
      let known = condition.field.length - 1;
      while (known > 0 && !types.some((type) => found(type.schema, condition.field.slice(0, known)))) known -= 1;
      const which = types.length === 1 ? types[0].name : `any of the ${types.length} event types it receives`;
      return new FilterProblem(
        condition.keyAts[known] ?? condition.fieldAt,
        `${which} has no field ${condition.field.slice(0, known + 1).join('.')}`
      );
    }
    const refusal = shapes.map(({ name, shape }) => refusalOf(condition, shape, name, field));
    if (refusal.every((reason) => reason !== undefined)) return new FilterProblem(condition.at, refusal[0] as string);
  }
  return undefined;
}

function found(schema: JsonSchema, path: string[]): boolean {
  const at = schemasAt(schema, path);
  return at === 'any' || at.length > 0;
}

/** Why the condition can never hold for a field of this shape, or undefined when it can. */
function refusalOf(condition: FilterCondition, shape: FieldShape, type: string, field: string): string | undefined {
  if (shape.kinds === 'any') return undefined;
  const kinds = shape.kinds;
  const kind = (FIELD_OPERATORS[condition.operator] as { operand: OperandKind }).operand;
  const holds = describe(kinds);
  const label = `${field} of ${type} holds ${holds}`;
  if (kind === 'presence') return undefined;
  if (kind === 'text') {
    return kinds.has('string') || kinds.has('date') ? undefined : `${condition.operator} compares text, and ${label}`;
  }
  const values = Array.isArray(condition.operand) ? (condition.operand as unknown[]) : [condition.operand];
  for (const value of values) {
    const reason = valueRefusal(value, kinds, shape.choices, kind === 'order' || kind === 'range');
    if (reason) return `${JSON.stringify(value)} ${reason}: ${label}`;
  }
  return undefined;
}

function valueRefusal(value: unknown, kinds: Set<ValueKind>, choices: Set<unknown> | undefined, ordered: boolean): string | undefined {
  if (value === null) return undefined;
  if (typeof value === 'number') return kinds.has('number') ? undefined : 'is a number';
  if (typeof value === 'boolean') return kinds.has('boolean') && !ordered ? undefined : 'is a boolean';
  if (typeof value !== 'string') return 'is not a value a field holds';
  if (kinds.has('date') && !Number.isNaN(isoTime(value))) return undefined;
  if (kinds.has('string')) {
    if (choices && !ordered && !choices.has(value)) {
      return `is not one of ${[...choices].map((choice) => JSON.stringify(choice)).join(', ')}`;
    }
    return undefined;
  }
  return kinds.has('date') ? 'is not an ISO 8601 date' : 'is a string';
}

function describe(kinds: Set<ValueKind>): string {
  const words: Record<ValueKind, string> = {
    string: 'text',
    date: 'dates',
    number: 'numbers',
    boolean: 'true or false',
    null: 'null',
    object: 'objects',
    array: 'lists',
  };
  const named = [...kinds].filter((kind) => kind !== 'null' && !(kind === 'array' && kinds.size > 2)).map((kind) => words[kind]);
  return named.length === 0 ? 'only null' : named.join(' or ');
}
