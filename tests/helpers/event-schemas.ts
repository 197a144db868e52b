import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

/**
 * The event catalog's JSON Schemas, checked with ajv (a validator independent of the zod that
 * generated them). Every test receiver runs each delivery it gets through `eventDataProblem`, so
 * every payload delivered anywhere in the suite, of every type, is held to its schema. The
 * schemas are those the app of the test file registered (the plugin's events and the site's
 * content types), read from the app booted in this process.
 */
const ajv = new Ajv2020({ allErrors: true, strict: false });
addFormats(ajv);
const validators = new WeakMap<object, Map<string, ValidateFunction | undefined>>();

interface EventTypes {
  jsonSchema(name: string): Record<string, unknown>;
}

export function eventDataValidator(type: string): ValidateFunction | undefined {
  const app = (globalThis as { strapi?: { plugin(name: string): { service(name: string): unknown } | undefined } }).strapi;
  const eventTypes = app?.plugin('api-suite')?.service('webhook-event-types') as EventTypes | undefined;
  if (!app || !eventTypes) return undefined;
  let known = validators.get(app);
  if (!known) {
    known = new Map();
    validators.set(app, known);
  }
  if (!known.has(type)) {
    const schema = eventTypes.jsonSchema(type);
    known.set(type, Object.keys(schema).length === 0 ? undefined : ajv.compile(schema));
  }
  return known.get(type);
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
