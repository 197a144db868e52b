import type { Core } from '@strapi/strapi';
import { z } from 'zod';
import { commonDescription, ok, rateLimitHeaders } from '../../contract/common';
import {
  schemaRef,
  shared,
  type ApiDescription,
  type JsonObject,
  type Operation,
  type ResponseSpec,
  type SharedResponse,
} from '../../contract/openapi';
import { FIELD_OPERATOR_NAMES } from '../../../../shared/filters';
import { answerSchema, inputSchema, sourceOf, type SchemaSource } from './schema';
import { contentRoutes, routesOf, type ContentRoute } from './routes';
import { watchedTypes, type WatchedType } from './watched';

/**
 * The site's own content API (Strapi's REST routes of every watched content type) in the OpenAPI
 * document: `GET /api/recipes`, `GET /api/recipes/{id}`, … with the answers and inputs the
 * content schema mapping reads from the type's Strapi schema (`answerSchema`, `inputSchema`).
 *
 * Only routes Strapi serves are described: they are read from the type's API routers (core
 * routers with `only`/`except`, a custom prefix, or `auth: false` included). A route is
 * recognised as one of Strapi's core actions (find, findOne, create, update, delete) by its
 * handler, method and path shape; every other route of the API (the host's `/api/v1/articles`,
 * a custom `GET /recipes/:id/similar`) is left out: its controller answers whatever it is written
 * to, and there is no schema of that to describe it with.
 */

/** Strapi's error body on its own routes (ApplicationError and its kin). */
const strapiErrorBody = z
  .object({
    data: z.null(),
    error: z.object({
      status: z.int().min(400).max(599),
      name: z.string().meta({ examples: ['ValidationError', 'UnauthorizedError', 'ForbiddenError', 'NotFoundError'] }),
      message: z.string(),
      details: z
        .unknown()
        .optional()
        .meta({ description: 'More about the error; for a `ValidationError`, `errors` lists the bad fields.' }),
    }),
  })
  .meta({ description: "Strapi's own error body on its content API: `{ data: null, error: { status, name, message, details } }`." });

const contentPagination = z
  .object({ page: z.int().min(1), pageSize: z.int().min(0), pageCount: z.int().min(0), total: z.int().min(0) })
  .meta({ description: 'Where the page is: its number and size, how many pages and documents there are.' });

/** Names this description gives itself, whatever the site's content types are called. */
const ERROR = 'ContentApiError';
const PAGINATION = 'ContentApiPagination';
const RESPONSES = {
  badRequest: 'ContentApiBadRequest',
  unauthorized: 'ContentApiUnauthorized',
  forbidden: 'ContentApiForbidden',
  notFound: 'ContentApiNotFound',
} as const;

/**
 * Component names other descriptions use that a type's `<Name>Document` or `<Name>Input` could
 * spell (a type `open-api` would be `OpenApiDocument`, the document's own schema): a type whose
 * names are taken gets a numbered name instead. Two types never share a name either.
 */
const RESERVED_NAMES = new Set([...Object.keys(commonDescription.components ?? {}), 'OpenApiDocument', ERROR, PAGINATION]);

/**
 * The content API's description. The openapi service calls what it is given at once (in the
 * plugin's `register`), but another plugin's `register` may still add attributes then, and
 * Strapi instantiates the routers at bootstrap: so everything is read on first use, when the
 * document is built (on its first request, after every feature and the host have registered).
 */
export function contentApiDescription(strapi: Core.Strapi): ApiDescription {
  let described: ApiDescription | undefined;
  const read = (): ApiDescription => (described ??= describeContentApi(strapi));
  return {
    get tags() {
      return read().tags;
    },
    get components() {
      return read().components;
    },
    get operations() {
      return read().operations;
    },
    get extra() {
      return read().extra;
    },
  };
}

function describeContentApi(strapi: Core.Strapi): ApiDescription {
  const source = sourceOf(strapi);
  const routes = contentRoutes(strapi);
  const rest = {
    defaultLimit: Number(strapi.config.get('api.rest.defaultLimit', 25)),
    maxLimit: Number(strapi.config.get('api.rest.maxLimit', 100)),
  };

  const taken = new Set(RESERVED_NAMES);
  const tagNames = new Set<string>();
  const tags: NonNullable<ApiDescription['tags']> = [];
  const components: Record<string, z.ZodType> = {};
  const operations: Operation[] = [];

  for (const type of watchedTypes(strapi)) {
    const served = routesOf(type, routes.get(type.uid) ?? []);
    if (served.length === 0) continue;
    const base = baseName(type, taken);
    const tag = uniqueTag(`Content: ${type.displayName}`, type, tagNames);
    tags.push({ name: tag, description: tagDescription(type, tags[0]?.name) });
    const described = describeType(type, served, { source, base, tag, rest });
    Object.assign(components, described.components);
    operations.push(...described.operations);
  }
  if (operations.length === 0) return {};

  return {
    tags,
    components: { [ERROR]: strapiErrorBody, [PAGINATION]: contentPagination, ...components },
    operations,
    extra: { responses: sharedResponses() },
  };
}

// ---------------------------------------------------------------------------------------------
// Routes

/** PascalCase of the singular name (`recipe-step` → `RecipeStep`), numbered when taken. */
function baseName(type: WatchedType, taken: Set<string>): string {
  const pascal =
    type.singularName
      .split(/[^A-Za-z0-9]+/)
      .filter(Boolean)
      .map((part) => part[0].toUpperCase() + part.slice(1))
      .join('') || 'Content';
  let base = pascal;
  for (let n = 2; taken.has(`${base}Document`) || taken.has(`${base}Input`); n++) base = `${pascal}_${n}`;
  taken.add(`${base}Document`);
  taken.add(`${base}Input`);
  return base;
}

function uniqueTag(name: string, type: WatchedType, names: Set<string>): string {
  const tag = names.has(name) ? `${name} (${type.uid})` : name;
  names.add(tag);
  return tag;
}

// ---------------------------------------------------------------------------------------------
// Operations

const ACCESS =
  "Strapi's own REST API, not `/api/v1`. What the Public role may call (Settings → Users & Permissions plugin → Roles → Public) answers anyone without credentials, uncounted; a key sent along changes nothing there. " +
  "Anything else needs a consumer's API key or OAuth token (within its owner's users-permissions role and its scope, held to its plan's endpoints, which the `@content` group grants, and counted), a users-permissions JWT, or one of Strapi's own API tokens. " +
  "Errors are Strapi's `{ data: null, error: { status, name, message, details } }`, except the key refusals (`invalid_api_key`, `invalid_token`, `key_expired`, `key_revoked`, `endpoint_not_in_plan`, `insufficient_scope`, and 429) and `drafts_not_allowed`, which are in the `/api/v1` shape.";

/**
 * A type's section: what it is, then how callers are admitted and errors answered, said in full
 * under the first content type only (`first`: that one's tag) and pointed to from the others, so a
 * reader of the reference does not meet the same paragraph under every type.
 */
function tagDescription(type: WatchedType, first: string | undefined): string {
  return (
    `The site's own content type ${type.displayName} (\`${type.uid}\`, a ${type.kind === 'singleType' ? 'single type' : 'collection'}), served by Strapi's REST API at \`${type.basePath}\`. ` +
    'Sold through plans with the `@content` endpoint group; routes the Public role may call answer without credentials.' +
    (type.draftAndPublish ? " Draft and publish: `status` chooses the version; drafts are for the site's staff only." : '') +
    (type.localized ? ' Localized: `locale` chooses the locale version.' : '') +
    (first === undefined ? `\n\n${ACCESS}` : ` Credentials and errors as for every content type (see "${first}").`)
  );
}

interface TypeContext {
  source: SchemaSource;
  base: string;
  tag: string;
  rest: { defaultLimit: number; maxLimit: number };
}

function describeType(
  type: WatchedType,
  routes: ContentRoute[],
  { source, base, tag, rest }: TypeContext
): { components: Record<string, z.ZodType>; operations: Operation[] } {
  const components: Record<string, z.ZodType> = {};
  const reads = routes.some((route) => route.action !== 'delete');
  const writes = routes.some((route) => route.action === 'create' || route.action === 'update');
  const document = answerSchema(source, type.uid).meta({
    description: `A document of ${type.displayName} as the content API answers it: \`fields\` and \`populate\` choose what is there.`,
  });
  const input = inputSchema(source, type.uid).meta({
    description: `The \`data\` of a create or update of ${type.displayName}: the attributes to write (an update names only those that change).`,
  });
  if (reads) components[`${base}Document`] = document;
  if (writes) components[`${base}Input`] = input;

  const one = z.object({ data: document, meta: z.looseObject({}) });
  const list = z.object({ data: z.array(document), meta: z.looseObject({ pagination: contentPagination }) });
  const body = { required: true, json: z.object({ data: input }) };
  const query = queryOf(type, rest);
  const answer = (description: string, json: z.ZodType): ResponseSpec => ok(description, json);
  const errors = (...statuses: Array<'400' | '401' | '403' | '404'>): Record<string, SharedResponse> => ({
    ...Object.fromEntries(statuses.map((status) => [status, shared(STATUS_RESPONSES[status])])),
    '429': shared('TooManyRequests'),
  });
  const single = type.kind === 'singleType';
  const name = type.displayName;

  const describe = (route: ContentRoute): Operation => {
    const common = {
      method: route.method,
      path: route.path,
      tags: [tag],
      security: route.open ? ('open' as const) : route.method === 'get' ? ('read' as const) : ('write' as const),
      ...(route.param === undefined
        ? {}
        : {
            params: z.object({ [route.param]: z.string().min(1) }),
            parameterDescriptions: { [route.param]: "The document's `documentId`." },
          }),
    };
    const describedQuery = (...names: QueryName[]) => {
      const shape = pick(query.schema, names);
      return Object.keys(shape).length === 0
        ? {}
        : {
            query: z.object(shape),
            parameterDescriptions: { ...common.parameterDescriptions, ...pick(query.descriptions, names) },
            ...(names.includes('filters') ? { parameterStyles: { filters: { style: 'deepObject' as const, explode: true } } } : {}),
          };
    };
    const access = route.open
      ? ' This route asks for no credentials (`auth: false`).'
      : ` ${route.method === 'get' ? 'Reading' : 'Writing'} needs no credentials where the Public role may call it; otherwise see the tag for who may.`;
    switch (route.action) {
      case 'find':
        if (single)
          return {
            ...common,
            ...describedQuery('fields', 'populate', 'status', 'locale'),
            operationId: `get${base}Document`,
            summary: `Get the ${name}`,
            description: `Strapi's \`find\` of the single type; 404 until it has been written.${access}`,
            responses: { '200': answer(`The ${name}.`, one), ...errors('400', '401', '403', '404') },
          };
        return {
          ...common,
          ...describedQuery('filters', 'sort', 'pagination[page]', 'pagination[pageSize]', 'fields', 'populate', 'status', 'locale'),
          operationId: `list${base}Documents`,
          summary: `List ${name} documents`,
          description: `Strapi's \`find\`: a page of documents, filtered, sorted and paged with Strapi's query parameters.${access}`,
          responses: { '200': answer(`A page of ${name} documents.`, list), ...errors('400', '401', '403') },
        };
      case 'findOne':
        return {
          ...common,
          ...describedQuery('fields', 'populate', 'status', 'locale'),
          operationId: `get${base}Document`,
          summary: `Get one ${name} document`,
          description: `Strapi's \`findOne\`, by \`documentId\`.${access}`,
          responses: { '200': answer(`The ${name} document.`, one), ...errors('400', '401', '403', '404') },
        };
      case 'create':
        return {
          ...common,
          ...describedQuery('fields', 'populate', 'status', 'locale'),
          operationId: `create${base}Document`,
          summary: `Create one ${name} document`,
          description: `Strapi's \`create\`: the body is \`{ "data": { … } }\`.${type.draftAndPublish ? ' Published at once unless `status=draft` is given (staff only).' : ''}${access}`,
          body,
          responses: { '201': answer(`The ${name} document created.`, one), ...errors('400', '401', '403') },
        };
      case 'update':
        return {
          ...common,
          ...describedQuery('fields', 'populate', 'status', 'locale'),
          operationId: `update${base}Document`,
          summary: single ? `Write the ${name}` : `Update one ${name} document`,
          description: `Strapi's \`update\`: the body is \`{ "data": { … } }\` with the attributes that change.${single ? ' Creates the single type if it does not exist yet.' : ''}${access}`,
          body,
          responses: {
            '200': answer(`The ${name} document as it now is.`, one),
            ...errors(...(single ? (['400', '401', '403'] as const) : (['400', '401', '403', '404'] as const))),
          },
        };
      case 'delete':
        return {
          ...common,
          ...describedQuery('locale'),
          operationId: `delete${base}Document`,
          summary: single ? `Delete the ${name}` : `Delete one ${name} document`,
          description: `Strapi's \`delete\`${type.localized ? ' (of one locale version with `locale`, else of the default locale)' : ''}; it answers 204 whether or not there was a document to delete.${access}`,
          responses: { '204': shared('NoContent'), ...errors('400', '401', '403') },
        };
    }
  };

  return { components, operations: routes.map(describe) };
}

const STATUS_RESPONSES = {
  '400': RESPONSES.badRequest,
  '401': RESPONSES.unauthorized,
  '403': RESPONSES.forbidden,
  '404': RESPONSES.notFound,
} as const;

type QueryName = 'filters' | 'sort' | 'pagination[page]' | 'pagination[pageSize]' | 'fields' | 'populate' | 'status' | 'locale';

/** Strapi's query parameters, those of the type's options only (`status` with draft and publish, `locale` with i18n). */
function queryOf(
  type: WatchedType,
  rest: { defaultLimit: number; maxLimit: number }
): { schema: Partial<Record<QueryName, z.ZodType>>; descriptions: Partial<Record<QueryName, string>> } {
  const schema: Partial<Record<QueryName, z.ZodType>> = {
    filters: z.record(z.string(), z.unknown()).optional(),
    sort: z.string().optional(),
    'pagination[page]': z.int().min(1).optional(),
    'pagination[pageSize]': z.int().min(1).optional(),
    fields: z.string().optional(),
    populate: z.string().optional(),
    ...(type.draftAndPublish ? { status: z.enum(['draft', 'published']).optional() } : {}),
    ...(type.localized ? { locale: z.string().optional() } : {}),
  };
  const descriptions: Partial<Record<QueryName, string>> = {
    filters: `Strapi's filter syntax, as a deep object: \`filters[field][$eq]=value\`, with ${FIELD_OPERATOR_NAMES.map((name) => `\`${name}\``).join(', ')}; \`$and\`, \`$or\` and \`$not\` combine them (\`filters[$or][0][title][$eq]=…\`), and a relation's fields are reached through it (\`filters[author][name][$eq]=…\`). Webhook subscriptions' payload filters take the same syntax.`,
    sort: 'A field, or `field:asc` / `field:desc`; several comma-separated (`title:asc,createdAt:desc`) or as `sort[0]=…`.',
    'pagination[page]': 'Page number, from 1.',
    'pagination[pageSize]': `Documents a page (default ${rest.defaultLimit}, at most ${rest.maxLimit}).`,
    fields: 'Only these attributes, comma-separated (`title,slug`) or as `fields[0]=…`; `id` and `documentId` are always there.',
    populate:
      'Relations, media, components and dynamic zones to fill in, which are left out without it: `*` for every one a level deep, names comma-separated, or deeper as `populate[author][fields][0]=name`.',
    status:
      "Which version: `published` (the default) or `draft`. Drafts are for the site's staff (Strapi's API tokens, the API's administrators, the roles the site names in `content.draftReaders`): anyone else asking for a status other than `published` gets 403 `drafts_not_allowed`.",
    locale: 'The locale version (such as `en` or `fr`); the default locale when omitted.',
  };
  return { schema, descriptions };
}

function pick<T>(record: Partial<Record<QueryName, T>>, names: QueryName[]): Record<string, T> {
  return Object.fromEntries(names.flatMap((name) => (record[name] === undefined ? [] : [[name, record[name]]])));
}

// ---------------------------------------------------------------------------------------------
// Shared responses

const json = (schema: JsonObject) => ({ 'application/json': { schema } });
// `Error` is the common description's `/api/v1` error body (contract/common.ts), always in the document.
const eitherError = { anyOf: [schemaRef(ERROR), schemaRef('Error')] };

function sharedResponses(): Record<string, JsonObject> {
  return {
    [RESPONSES.badRequest]: {
      description: "Strapi's `ValidationError`: an invalid query parameter or body (`details.errors` names what is wrong).",
      content: json(schemaRef(ERROR)),
    },
    [RESPONSES.unauthorized]: {
      description:
        "Strapi's `UnauthorizedError` (a JWT or API token it does not accept), or, in the `/api/v1` shape, `invalid_api_key` (an unknown or malformed API key) or `invalid_token` on a route the Public role may not call.",
      content: json(eitherError),
    },
    [RESPONSES.forbidden]: {
      description:
        "Strapi's `ForbiddenError` (the caller's role may not do this; without credentials, the Public role may not), or in the `/api/v1` shape a key refusal (`key_expired`, `key_revoked`, `endpoint_not_in_plan`, `insufficient_scope`) or `drafts_not_allowed` (a status other than `published` asked for by a caller who is not staff). The key refusals carry the rate-limit headers as they stand.",
      headers: rateLimitHeaders,
      content: json(eitherError),
    },
    [RESPONSES.notFound]: {
      description: "Strapi's `NotFoundError`: no such document (or none visible to the caller).",
      content: json(schemaRef(ERROR)),
    },
  };
}
