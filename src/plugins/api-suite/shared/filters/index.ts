// Strapi's filter syntax applied to JSON: see compile.ts, and docs/webhooks.md#payload-filters.
export { compileFilter, FilterProblem, isoTime, MAX_FILTER_CONDITIONS, MAX_FILTER_DEPTH } from './compile';
export type { CompiledFilter, FilterCondition, FilterPath } from './compile';
export { filterProblem, type NamedSchema } from './check';
export { FIELD_OPERATORS, FIELD_OPERATOR_NAMES, LOGICAL_OPERATORS, isFieldOperator } from './operators';
export type { FieldOperator } from './operators';
export { fieldSuggestions, type FieldSuggestion, type JsonSchema } from './schema-fields';
