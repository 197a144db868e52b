import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { eventDataJsonSchema, isEventName } from '../../src/plugins/api-suite/server/src/features/webhooks/validation/event-data';

/**
 * The event catalog's JSON Schemas, checked with ajv (a validator independent of the zod that
 * generated them). Every test receiver runs each delivery it gets through `eventDataProblem`, so
 * every payload delivered anywhere in the suite, of every type, is held to its schema.
 */
const ajv = new Ajv2020({ allErrors: true, strict: false });
addFormats(ajv);
const validators = new Map<string, ValidateFunction>();

export function eventDataValidator(type: string): ValidateFunction | undefined {
  if (!isEventName(type)) return undefined;
  let validate = validators.get(type);
  if (!validate) {
    validate = ajv.compile(eventDataJsonSchema(type));
    validators.set(type, validate);
  }
  return validate;
}

/** Why a delivered body's `data` does not fit its event's schema, or undefined when it does (or is not an event of the catalog). */
export function eventDataProblem(type: string, body: string): string | undefined {
  const validate = eventDataValidator(type);
  if (!validate) return undefined;
  let parsed: { data?: unknown };
  try {
    parsed = JSON.parse(body) as { data?: unknown };
  } catch {
    return `${type}: the body is not JSON`;
  }
  if (validate(parsed.data)) return undefined;
  return `${type}: ${ajv.errorsText(validate.errors)} in ${JSON.stringify(parsed.data)}`;
}
