/**
 * Any site's content types as zod schemas: the data of content events (`documentSchema`, with
 * `populateFor`, `project` and `exampleDocument` agreeing with it) and the content API's answers
 * and inputs (`answerSchema`, `inputSchema`) for the OpenAPI document.
 */
export { answerSchema } from './answer';
export { clampDepth, MAX_DEPTH } from './attributes';
export { documentSchema, exampleDocument } from './event';
export { inputSchema } from './input';
export { populateFor, project } from './project';
export { sourceOf, type ComponentSchema, type SchemaSource } from './source';
