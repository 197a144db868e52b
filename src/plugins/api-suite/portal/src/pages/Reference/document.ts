/**
 * Reading the served OpenAPI 3.1 document for the Reference page: its operations by tag, the
 * schemas behind `$ref`s, schemas written as short type text, example values built from a schema,
 * and the curl and JavaScript calls of an operation. Only what the page shows is typed; the rest
 * of the document is read as JSON.
 */

export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
const METHODS: Method[] = ['get', 'post', 'put', 'patch', 'delete'];

export interface OpenApiDocument {
  openapi: string;
  info: JsonObject;
  tags?: Array<{ name: string; description?: string }>;
  paths: Record<string, Partial<Record<Method, JsonObject>>>;
  components?: { schemas?: Record<string, JsonObject>; responses?: Record<string, JsonObject>; headers?: Record<string, JsonObject> };
}

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required: boolean;
  description?: string;
  schema: JsonObject;
}

export interface ResponseInfo {
  status: string;
  description: string;
  /** Media type → schema (JSON Schema, or none for a body described in words). */
  content: Array<{ type: string; schema?: JsonObject }>;
  headers: string[];
}

export interface OperationInfo {
  id: string;
  method: Method;
  path: string;
  summary: string;
  description?: string;
  tags: string[];
  /** No credential needed (`security: []`). */
  open: boolean;
  parameters: Parameter[];
  body?: { required: boolean; type: string; schema?: JsonObject };
  responses: ResponseInfo[];
}

export interface TagGroup {
  name: string;
  description?: string;
  operations: OperationInfo[];
}

const isObject = (value: unknown): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: Json | undefined): string | undefined => (typeof value === 'string' ? value : undefined);

/** The component a local `$ref` points at (`#/components/<kind>/<name>`), or undefined. */
export function resolveRef(document: OpenApiDocument, ref: string): JsonObject | undefined {
  const match = /^#\/components\/(schemas|responses|headers)\/(.+)$/.exec(ref);
  if (!match) return undefined;
  const kind = match[1] as 'schemas' | 'responses' | 'headers';
  return document.components?.[kind]?.[decodeURIComponent(match[2])];
}

/** The name of a schema `$ref`. */
export function refName(ref: string): string {
  return decodeURIComponent(ref.slice(ref.lastIndexOf('/') + 1));
}

function follow(document: OpenApiDocument, node: Json | undefined): JsonObject | undefined {
  if (!isObject(node)) return undefined;
  const ref = text(node.$ref);
  return ref ? resolveRef(document, ref) : node;
}

/** Every operation, grouped by its first tag, in the document's tag order (untagged ones last). */
export function groupByTag(document: OpenApiDocument): TagGroup[] {
  const groups = new Map<string, TagGroup>();
  for (const tag of document.tags ?? []) groups.set(tag.name, { name: tag.name, description: tag.description, operations: [] });
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of METHODS) {
      const raw = item[method];
      if (!raw) continue;
      const operation = readOperation(document, method, path, raw);
      const tag = operation.tags[0] ?? 'Other';
      if (!groups.has(tag)) groups.set(tag, { name: tag, operations: [] });
      groups.get(tag)?.operations.push(operation);
    }
  }
  return [...groups.values()].filter((group) => group.operations.length > 0);
}

function readOperation(document: OpenApiDocument, method: Method, path: string, raw: JsonObject): OperationInfo {
  const parameters = (Array.isArray(raw.parameters) ? raw.parameters : [])
    .map((entry) => follow(document, entry))
    .filter(isObject)
    .map((entry): Parameter => ({
      name: text(entry.name) ?? '',
      in: (text(entry.in) ?? 'query') as Parameter['in'],
      required: entry.required === true,
      description: text(entry.description),
      schema: isObject(entry.schema) ? entry.schema : {},
    }));
  const requestBody = follow(document, raw.requestBody);
  const bodyContent = isObject(requestBody?.content) ? Object.entries(requestBody.content) : [];
  const firstBody = bodyContent.find(([type]) => type === 'application/json') ?? bodyContent[0];
  const responses = Object.entries(isObject(raw.responses) ? raw.responses : {}).map(([status, value]): ResponseInfo => {
    const response = follow(document, value) ?? {};
    return {
      status,
      description: text(response.description) ?? '',
      content: Object.entries(isObject(response.content) ? response.content : {}).map(([type, media]) => ({
        type,
        schema: isObject(media) && isObject(media.schema) ? media.schema : undefined,
      })),
      headers: Object.keys(isObject(response.headers) ? response.headers : {}),
    };
  });
  return {
    id: text(raw.operationId) ?? `${method}-${path}`,
    method,
    path,
    summary: text(raw.summary) ?? '',
    description: text(raw.description),
    tags: Array.isArray(raw.tags) ? raw.tags.filter((tag): tag is string => typeof tag === 'string') : [],
    open: Array.isArray(raw.security) && raw.security.length === 0,
    parameters,
    body: firstBody
      ? {
          required: requestBody?.required === true,
          type: firstBody[0],
          schema: isObject(firstBody[1]) && isObject(firstBody[1].schema) ? firstBody[1].schema : undefined,
        }
      : undefined,
    responses,
  };
}

/**
 * A schema as short type text, TypeScript-like (`{ id: integer; title?: string }`), with the
 * descriptions as comments; named schemas stay names, and each one used is written out once below
 * (`type Article = { … }`), so a cycle cannot recurse and a long schema is read once.
 */
export function schemaText(document: OpenApiDocument, schema: JsonObject): string {
  const named: string[] = [];
  const written = new Set<string>();
  const top = typeText(document, schema, '', named);
  const blocks = [top];
  for (let index = 0; index < named.length; index++) {
    const name = named[index];
    if (written.has(name)) continue;
    written.add(name);
    const component = document.components?.schemas?.[name];
    if (component) blocks.push(`type ${name} = ${typeText(document, component, '', named)}`);
  }
  return blocks.join('\n\n');
}

function typeText(document: OpenApiDocument, schema: Json | undefined, indent: string, named: string[]): string {
  if (schema === true || schema === undefined) return 'any';
  if (schema === false) return 'never';
  if (!isObject(schema)) return 'any';
  const ref = text(schema.$ref);
  if (ref) {
    const name = refName(ref);
    named.push(name);
    return name;
  }
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (Array.isArray(schema.enum)) return schema.enum.map((value) => JSON.stringify(value)).join(' | ');
  for (const [key, joiner] of [
    ['anyOf', ' | '],
    ['oneOf', ' | '],
    ['allOf', ' & '],
  ] as const) {
    const parts = schema[key];
    // Variants that read the same (two string patterns) are said once.
    if (Array.isArray(parts)) return [...new Set(parts.map((part) => typeText(document, part, indent, named)))].join(joiner);
  }
  const types = Array.isArray(schema.type) ? schema.type.filter((type): type is string => typeof type === 'string') : [text(schema.type)];
  const rendered = types.map((type) => {
    if (type === 'object' || (type === undefined && isObject(schema.properties))) return objectText(document, schema, indent, named);
    if (type === 'array') return `${wrap(typeText(document, schema.items, indent, named))}[]`;
    if (type === 'string' && typeof schema.format === 'string') return `string (${schema.format})`;
    return type ?? 'any';
  });
  return [...new Set(rendered)].join(' | ');
}

const wrap = (type: string) => (/[|&]/.test(type) ? `(${type})` : type);

function objectText(document: OpenApiDocument, schema: JsonObject, indent: string, named: string[]): string {
  const properties = isObject(schema.properties) ? Object.entries(schema.properties) : [];
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  const inner = `${indent}  `;
  const lines: string[] = [];
  for (const [name, property] of properties) {
    const description = isObject(property) ? text(property.description) : undefined;
    if (description) lines.push(`${inner}// ${description.replace(/\s*\n\s*/g, ' ')}`);
    const key = /^[A-Za-z_$][\w$]*$/.test(name) ? name : JSON.stringify(name);
    lines.push(`${inner}${key}${required.has(name) ? '' : '?'}: ${typeText(document, property, inner, named)};`);
  }
  if (isObject(schema.additionalProperties))
    lines.push(`${inner}[key: string]: ${typeText(document, schema.additionalProperties, inner, named)};`);
  if (lines.length === 0) return schema.additionalProperties === false ? '{}' : 'object';
  return `{\n${lines.join('\n')}\n${indent}}`;
}

/** An example value of a schema: its own example or default where it has one, else one made from its type. */
export function exampleOf(document: OpenApiDocument, schema: Json | undefined, depth = 0): Json {
  if (!isObject(schema) || depth > 6) return null;
  const ref = text(schema.$ref);
  if (ref) return exampleOf(document, resolveRef(document, ref), depth + 1);
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if (schema.example !== undefined) return schema.example;
  if (schema.default !== undefined) return schema.default;
  if (schema.const !== undefined) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  for (const key of ['anyOf', 'oneOf'] as const) {
    const parts = schema[key];
    if (Array.isArray(parts)) {
      const part = parts.find((candidate) => !(isObject(candidate) && candidate.type === 'null')) ?? parts[0];
      return exampleOf(document, part, depth + 1);
    }
  }
  if (Array.isArray(schema.allOf)) {
    return Object.assign({}, ...schema.allOf.map((part) => exampleOf(document, part, depth + 1)).filter(isObject)) as JsonObject;
  }
  const type = Array.isArray(schema.type) ? schema.type.find((candidate) => candidate !== 'null') : schema.type;
  switch (type) {
    case 'object': {
      const properties = isObject(schema.properties) ? Object.entries(schema.properties) : [];
      const required = new Set(Array.isArray(schema.required) ? schema.required : []);
      // The required fields; when none is, the first few, so that the example shows the shape.
      const chosen = required.size > 0 ? properties.filter(([name]) => required.has(name)) : properties.slice(0, 3);
      return Object.fromEntries(chosen.map(([name, property]) => [name, exampleOf(document, property, depth + 1)]));
    }
    case 'array':
      return [exampleOf(document, schema.items, depth + 1)];
    case 'integer':
    case 'number':
      return typeof schema.minimum === 'number' ? schema.minimum : 1;
    case 'boolean':
      return true;
    case 'string':
      return stringExample(schema);
    default:
      return null;
  }
}

function stringExample(schema: JsonObject): string {
  switch (schema.format) {
    case 'date-time':
      return '2026-01-01T00:00:00.000Z';
    case 'date':
      return '2026-01-01';
    case 'email':
      return 'someone@example.com';
    case 'uri':
    case 'url':
      return 'https://example.com/';
    case 'uuid':
      return '00000000-0000-4000-8000-000000000000';
    default:
      return 'string';
  }
}

/** The path with its parameters filled in (each encoded), and the query string of the values given. */
export function concretePath(operation: OperationInfo, values: Record<string, string>): string {
  const path = operation.path.replace(/\{([^}]+)\}/g, (whole, name: string) =>
    values[`path:${name}`] ? encodeURIComponent(values[`path:${name}`]) : whole
  );
  const query = new URLSearchParams();
  for (const parameter of operation.parameters) {
    const value = values[`query:${parameter.name}`];
    if (parameter.in === 'query' && value !== undefined && value !== '') query.set(parameter.name, value);
  }
  const search = query.toString();
  return search ? `${path}?${search}` : path;
}

/** `curl` for the call, with the key as `$API_KEY` from the shell's environment. */
export function curlExample(origin: string, operation: OperationInfo, path: string, body: string | undefined): string {
  const lines = [`curl -X ${operation.method.toUpperCase()} '${origin}${path}'`];
  if (!operation.open) lines.push(`  -H "X-API-Key: $API_KEY"`);
  if (body !== undefined) {
    lines.push(`  -H 'Content-Type: ${operation.body?.type ?? 'application/json'}'`);
    lines.push(`  --data '${body.replace(/'/g, `'\\''`)}'`);
  }
  return lines.join(' \\\n');
}

/** The same call with `fetch`, the key read from `process.env.API_KEY`. */
export function fetchExample(origin: string, operation: OperationInfo, path: string, body: string | undefined): string {
  const headers: string[] = [];
  if (!operation.open) headers.push(`'X-API-Key': process.env.API_KEY`);
  if (body !== undefined) headers.push(`'Content-Type': '${operation.body?.type ?? 'application/json'}'`);
  const options = [`  method: '${operation.method.toUpperCase()}',`];
  if (headers.length > 0) options.push(`  headers: { ${headers.join(', ')} },`);
  if (body !== undefined) options.push(`  body: JSON.stringify(${indentJson(body)}),`);
  const reads = operation.responses.some((response) => response.content.some((media) => media.type === 'application/json'));
  return [
    `const response = await fetch('${origin}${path}', {`,
    ...options,
    `});`,
    reads ? `const body = await response.json();` : `const body = await response.text();`,
    `console.log(response.status, response.headers.get('X-RateLimit-Remaining'), body);`,
  ].join('\n');
}

function indentJson(body: string): string {
  try {
    return JSON.stringify(JSON.parse(body) as Json, null, 2).replace(/\n/g, '\n  ');
  } catch {
    return JSON.stringify(body);
  }
}
