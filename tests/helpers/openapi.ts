import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { HttpMethod, JsonObject, OpenApiDocument } from '../../src/plugins/api-suite/server/src/contract/openapi';

type OperationObject = JsonObject & { operationId: string; responses: Record<string, JsonObject> };

/**
 * The document the checks use: the one the app serves (generated from the zod schemas), handed
 * over by the test file once it has booted the app.
 */
let openApiDocument: OpenApiDocument;
export function useOpenApiDocument(document: OpenApiDocument): void {
  openApiDocument = document;
  ajvInstance = undefined;
  validators.clear();
}

/**
 * Checks real answers against the OpenAPI document, so the document cannot drift from the code:
 * the operation and its status must be documented, the body must match the response schema
 * (compiled once with Ajv's JSON Schema 2020-12 build, `$ref`s resolved into the document), the
 * content type must be a documented one, and documented headers must be present when required
 * and well-formed when sent.
 */

const DOCUMENT_ID = 'https://openapi.local/api/v1/openapi.json';
const METHODS: HttpMethod[] = ['get', 'put', 'post', 'delete', 'patch'];

export interface SpecResponse {
  status: number;
  body: unknown;
  headers: Record<string, string>;
  /** supertest's raw text, used to tell an empty 204 body from `{}`. */
  text?: string;
}

let ajvInstance: Ajv2020 | undefined;
const validators = new Map<string, ValidateFunction>();

function ajv(): Ajv2020 {
  if (!ajvInstance) {
    const instance = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true });
    addFormats(instance);
    // The OpenAPI document is added whole as a schema (so `#/components/...` resolves inside it);
    // its own top-level fields are not JSON Schema keywords.
    instance.addVocabulary([
      'openapi',
      'jsonSchemaDialect',
      'info',
      'servers',
      'security',
      'tags',
      'paths',
      'components',
      'webhooks',
      'externalDocs',
    ]);
    instance.addSchema({ ...structuredClone(openApiDocument), $id: DOCUMENT_ID });
    ajvInstance = instance;
  }
  return ajvInstance;
}

function escapePointer(segment: string): string {
  return encodeURIComponent(segment.replace(/~/g, '~0').replace(/\//g, '~1'));
}

function pointer(...segments: string[]): string {
  return `#/${segments.map(escapePointer).join('/')}`;
}

/** The object at a local `#/...` reference of the document. */
function lookup(ref: string): JsonObject {
  if (!ref.startsWith('#/')) throw new Error(`only local references are supported, not ${ref}`);
  let node: unknown = openApiDocument;
  for (const raw of ref.slice(2).split('/')) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    node = (node as Record<string, unknown> | undefined)?.[key];
  }
  if (typeof node !== 'object' || node === null) throw new Error(`the document has nothing at ${ref}`);
  return node as JsonObject;
}

/** Follow a `$ref` (response or header object), remembering where the target lives. */
function follow(node: JsonObject, at: string): { node: JsonObject; at: string } {
  const target = node.$ref;
  return typeof target === 'string' ? follow(lookup(target), target) : { node, at };
}

function validator(schemaPointer: string): ValidateFunction {
  let validate = validators.get(schemaPointer);
  if (!validate) {
    validate = ajv().compile({ $ref: `${DOCUMENT_ID}${schemaPointer}` });
    validators.set(schemaPointer, validate);
  }
  return validate;
}

function describeErrors(errors: ErrorObject[] | null | undefined): string {
  return (errors ?? [])
    .map(
      (error) =>
        `  - ${error.instancePath || '(root)'} ${error.message ?? ''}${Object.keys(error.params).length ? ` ${JSON.stringify(error.params)}` : ''} [${error.schemaPath}]`
    )
    .join('\n');
}

function operationOf(method: string, pathTemplate: string): OperationObject {
  const pathItem = openApiDocument.paths[pathTemplate];
  if (!pathItem) throw new Error(`OpenAPI: the path ${pathTemplate} is not documented`);
  const operation = pathItem[method.toLowerCase() as HttpMethod] as OperationObject | undefined;
  if (!operation) throw new Error(`OpenAPI: ${method.toUpperCase()} ${pathTemplate} is not documented`);
  return operation;
}

function headerOf(headers: Record<string, string>, name: string): string | undefined {
  const wanted = name.toLowerCase();
  const entry = Object.entries(headers).find(([key]) => key.toLowerCase() === wanted);
  return entry?.[1];
}

/** Header values are strings: an integer schema is checked against the number the string spells. */
function headerMatches(validate: ValidateFunction, value: string): boolean {
  if (validate(value)) return true;
  return /^-?\d+(\.\d+)?$/.test(value) && validate(Number(value));
}

/**
 * Throws unless `response` is a documented answer of `method pathTemplate` (such as
 * `GET /api/v1/keys/{id}`): the status is documented for the operation (or by a `default`), and
 * the body, the content type and the documented headers match.
 */
export function expectResponseToMatchSpec(response: SpecResponse, method: string, pathTemplate: string): void {
  const label = `${method.toUpperCase()} ${pathTemplate} → ${response.status}`;
  const operation = operationOf(method, pathTemplate);
  const status = String(response.status);
  const statusKey =
    status in operation.responses
      ? status
      : `${status[0]}XX` in operation.responses
        ? `${status[0]}XX`
        : 'default' in operation.responses
          ? 'default'
          : undefined;
  if (!statusKey) {
    throw new Error(
      `OpenAPI: ${label} is not documented (documented: ${Object.keys(operation.responses).join(', ')}). Body: ${JSON.stringify(response.body)}`
    );
  }
  const { node: documented, at } = follow(
    operation.responses[statusKey],
    pointer('paths', pathTemplate, method.toLowerCase(), 'responses', statusKey)
  );
  const problems: string[] = [];

  const content = documented.content as Record<string, JsonObject> | undefined;
  const rawText = response.text ?? '';
  if (!content) {
    const empty =
      rawText === '' &&
      (response.body === undefined ||
        response.body === null ||
        response.body === '' ||
        (typeof response.body === 'object' && Object.keys(response.body as object).length === 0));
    if (!empty) problems.push(`a body was sent where none is documented: ${rawText || JSON.stringify(response.body)}`);
  } else {
    const contentType = (headerOf(response.headers, 'content-type') ?? '').split(';')[0].trim().toLowerCase();
    const mediaType = Object.keys(content).find((candidate) => candidate.toLowerCase() === contentType);
    if (!mediaType) {
      problems.push(`content type "${contentType}" is not documented (documented: ${Object.keys(content).join(', ')})`);
    } else if (content[mediaType].schema !== undefined) {
      const body = mediaType === 'application/json' || mediaType.endsWith('+json') ? response.body : rawText;
      const validate = validator(`${at}/${['content', mediaType, 'schema'].map(escapePointer).join('/')}`);
      if (!validate(body)) problems.push(`the body does not match the schema:\n${describeErrors(validate.errors)}`);
    }
  }

  const headers = (documented.headers ?? {}) as Record<string, JsonObject>;
  for (const [name, declared] of Object.entries(headers)) {
    if (name.toLowerCase() === 'content-type') continue;
    const { node: header, at: headerAt } = follow(declared, `${at}/headers/${escapePointer(name)}`);
    const value = headerOf(response.headers, name);
    if (value === undefined) {
      if (header.required === true) problems.push(`the required header ${name} is missing`);
      continue;
    }
    if (header.schema !== undefined) {
      const validate = validator(`${headerAt}/schema`);
      if (!headerMatches(validate, value))
        problems.push(`the header ${name}: "${value}" does not match its schema:\n${describeErrors(validate.errors)}`);
    }
  }

  if (problems.length > 0) {
    throw new Error(
      `OpenAPI: ${label} does not match the document:\n${problems.map((problem) => `- ${problem}`).join('\n')}\nBody: ${JSON.stringify(response.body)}`
    );
  }
}

/** Throws unless `value` matches `#/components/schemas/<name>` (for payloads that are not whole answers, such as SSE events). */
export function expectToMatchSchema(value: unknown, name: string): void {
  if (!openApiDocument.components.schemas[name]) throw new Error(`OpenAPI: no schema named ${name}`);
  const validate = validator(pointer('components', 'schemas', name));
  if (!validate(value))
    throw new Error(`OpenAPI: the value does not match ${name}:\n${describeErrors(validate.errors)}\nValue: ${JSON.stringify(value)}`);
}

/** Every documented operation, as `{ method: 'GET', path: '/api/v1/keys/{id}' }`. */
export function documentedOperations(): Array<{ method: string; path: string }> {
  return Object.entries(openApiDocument.paths).flatMap(([path, item]) =>
    METHODS.filter((method) => item[method] !== undefined).map((method) => ({ method: method.toUpperCase(), path }))
  );
}

/** Compile every response schema of the document at once (catches a schema Ajv refuses, even one no test reaches). */
export function compileAllResponseSchemas(): number {
  let compiled = 0;
  for (const [path, item] of Object.entries(openApiDocument.paths)) {
    for (const method of METHODS) {
      const operation = item[method] as OperationObject | undefined;
      if (!operation) continue;
      for (const [status, declared] of Object.entries(operation.responses)) {
        const { node, at } = follow(declared, pointer('paths', path, method, 'responses', status));
        for (const mediaType of Object.keys((node.content ?? {}) as Record<string, JsonObject>)) {
          validator(`${at}/${['content', mediaType, 'schema'].map(escapePointer).join('/')}`);
          compiled += 1;
        }
        for (const [name, header] of Object.entries((node.headers ?? {}) as Record<string, JsonObject>)) {
          const target = follow(header, `${at}/headers/${escapePointer(name)}`);
          if (target.node.schema !== undefined) validator(`${target.at}/schema`);
        }
      }
    }
  }
  return compiled;
}
