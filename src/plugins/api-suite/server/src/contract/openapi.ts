import { z } from 'zod';
import type { HttpMethod, Json, JsonObject, ResponseSpec, RouteContract, SharedResponse } from './route';

/**
 * The OpenAPI 3.1 document, generated from the zod schemas the routes validate with and answer
 * in. Each feature (and the host app, for its articles) contributes an `ApiDescription`: the
 * schemas that become named components and the operations of its routes. Nothing describes a
 * route a second time: change a schema and the served document changes with it.
 *
 * JSON Schema comes from zod 4's own `z.toJSONSchema` (draft 2020-12, OpenAPI 3.1's dialect):
 * request bodies and parameters as zod reads them (`io: 'input'`: a field with a default is
 * optional), answers as the server writes them (`io: 'output'`: objects are closed with
 * `additionalProperties: false`, so the tests that check real answers against the document catch
 * any field the schema lacks). A schema named in `components` becomes a `$ref` wherever it appears.
 */

export type { HttpMethod, Json, JsonObject, ResponseSpec, SharedResponse, TextBody } from './route';

/**
 * Who may call: no credential, any credential with the OAuth scope a key needs, or only the
 * consumer's own sign-in (`session`: a users-permissions JWT as a Bearer token).
 */
export type Security = 'open' | 'read' | 'write' | 'session';

/** A route of the public API as the document shows it: its contract (contract/route.ts) and its words. */
export interface Operation extends RouteContract {
  operationId: string;
  summary: string;
  description?: string;
  tags: readonly string[];
  security: Security;
  /** Descriptions of path and query parameters, where the schema's own would say too little. */
  parameterDescriptions?: Record<string, string>;
  /**
   * How a query parameter is serialised, where it is not a plain value (`form`, the default):
   * `{ style: 'deepObject', explode: true }` for an object sent as `filters[title][$eq]=…`.
   */
  parameterStyles?: Record<string, { style: 'form' | 'deepObject'; explode?: boolean }>;
}

/** Names a feature's contracts of the public API (contract/route.ts), each with what the document says of it. */
export const defineOperations = <const R extends Record<string, Operation>>(operations: R): R => operations;

export interface ApiDescription {
  tags?: Array<{ name: string; description: string }>;
  /** Schemas published as `components.schemas.<name>`, referenced by `$ref` wherever used. */
  components?: Record<string, z.ZodType>;
  operations?: Operation[];
  /** Parts of `components` that are not schemas (headers, shared responses, security schemes). */
  extra?: { headers?: Record<string, JsonObject>; responses?: Record<string, JsonObject>; securitySchemes?: Record<string, JsonObject> };
}

export interface OpenApiDocument {
  openapi: '3.1.0';
  jsonSchemaDialect: string;
  info: JsonObject;
  servers: JsonObject[];
  security: Array<Record<string, string[]>>;
  tags: JsonObject[];
  paths: Record<string, Partial<Record<HttpMethod, JsonObject>>>;
  components: {
    schemas: Record<string, JsonObject>;
    headers: Record<string, JsonObject>;
    responses: Record<string, JsonObject>;
    securitySchemes: Record<string, JsonObject>;
  };
}

export const COMPONENT_PREFIX = '#/components/schemas/';

/** The document of every description given, in their order. */
export function buildOpenApiDocument(info: JsonObject, descriptions: ApiDescription[]): OpenApiDocument {
  const names = new Map<z.ZodType, string>();
  for (const description of descriptions) {
    for (const [name, schema] of Object.entries(description.components ?? {})) {
      const taken = [...names.entries()].find(([, existing]) => existing === name);
      if (taken && taken[0] !== schema) throw new Error(`OpenAPI: two schemas are named ${name}`);
      const named = names.get(schema);
      if (named && named !== name) throw new Error(`OpenAPI: one schema is named both ${named} and ${name}`);
      names.set(schema, name);
    }
  }
  const convert = converter(names);

  const schemas: Record<string, JsonObject> = {};
  for (const [schema, name] of names) schemas[name] = convert(schema, 'output', name);

  const paths: OpenApiDocument['paths'] = {};
  const seen = new Set<string>();
  for (const operation of descriptions.flatMap((description) => description.operations ?? [])) {
    if (seen.has(operation.operationId)) throw new Error(`OpenAPI: the operationId ${operation.operationId} is used twice`);
    seen.add(operation.operationId);
    const item = (paths[operation.path] ??= {});
    if (item[operation.method]) throw new Error(`OpenAPI: ${operation.method.toUpperCase()} ${operation.path} is described twice`);
    item[operation.method] = operationObject(operation, convert);
  }

  const extra = (key: 'headers' | 'responses' | 'securitySchemes') =>
    Object.assign({}, ...descriptions.map((description) => description.extra?.[key] ?? {})) as Record<string, JsonObject>;
  return {
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    info,
    servers: [{ url: '/', description: 'This server.' }],
    security: credentials('read'),
    tags: descriptions.flatMap((description) => description.tags ?? []),
    paths,
    components: { schemas, headers: extra('headers'), responses: extra('responses'), securitySchemes: extra('securitySchemes') },
  };
}

/** The credentials accepted on a protected route, with the OAuth scope it needs. */
export function credentials(scope: 'read' | 'write'): Array<Record<string, string[]>> {
  return [{ apiKey: [] }, { apiKeyQuery: [] }, { bearer: [] }, { oauth2: [scope] }];
}

export const schemaRef = (name: string): JsonObject => ({ $ref: `${COMPONENT_PREFIX}${name}` });
export const shared = (name: string): SharedResponse => ({ shared: name });

type Convert = (schema: z.ZodType, io: 'input' | 'output', self?: string) => JsonObject;

/**
 * zod → JSON Schema, with every named schema but `self` turned into a `$ref` to its component.
 * zod puts named sub-schemas under `$defs`; they are components already, so the references are
 * pointed there and the local copies dropped.
 */
function converter(names: Map<z.ZodType, string>): Convert {
  return (schema, io, self) => {
    const name = names.get(schema);
    if (name && name !== self) return schemaRef(name);
    const metadata = {
      get(target: z.ZodType) {
        const meta = z.globalRegistry.get(target);
        const id = names.get(target);
        return id && id !== self ? { ...meta, id } : meta;
      },
    } as unknown as typeof z.globalRegistry;
    const json = z.toJSONSchema(schema, { metadata, io, target: 'draft-2020-12', unrepresentable: 'any' }) as JsonObject;
    delete json.$schema;
    delete json.$defs;
    return pointRefsAtComponents(json) as JsonObject;
  };
}

function pointRefsAtComponents(node: Json): Json {
  if (Array.isArray(node)) return node.map(pointRefsAtComponents);
  if (node === null || typeof node !== 'object') return node;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(node)) {
    out[key] =
      key === '$ref' && typeof value === 'string' && value.startsWith('#/$defs/')
        ? `${COMPONENT_PREFIX}${value.slice('#/$defs/'.length)}`
        : pointRefsAtComponents(value);
  }
  return out;
}

function operationObject(operation: Operation, convert: Convert): JsonObject {
  const parameters = [
    ...parametersOf(operation.params, 'path', operation, convert),
    ...parametersOf(operation.query, 'query', operation, convert),
  ];
  const out: JsonObject = {
    operationId: operation.operationId,
    summary: operation.summary,
    ...(operation.description ? { description: operation.description } : {}),
    tags: operation.tags,
    security: operation.security === 'open' ? [] : operation.security === 'session' ? [{ bearer: [] }] : credentials(operation.security),
  };
  if (parameters.length > 0) out.parameters = parameters;
  if (operation.body) {
    const content: JsonObject = {};
    if (operation.body.json) content['application/json'] = { schema: convert(operation.body.json, 'input') };
    for (const [type, schema] of Object.entries(operation.body.content ?? {})) content[type] = { schema: convert(schema, 'input') };
    out.requestBody = { required: operation.body.required, content };
  }
  out.responses = Object.fromEntries(Object.entries(operation.responses).map(([status, spec]) => [status, responseObject(spec, convert)]));
  return out;
}

function parametersOf(shape: z.ZodObject | undefined, location: 'path' | 'query', operation: Operation, convert: Convert): JsonObject[] {
  if (!shape) return [];
  return Object.entries(shape.shape).map(([name, field]) => {
    const schema = field as z.ZodType;
    const json = convert(schema, 'input');
    const description = operation.parameterDescriptions?.[name] ?? (typeof json.description === 'string' ? json.description : undefined);
    delete json.description;
    const required = location === 'path' || !schema.safeParse(undefined).success;
    const style = operation.parameterStyles?.[name];
    return {
      name,
      in: location,
      ...(required ? { required: true } : {}),
      ...(description ? { description } : {}),
      ...(style ? { style: style.style, ...(style.explode === undefined ? {} : { explode: style.explode }) } : {}),
      schema: json,
    };
  });
}

function responseObject(spec: ResponseSpec | SharedResponse, convert: Convert): JsonObject {
  if ('shared' in spec) return { $ref: `#/components/responses/${spec.shared}` };
  const content: JsonObject = {};
  if (spec.json) content['application/json'] = { schema: convert(spec.json, 'output') };
  for (const [type, body] of Object.entries(spec.content ?? {})) {
    content[type] = { schema: 'text' in body ? { type: 'string', description: body.text } : convert(body, 'output') };
  }
  return {
    description: spec.description,
    ...(spec.headers ? { headers: spec.headers } : {}),
    ...(Object.keys(content).length > 0 ? { content } : {}),
  };
}
