/**
 * The OpenAPI 3.1 description of the `/api/v1` API (contract sections 1, 2, 5 and 6, with the
 * decisions recorded in the README's API section). Served at `GET /api/v1/openapi.json`.
 *
 * Schemas are JSON Schema 2020-12. Response objects carry `additionalProperties: false` where the
 * shape is exact, so the tests that check real answers against this document catch any drift.
 * Scrapers (section 4) and the run-event webhook route are described with the same care.
 */

export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

export type HttpMethod = 'get' | 'put' | 'post' | 'delete' | 'options' | 'head' | 'patch' | 'trace';

export interface OperationObject {
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  security?: Array<Record<string, string[]>>;
  parameters?: JsonObject[];
  requestBody?: JsonObject;
  responses: Record<string, JsonObject>;
}

export type PathItemObject = Partial<Record<HttpMethod, OperationObject>>;

export interface OpenApiDocument {
  openapi: '3.1.0';
  jsonSchemaDialect: string;
  info: JsonObject;
  servers: JsonObject[];
  security: Array<Record<string, string[]>>;
  tags: JsonObject[];
  paths: Record<string, PathItemObject>;
  components: {
    schemas: Record<string, JsonObject>;
    parameters: Record<string, JsonObject>;
    headers: Record<string, JsonObject>;
    responses: Record<string, JsonObject>;
    securitySchemes: Record<string, JsonObject>;
  };
}

const ref = (kind: 'schemas' | 'parameters' | 'headers' | 'responses', name: string): JsonObject => ({ $ref: `#/components/${kind}/${name}` });
const schema = (name: string) => ref('schemas', name);
const param = (name: string) => ref('parameters', name);
const response = (name: string) => ref('responses', name);
const json = (body: JsonObject): JsonObject => ({ 'application/json': { schema: body } });

/** The credentials accepted on a protected route, with the OAuth scope it needs. */
const credentials = (scope: 'read' | 'write'): Array<Record<string, string[]>> => [
  { apiKey: [] },
  { apiKeyQuery: [] },
  { bearer: [] },
  { oauth2: [scope] },
];
const open: Array<Record<string, string[]>> = [];

const RATE_LIMIT_HEADERS = [
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'X-RateLimit-Monthly-Limit',
  'X-RateLimit-Monthly-Remaining',
  'RateLimit-Policy',
  'RateLimit',
] as const;
const headerComponent = (name: string) => name.replace(/-/g, '');

/** The quota headers a key-authenticated answer carries (absent for user JWTs and the shared key). */
const rateLimitHeaders: JsonObject = Object.fromEntries(RATE_LIMIT_HEADERS.map((name) => [name, ref('headers', headerComponent(name))]));

/** A 429 always carries them, and Retry-After. */
const requiredRateLimitHeaders: JsonObject = {
  ...Object.fromEntries(
    RATE_LIMIT_HEADERS.map((name) => [name, { description: `As on every key-authenticated answer; see ${name} in components/headers.`, required: true, schema: schema(`Header${headerComponent(name)}`) }])
  ),
  'Retry-After': { description: 'Seconds until the refusing window (the minute, or the month) starts again; at least 1.', required: true, schema: { type: 'integer', minimum: 1 } },
};

const ok = (description: string, body: JsonObject): JsonObject => ({ description, headers: rateLimitHeaders, content: json(body) });

const uuid: JsonObject = { type: 'string', format: 'uuid' };
const dateTime: JsonObject = { type: 'string', format: 'date-time' };
const nullable = (type: string, extra: JsonObject = {}): JsonObject => ({ type: [type, 'null'], ...extra });
const integer = (extra: JsonObject = {}): JsonObject => ({ type: 'integer', ...extra });

const articleId: JsonObject = {
  description: "The article's UUID, or its numeric id.",
  anyOf: [uuid, { type: 'string', pattern: '^[0-9]{1,15}$' }],
};

const articleFields = {
  title: { type: 'string', minLength: 1, maxLength: 200, description: 'Trimmed; at most 200 characters.' },
  slug: {
    type: 'string',
    minLength: 1,
    maxLength: 200,
    pattern: '^[A-Za-z0-9._~-]+$',
    description: 'Unique. Letters, digits and `-_.~`. Made from the title when absent on create (with `-2`, `-3`… to keep it unique).',
  },
  status: schema('ArticleStatus'),
  excerpt: nullable('string', { maxLength: 10000 }),
  body: nullable('string', { maxLength: 1000000 }),
  author_id: nullable('integer', { minimum: 1, description: 'An existing author, or null for none (an unknown author is 422 `unknown_author`).' }),
} satisfies Record<string, JsonObject>;

const components: OpenApiDocument['components'] = {
  securitySchemes: {
    apiKey: {
      type: 'apiKey',
      in: 'header',
      name: 'X-API-Key',
      description: 'An API key (`sk_` + 48 characters of `[A-Za-z0-9]`), or the shared key configured with `API_SHARED_KEY`.',
    },
    apiKeyQuery: {
      type: 'apiKey',
      in: 'query',
      name: 'api_key',
      description: 'An API key in the query string (looked at only when neither `X-API-Key` nor `Authorization` is sent).',
    },
    bearer: {
      type: 'http',
      scheme: 'bearer',
      description: 'An `sk_` API key, a users-permissions JWT (`POST /api/auth/local`), or an OAuth access token from `POST /api/v1/oauth/token`.',
    },
    oauth2: {
      type: 'oauth2',
      description: 'OAuth 2.0 client credentials: the key\'s `client_id` and the full key as `client_secret` buy an HS256 access token valid 3600 s, sent as `Authorization: Bearer`.',
      flows: {
        clientCredentials: {
          tokenUrl: '/api/v1/oauth/token',
          scopes: { read: 'GET and HEAD requests', write: 'every other method' },
        },
      },
    },
  },

  schemas: {
    Error: {
      type: 'object',
      description: 'The `/api/v1` error body (contract section 2).',
      required: ['error'],
      additionalProperties: false,
      properties: {
        error: {
          type: 'object',
          required: ['code', 'message'],
          additionalProperties: false,
          properties: {
            code: { type: 'string', pattern: '^[a-z0-9]+(_[a-z0-9]+)*$', description: 'A snake_case code.', examples: ['api_key_required'] },
            message: { type: 'string' },
            details: { description: 'More about the error; for `validation_error`, one entry per bad field.' },
          },
        },
      },
    },
    FieldError: {
      type: 'object',
      required: ['field', 'message'],
      additionalProperties: false,
      properties: {
        field: { type: 'string', description: 'The field, query parameter or body path at fault; `(body)` for the body as a whole.' },
        message: { type: 'string' },
      },
    },
    ValidationError: {
      type: 'object',
      description: 'A 400: every bad field is named in `details` and in the message.',
      required: ['error'],
      additionalProperties: false,
      properties: {
        error: {
          type: 'object',
          required: ['code', 'message', 'details'],
          additionalProperties: false,
          properties: {
            code: { const: 'validation_error' },
            message: { type: 'string' },
            details: { type: 'array', minItems: 1, items: schema('FieldError') },
          },
        },
      },
    },
    OAuthError: {
      type: 'object',
      description: 'RFC 6749 section 5.2.',
      required: ['error', 'error_description'],
      additionalProperties: false,
      properties: {
        error: { type: 'string', enum: ['invalid_request', 'invalid_client', 'invalid_grant', 'unsupported_grant_type', 'invalid_scope'] },
        error_description: { type: 'string' },
      },
    },

    HeaderXRateLimitLimit: integer({ minimum: 0 }),
    HeaderXRateLimitRemaining: integer({ minimum: 0 }),
    HeaderXRateLimitReset: integer({ minimum: 0 }),
    HeaderXRateLimitMonthlyLimit: { anyOf: [integer({ minimum: 0 }), { const: 'unlimited' }] },
    HeaderXRateLimitMonthlyRemaining: { anyOf: [integer({ minimum: 0 }), { const: 'unlimited' }] },
    HeaderRateLimitPolicy: { type: 'string', pattern: '^"minute";q=\\d+;w=\\d+(, "month";q=\\d+;w=\\d+)?$' },
    HeaderRateLimit: { type: 'string', pattern: '^"(minute|month)";r=\\d+;t=\\d+$' },

    ScraperSelectors: {
      type: 'object',
      description: 'What to extract: with `item`, one result per element matching it, its fields relative to that element; without, one result per page. Each field is `"css"` (the text, trimmed) or `"css@attr"` (an attribute; `href` and `src` made absolute). Without any selectors each page yields `{ url, title }`.',
      required: ['fields'],
      additionalProperties: false,
      properties: {
        item: { type: 'string', minLength: 1 },
        fields: { type: 'object', minProperties: 1, maxProperties: 50, additionalProperties: { type: 'string', minLength: 1 } },
      },
    },
    Scraper: {
      type: 'object',
      required: ['id', 'name', 'url', 'schedule', 'proxy_pool', 'rate_limit', 'headers', 'max_pages', 'follow_links', 'selectors', 'respect_robots_txt', 'status', 'next_run_at', 'skipped_runs', 'last_skipped_at', 'created_at', 'updated_at'],
      additionalProperties: false,
      properties: {
        id: integer({ minimum: 1 }),
        name: { type: 'string', minLength: 1, maxLength: 200 },
        url: { type: 'string', format: 'uri' },
        schedule: nullable('string', { description: 'A cron expression: 5 fields (minute first) or 6 (second first).' }),
        proxy_pool: nullable('string', { description: 'A pool configured with `SCRAPER_PROXY_POOLS`.' }),
        rate_limit: integer({ minimum: 1, maximum: 100, description: 'Requests a second, at most.' }),
        headers: { type: 'object', additionalProperties: { type: 'string' } },
        max_pages: integer({ minimum: 1, maximum: 10000 }),
        follow_links: { type: 'boolean', description: 'Follow links to the start URL\'s host.' },
        selectors: { anyOf: [schema('ScraperSelectors'), { type: 'null' }] },
        respect_robots_txt: { type: 'boolean' },
        status: { type: 'string', enum: ['idle', 'running'], description: '`running` while a run is pending or running.' },
        next_run_at: nullable('string', { format: 'date-time', description: 'The next tick of `schedule`; null without one.' }),
        skipped_runs: integer({ minimum: 0, description: 'Scheduled ticks that found a run in progress and started nothing.' }),
        last_skipped_at: nullable('string', { format: 'date-time' }),
        created_at: dateTime,
        updated_at: dateTime,
      },
    },
    ScraperCreateRequest: {
      type: 'object',
      required: ['name', 'url'],
      additionalProperties: false,
      properties: {
        name: { type: 'string', minLength: 1, maxLength: 200 },
        url: { type: 'string', format: 'uri', maxLength: 2048, description: 'An absolute http(s) URL; an address `OUTBOUND_ALLOW_PRIVATE` forbids is 422 `endpoint_not_allowed`.' },
        schedule: nullable('string', { maxLength: 100 }),
        proxy_pool: nullable('string'),
        rate_limit: integer({ minimum: 1, maximum: 100, default: 5 }),
        headers: { type: 'object', maxProperties: 20, additionalProperties: { type: 'string', maxLength: 1000 } },
        max_pages: integer({ minimum: 1, maximum: 10000, default: 100 }),
        follow_links: { type: 'boolean', default: false },
        selectors: { anyOf: [schema('ScraperSelectors'), { type: 'null' }] },
        respect_robots_txt: { type: 'boolean', default: true },
      },
    },
    ScraperUpdateRequest: {
      type: 'object',
      description: 'Any fields of a scraper; at least one.',
      minProperties: 1,
      additionalProperties: false,
      properties: {
        name: { type: 'string', minLength: 1, maxLength: 200 },
        url: { type: 'string', format: 'uri', maxLength: 2048 },
        schedule: nullable('string', { maxLength: 100 }),
        proxy_pool: nullable('string'),
        rate_limit: integer({ minimum: 1, maximum: 100 }),
        headers: { type: 'object', maxProperties: 20, additionalProperties: { type: 'string', maxLength: 1000 } },
        max_pages: integer({ minimum: 1, maximum: 10000 }),
        follow_links: { type: 'boolean' },
        selectors: { anyOf: [schema('ScraperSelectors'), { type: 'null' }] },
        respect_robots_txt: { type: 'boolean' },
      },
    },
    ScraperList: {
      type: 'object',
      required: ['data', 'meta'],
      additionalProperties: false,
      properties: { data: { type: 'array', items: schema('Scraper') }, meta: schema('PageMeta') },
    },
    ScraperRun: {
      type: 'object',
      required: ['id', 'scraper_id', 'status', 'trigger', 'started_at', 'finished_at', 'items_collected', 'pages_fetched', 'pages_failed', 'error', 'created_at'],
      additionalProperties: false,
      properties: {
        id: integer({ minimum: 1 }),
        scraper_id: integer({ minimum: 1 }),
        status: { type: 'string', enum: ['pending', 'running', 'completed', 'failed', 'stopped'] },
        trigger: { type: 'string', enum: ['manual', 'schedule'] },
        started_at: nullable('string', { format: 'date-time' }),
        finished_at: nullable('string', { format: 'date-time' }),
        items_collected: integer({ minimum: 0 }),
        pages_fetched: integer({ minimum: 0, description: 'Pages that got an answer (robots.txt not counted).' }),
        pages_failed: integer({ minimum: 0, description: 'Pages after the start page that failed; they do not fail the run.' }),
        error: nullable('string', { description: 'Why a run failed: the start URL\'s answer or error, or `interrupted: …` when its process died.' }),
        created_at: dateTime,
      },
    },
    ScraperRunList: {
      type: 'object',
      required: ['data', 'meta'],
      additionalProperties: false,
      properties: { data: { type: 'array', items: schema('ScraperRun') }, meta: schema('PageMeta') },
    },
    ScraperStatus: {
      type: 'object',
      required: ['id', 'status', 'last_run', 'items_count'],
      additionalProperties: false,
      properties: {
        id: integer({ minimum: 1 }),
        status: { type: 'string', enum: ['idle', 'pending', 'running', 'completed', 'failed', 'stopped'], description: 'The latest run\'s status, or `idle` before the first run.' },
        last_run: nullable('string', { format: 'date-time', description: 'When the latest run started (when it was asked for, while it is pending); null before the first run.' }),
        items_count: integer({ minimum: 0, description: 'The latest run\'s `items_collected`.' }),
      },
    },
    ScraperResult: {
      type: 'object',
      required: ['id', 'run_id', 'url', 'data', 'created_at'],
      additionalProperties: false,
      properties: {
        id: integer({ minimum: 1 }),
        run_id: integer({ minimum: 1 }),
        url: { type: 'string', description: 'The page the result came from.' },
        data: { type: 'object', description: 'The selector fields (null when a field matched nothing), or `{ url, title }`.' },
        created_at: dateTime,
      },
    },
    ScraperResultList: {
      type: 'object',
      required: ['data', 'meta'],
      additionalProperties: false,
      properties: { data: { type: 'array', items: schema('ScraperResult') }, meta: schema('PageMeta') },
    },
    RunStarted: {
      type: 'object',
      required: ['run_id', 'status'],
      additionalProperties: false,
      properties: { run_id: integer({ minimum: 1 }), status: { const: 'started' } },
    },
    RunStopped: {
      type: 'object',
      required: ['run_id', 'status'],
      additionalProperties: false,
      properties: { run_id: integer({ minimum: 1 }), status: { const: 'stopped' } },
    },
    RunEvent: { type: 'string', enum: ['run.started', 'run.completed', 'run.failed', 'run.stopped', 'results.created'] },
    RunEventsWebhookRequest: {
      type: 'object',
      required: ['url'],
      additionalProperties: false,
      properties: {
        url: { type: 'string', format: 'uri', maxLength: 2048, description: 'Where the signed deliveries go (Standard Webhooks signatures).' },
        events: {
          type: 'array',
          minItems: 1,
          maxItems: 100,
          items: { type: 'string', minLength: 1, maxLength: 100 },
          description: 'Run event types (`run.started`, `run.completed`, `run.failed`, `run.stopped`, `results.created`); any other, unknown or switched-off type is 422 `invalid_events`, as on `POST /api/webhooks/subscriptions`. Default: all five.',
        },
        description: { type: 'string', maxLength: 1000 },
        headers: { type: 'object', maxProperties: 20, additionalProperties: { type: 'string', maxLength: 1000 }, description: 'Extra headers sent with each delivery.' },
        timeout_seconds: integer({ minimum: 1, maximum: 30 }),
      },
    },
    RunEventsWebhook: {
      type: 'object',
      description: 'A webhook subscription (managed under `/api/webhooks/subscriptions`); the secret is shown here only.',
      required: ['id', 'url', 'events', 'secret', 'created_at'],
      additionalProperties: false,
      properties: {
        id: uuid,
        url: { type: 'string', format: 'uri' },
        events: { type: 'array', items: schema('RunEvent') },
        secret: { type: 'string', pattern: '^[A-Za-z0-9]{32}$' },
        created_at: dateTime,
      },
    },

    Scope: { type: 'string', enum: ['read', 'write'] },
    KeyStatus: { type: 'string', enum: ['active', 'revoked', 'expired'], description: '`expired` once `expires_at` has passed.' },
    PageMeta: {
      type: 'object',
      required: ['page', 'limit', 'total'],
      additionalProperties: false,
      properties: { page: integer({ minimum: 1 }), limit: integer({ minimum: 1, maximum: 100 }), total: integer({ minimum: 0 }) },
    },
    ApiKey: {
      type: 'object',
      description: 'A key as listed: never the key itself.',
      required: ['id', 'name', 'key_prefix', 'client_id', 'plan_id', 'user_id', 'scopes', 'status', 'expires_at', 'revoked_at', 'created_at'],
      additionalProperties: false,
      properties: {
        id: integer({ minimum: 1 }),
        name: nullable('string'),
        key_prefix: { type: 'string', minLength: 8, maxLength: 8, pattern: '^sk_', description: 'The first 8 characters of the key.' },
        client_id: { type: 'string', pattern: '^ci_[A-Za-z0-9]{24}$', description: 'The OAuth client id of this key.' },
        plan_id: nullable('integer'),
        user_id: nullable('integer'),
        scopes: { type: 'array', items: schema('Scope'), uniqueItems: true },
        status: schema('KeyStatus'),
        expires_at: nullable('string', { format: 'date-time' }),
        revoked_at: nullable('string', { format: 'date-time' }),
        created_at: dateTime,
      },
    },
    NewApiKey: {
      type: 'object',
      description: 'A key just issued. `key` is shown here and never again (only its SHA-256 hash is stored).',
      required: ['id', 'name', 'key', 'key_prefix', 'client_id', 'plan_id', 'user_id', 'scopes', 'status', 'expires_at', 'created_at'],
      additionalProperties: false,
      properties: {
        id: integer({ minimum: 1 }),
        name: nullable('string'),
        key: { type: 'string', pattern: '^sk_[A-Za-z0-9]{48}$' },
        key_prefix: { type: 'string', minLength: 8, maxLength: 8, pattern: '^sk_' },
        client_id: { type: 'string', pattern: '^ci_[A-Za-z0-9]{24}$' },
        plan_id: nullable('integer'),
        user_id: nullable('integer'),
        scopes: { type: 'array', minItems: 1, items: schema('Scope'), uniqueItems: true },
        status: schema('KeyStatus'),
        expires_at: nullable('string', { format: 'date-time' }),
        created_at: dateTime,
      },
    },
    CreateKeyRequest: {
      type: 'object',
      description: 'Unknown fields are refused (400). `plan_id` and `user_id` are for administrators (others get 403 `forbidden`).',
      additionalProperties: false,
      properties: {
        name: { type: 'string', minLength: 1, maxLength: 100 },
        scopes: { type: 'array', minItems: 1, uniqueItems: true, items: schema('Scope'), default: ['read'], description: 'At most the scopes of the credential in use (else 403 `insufficient_scope`).' },
        expires_at: { type: 'string', format: 'date-time', description: 'ISO 8601 with a time zone, in the future.' },
        plan_id: integer({ minimum: 1, description: 'Administrators only; an unknown plan is 422 `unknown_plan`. Default: the default plan.' }),
        user_id: integer({ minimum: 1, description: 'Administrators only; an unknown user is 422 `unknown_user`. Default: the caller.' }),
      },
    },
    KeyCreated: {
      type: 'object',
      required: ['data'],
      additionalProperties: false,
      properties: { data: schema('NewApiKey') },
    },
    KeyList: {
      type: 'object',
      required: ['data', 'meta'],
      additionalProperties: false,
      properties: { data: { type: 'array', items: schema('ApiKey') }, meta: schema('PageMeta') },
    },

    Plan: {
      type: 'object',
      required: ['id', 'name', 'requests_per_month', 'requests_per_minute', 'endpoints', 'price_monthly'],
      additionalProperties: false,
      properties: {
        id: integer({ minimum: 1 }),
        name: { type: 'string' },
        requests_per_month: integer({ minimum: -1, description: '-1 for unlimited.' }),
        requests_per_minute: integer({ minimum: 0 }),
        endpoints: {
          type: 'array',
          description: 'Resolved `"<METHOD> <path>"` entries; `*` stands for any method or for the rest of a path.',
          items: { type: 'string', pattern: '^\\S+ \\S+$' },
          examples: [['GET /api/v1/articles*'], ['* *']],
        },
        price_monthly: { type: 'number', minimum: 0 },
      },
    },
    PlanList: {
      type: 'object',
      required: ['data'],
      additionalProperties: false,
      properties: { data: { type: 'array', items: schema('Plan') } },
    },

    UsageReport: {
      type: 'object',
      required: ['total', 'by_status', 'series', 'month'],
      additionalProperties: false,
      properties: {
        total: integer({ minimum: 0 }),
        by_status: {
          type: 'object',
          description: 'Requests by HTTP status code.',
          propertyNames: { type: 'string', pattern: '^[1-5][0-9]{2}$' },
          additionalProperties: integer({ minimum: 0 }),
          examples: [{ '200': 12, '429': 1 }],
        },
        series: {
          type: 'array',
          description: 'Every bucket from `from` to `to`, zeros included.',
          items: {
            type: 'object',
            required: ['t', 'count'],
            additionalProperties: false,
            properties: { t: { ...dateTime, description: 'Start of the bucket.' }, count: integer({ minimum: 0 }) },
          },
        },
        month: {
          type: 'object',
          description: 'This calendar month (UTC) against the plans\' monthly quota, summed over the keys (-1 when any is unlimited).',
          required: ['used', 'quota', 'remaining'],
          additionalProperties: false,
          properties: {
            used: integer({ minimum: 0 }),
            quota: integer({ minimum: -1 }),
            remaining: nullable('integer', { minimum: 0, description: 'quota − used, or null when unlimited.' }),
          },
        },
      },
    },
    UsageResponse: {
      type: 'object',
      required: ['data'],
      additionalProperties: false,
      properties: { data: schema('UsageReport') },
    },

    TokenRequest: {
      type: 'object',
      description:
        'RFC 6749 section 4.4. The client may authenticate with HTTP Basic (`client_id:client_secret`) instead of the body fields, but not both.',
      required: ['grant_type'],
      properties: {
        grant_type: { type: 'string', enum: ['client_credentials'] },
        client_id: { type: 'string', pattern: '^ci_[A-Za-z0-9]{24}$', description: "The key's `client_id`." },
        client_secret: { type: 'string', description: 'The full API key.' },
        scope: { type: 'string', description: 'Space-separated; a subset of the key\'s scopes (default: all of them).', examples: ['read', 'read write'] },
      },
    },
    TokenResponse: {
      type: 'object',
      required: ['access_token', 'token_type', 'expires_in', 'scope'],
      additionalProperties: false,
      properties: {
        access_token: { type: 'string', description: 'An HS256 JWT; stops working as soon as its key is revoked.' },
        token_type: { const: 'Bearer' },
        expires_in: { const: 3600 },
        scope: { type: 'string', description: 'The granted scopes, space-separated.' },
      },
    },

    ArticleStatus: { type: 'string', enum: ['draft', 'published', 'archived'] },
    AuthorSummary: {
      type: 'object',
      required: ['id', 'name'],
      additionalProperties: false,
      properties: { id: integer({ minimum: 1 }), name: { type: 'string' } },
    },
    Comment: {
      type: 'object',
      required: ['id', 'body', 'author_name', 'article_id', 'createdAt'],
      additionalProperties: false,
      properties: {
        id: integer({ minimum: 1 }),
        body: { type: 'string' },
        author_name: nullable('string'),
        article_id: { ...uuid, description: "The article's UUID." },
        createdAt: dateTime,
      },
    },
    Article: {
      type: 'object',
      required: ['id', 'title', 'slug', 'status', 'excerpt', 'body', 'author_id', 'createdAt', 'updatedAt'],
      additionalProperties: false,
      properties: {
        id: uuid,
        title: { type: 'string', maxLength: 200 },
        slug: { type: 'string' },
        status: schema('ArticleStatus'),
        excerpt: nullable('string'),
        body: nullable('string'),
        author_id: nullable('integer'),
        createdAt: dateTime,
        updatedAt: dateTime,
        author: { description: 'Present with `include=author`; null when the article has no author.', anyOf: [schema('AuthorSummary'), { type: 'null' }] },
        comments: { description: 'Present with `include=comments`, oldest first.', type: 'array', items: schema('Comment') },
      },
    },
    ArticleCreate: {
      type: 'object',
      description: 'Unknown fields are refused (400).',
      required: ['title'],
      additionalProperties: false,
      properties: { ...articleFields, status: { ...schema('ArticleStatus'), description: 'Default `draft`.' } },
    },
    ArticleReplace: {
      type: 'object',
      description: 'Every field: optional fields left out become null, except `slug`, which is kept. Unknown fields are refused (400).',
      required: ['title', 'status'],
      additionalProperties: false,
      properties: articleFields,
    },
    ArticlePatch: {
      type: 'object',
      description: 'Only the fields named change; at least one is needed. Unknown fields are refused (400).',
      minProperties: 1,
      additionalProperties: false,
      properties: articleFields,
    },
    ArticleResponse: {
      type: 'object',
      required: ['data'],
      additionalProperties: false,
      properties: { data: schema('Article') },
    },
    OffsetMeta: {
      type: 'object',
      required: ['page', 'limit', 'total', 'pages'],
      additionalProperties: false,
      properties: { page: integer({ minimum: 1 }), limit: integer({ minimum: 1, maximum: 100 }), total: integer({ minimum: 0 }), pages: integer({ minimum: 0 }) },
    },
    KeysetMeta: {
      type: 'object',
      required: ['limit', 'next_after_id', 'has_more'],
      additionalProperties: false,
      properties: {
        limit: integer({ minimum: 1, maximum: 100 }),
        next_after_id: nullable('string', { format: 'uuid', description: 'The last item\'s id when `has_more`, else null: pass it as `after_id` for the next page.' }),
        has_more: { type: 'boolean' },
      },
    },
    ArticleList: {
      type: 'object',
      required: ['data', 'meta'],
      additionalProperties: false,
      properties: {
        data: { type: 'array', items: schema('Article') },
        meta: { description: 'Offset paging by default; keyset paging when `after_id` is given.', oneOf: [schema('OffsetMeta'), schema('KeysetMeta')] },
      },
    },
    CommentList: {
      type: 'object',
      required: ['data', 'meta'],
      additionalProperties: false,
      properties: { data: { type: 'array', items: schema('Comment') }, meta: schema('OffsetMeta') },
    },

    OpenApiDocument: {
      type: 'object',
      description: 'This document.',
      required: ['openapi', 'info', 'paths'],
      properties: { openapi: { const: '3.1.0' }, info: { type: 'object' }, paths: { type: 'object' } },
    },
  },

  headers: {
    XRateLimitLimit: { description: 'Requests allowed in the current clock minute.', schema: schema('HeaderXRateLimitLimit') },
    XRateLimitRemaining: { description: 'Requests left in the current minute, this one already counted (9 after the first of 10).', schema: schema('HeaderXRateLimitRemaining') },
    XRateLimitReset: { description: 'Unix seconds of the next minute boundary.', schema: schema('HeaderXRateLimitReset') },
    XRateLimitMonthlyLimit: { description: 'Requests allowed in the calendar month (UTC), or `unlimited`.', schema: schema('HeaderXRateLimitMonthlyLimit') },
    XRateLimitMonthlyRemaining: { description: 'Requests left this month, or `unlimited`.', schema: schema('HeaderXRateLimitMonthlyRemaining') },
    RateLimitPolicy: { description: 'IETF `RateLimit-Policy`, such as `"minute";q=10;w=60, "month";q=1000;w=2678400`.', schema: schema('HeaderRateLimitPolicy') },
    RateLimit: { description: 'IETF `RateLimit` for the window that matters now, such as `"minute";r=9;t=42`.', schema: schema('HeaderRateLimit') },
  },

  parameters: {
    Page: { name: 'page', in: 'query', description: 'Page number, from 1.', schema: integer({ minimum: 1, default: 1 }) },
    Limit: { name: 'limit', in: 'query', description: 'Items per page (out of range → 400).', schema: integer({ minimum: 1, maximum: 100, default: 20 }) },
    ArticleId: { name: 'id', in: 'path', required: true, description: "The article's UUID or its numeric id; anything else, or an unknown one, is 404.", schema: articleId },
    Include: {
      name: 'include',
      in: 'query',
      description: 'Comma-separated relations to embed, from `author,comments`; any other name is 400.',
      schema: { type: 'string', pattern: '^\\s*(author|comments)?\\s*(,\\s*(author|comments)?\\s*)*$' },
      examples: { author: { value: 'author' }, both: { value: 'author,comments' } },
    },
    UsageFrom: { name: 'from', in: 'query', description: 'Start of the range, ISO 8601 with a time zone (default: 24 hours before `to`).', schema: dateTime },
    UsageTo: { name: 'to', in: 'query', description: 'End of the range, exclusive (default: now).', schema: dateTime },
    UsageGranularity: {
      name: 'granularity',
      in: 'query',
      description: 'Bucket size of `series`; the range may hold at most 1,500 buckets (else 400).',
      schema: { type: 'string', enum: ['minute', 'hour', 'day'], default: 'hour' },
    },
    ScraperId: {
      name: 'id',
      in: 'path',
      required: true,
      description: 'The scraper\'s id; another consumer\'s scraper is 404.',
      schema: integer({ minimum: 1 }),
    },
    UsageKeyId: {
      name: 'key_id',
      in: 'query',
      description: "One of the caller's keys (any key for administrators; 404 otherwise). Default: all the caller's keys.",
      schema: integer({ minimum: 1 }),
    },
  },

  responses: {
    BadRequest: {
      description: 'Invalid input (`validation_error`), naming every bad field.',
      headers: rateLimitHeaders,
      content: json(schema('ValidationError')),
    },
    Unauthorized: {
      description:
        'No credential (`api_key_required`), an unknown or malformed key (`invalid_api_key`), or a JWT or OAuth token that does not verify (`invalid_token`). No key was identified, so no rate-limit headers are sent.',
      content: json(schema('Error')),
    },
    Forbidden: {
      description:
        'Valid credentials that may not do this: `key_expired`, `key_revoked`, `endpoint_not_in_plan`, `insufficient_scope`, `forbidden` (a user whose role may not write articles, or a non-administrator naming `plan_id`/`user_id`), `consumer_required` (the shared key on a consumer\'s route). Refusals of a key with a plan carry the rate-limit headers as they stand (a 403 is not counted).',
      headers: rateLimitHeaders,
      content: json(schema('Error')),
    },
    NotFound: {
      description: 'Unknown, or another consumer\'s (`not_found`).',
      headers: rateLimitHeaders,
      content: json(schema('Error')),
    },
    Conflict: {
      description: 'The slug is taken (`slug_taken`), a run is already pending or running (`already_running`), or nothing runs to be stopped (`not_running`).',
      headers: rateLimitHeaders,
      content: json(schema('Error')),
    },
    UnprocessableEntity: {
      description: 'A well-formed request naming something that does not exist (`unknown_author`, `unknown_plan`, `unknown_user`, `invalid_events`), or an address the server may not reach (`endpoint_not_allowed`).',
      headers: rateLimitHeaders,
      content: json(schema('Error')),
    },
    TooManyRequests: {
      description: 'Over the minute (`rate_limited`) or the month (`monthly_quota_exceeded`). A refused request is not counted.',
      headers: requiredRateLimitHeaders,
      content: json(schema('Error')),
    },
    NoContent: {
      description: 'Done; no body.',
      headers: rateLimitHeaders,
    },
  },
};

/** The refusals every protected route can answer, before its own. */
const guarded = (extra: Record<string, JsonObject> = {}): Record<string, JsonObject> => ({
  ...extra,
  '401': response('Unauthorized'),
  '403': response('Forbidden'),
  '429': response('TooManyRequests'),
});

const usageDescription =
  'Requests made with the caller\'s keys (or one of them) between `from` and `to`: the total, the count by status code, a time series with every bucket, and this month\'s quota.';

export const openApiDocument: OpenApiDocument = {
  openapi: '3.1.0',
  jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
  info: {
    title: 'API business',
    version: '1.0.0',
    description:
      'The versioned API of the site: articles, and the account routes behind API keys (keys, usage, OAuth client credentials, plans).\n\n' +
      'Credentials: an API key (`X-API-Key`, `Authorization: Bearer sk_…` or `?api_key=`), an OAuth access token, or a users-permissions JWT. API keys need the `read` scope for GET and HEAD and `write` for everything else; their plan limits the endpoints, the requests a minute and the requests a month. ' +
      'Every key-authenticated answer carries the `X-RateLimit-*` headers and the IETF `RateLimit-Policy` / `RateLimit` fields.\n\n' +
      'Errors are `{ "error": { "code", "message", "details"? } }`, except on the token endpoint, which answers RFC 6749 errors. Request bodies are flat JSON objects.',
    license: { name: 'MIT', identifier: 'MIT' },
  },
  servers: [{ url: '/', description: 'This server.' }],
  security: credentials('read'),
  tags: [
    { name: 'Articles', description: 'Editorial articles and their comments.' },
    { name: 'Keys', description: 'API keys of the caller (of everyone, for administrators).' },
    { name: 'Usage', description: 'Requests made with the caller\'s keys, and the monthly quota.' },
    { name: 'OAuth', description: 'OAuth 2.0 client credentials for API keys.' },
    { name: 'Plans', description: 'The price list: quotas and endpoints of each plan.' },
    { name: 'Scrapers', description: 'Registered crawlers of the caller, their runs and results, and run-event webhooks.' },
    { name: 'Meta', description: 'This description.' },
  ],
  paths: {
    '/api/v1/articles': {
      get: {
        operationId: 'listArticles',
        summary: 'List articles',
        description:
          'Newest first by default. Offset paging (`page`, `limit`) answers `meta: { page, limit, total, pages }`; keyset paging (`after_id`, the last id of the previous page, with `limit`) answers `meta: { limit, next_after_id, has_more }`. `page` and `after_id` cannot be combined. Ordering always ends with the id, in the same direction. Key holders see articles in every status.',
        tags: ['Articles'],
        security: credentials('read'),
        parameters: [
          param('Page'),
          param('Limit'),
          { name: 'per_page', in: 'query', description: 'Another name for `limit` (giving both with different values is 400).', schema: integer({ minimum: 1, maximum: 100 }) },
          { name: 'status', in: 'query', description: 'Only articles in this status.', schema: schema('ArticleStatus') },
          { name: 'author_id', in: 'query', description: "Only this author's articles.", schema: integer({ minimum: 1 }) },
          {
            name: 'created_after',
            in: 'query',
            description: 'Only articles created strictly after this date or date-time.',
            schema: { anyOf: [{ type: 'string', format: 'date' }, dateTime] },
          },
          { name: 'sort', in: 'query', description: 'Sort field.', schema: { type: 'string', enum: ['createdAt', 'updatedAt', 'title'], default: 'createdAt' } },
          { name: 'order', in: 'query', description: 'Sort direction.', schema: { type: 'string', enum: ['asc', 'desc'], default: 'desc' } },
          param('Include'),
          {
            name: 'after_id',
            in: 'query',
            description: 'Keyset paging: the articles after this one in the current order (an id that names no article is 400).',
            schema: articleId,
          },
        ],
        responses: guarded({
          '200': ok('A page of articles.', schema('ArticleList')),
          '400': response('BadRequest'),
        }),
      },
      post: {
        operationId: 'createArticle',
        summary: 'Create an article',
        tags: ['Articles'],
        security: credentials('write'),
        requestBody: { required: true, content: json(schema('ArticleCreate')) },
        responses: guarded({
          '201': ok('The new article.', schema('ArticleResponse')),
          '400': response('BadRequest'),
          '409': response('Conflict'),
          '422': response('UnprocessableEntity'),
        }),
      },
    },
    '/api/v1/articles/{id}': {
      get: {
        operationId: 'getArticle',
        summary: 'Get an article',
        tags: ['Articles'],
        security: credentials('read'),
        parameters: [param('ArticleId'), param('Include')],
        responses: guarded({
          '200': ok('The article.', schema('ArticleResponse')),
          '400': response('BadRequest'),
          '404': response('NotFound'),
        }),
      },
      put: {
        operationId: 'replaceArticle',
        summary: 'Replace an article',
        tags: ['Articles'],
        security: credentials('write'),
        parameters: [param('ArticleId')],
        requestBody: { required: true, content: json(schema('ArticleReplace')) },
        responses: guarded({
          '200': ok('The article as it now is.', schema('ArticleResponse')),
          '400': response('BadRequest'),
          '404': response('NotFound'),
          '409': response('Conflict'),
          '422': response('UnprocessableEntity'),
        }),
      },
      patch: {
        operationId: 'updateArticle',
        summary: 'Change some fields of an article',
        tags: ['Articles'],
        security: credentials('write'),
        parameters: [param('ArticleId')],
        requestBody: { required: true, content: json(schema('ArticlePatch')) },
        responses: guarded({
          '200': ok('The article as it now is.', schema('ArticleResponse')),
          '400': response('BadRequest'),
          '404': response('NotFound'),
          '409': response('Conflict'),
          '422': response('UnprocessableEntity'),
        }),
      },
      delete: {
        operationId: 'deleteArticle',
        summary: 'Delete an article',
        tags: ['Articles'],
        security: credentials('write'),
        parameters: [param('ArticleId')],
        responses: guarded({
          '204': response('NoContent'),
          '404': response('NotFound'),
        }),
      },
    },
    '/api/v1/articles/{id}/comments': {
      get: {
        operationId: 'listArticleComments',
        summary: "List an article's comments",
        description: 'Oldest first.',
        tags: ['Articles'],
        security: credentials('read'),
        parameters: [param('ArticleId'), param('Page'), param('Limit')],
        responses: guarded({
          '200': ok('A page of comments.', schema('CommentList')),
          '400': response('BadRequest'),
          '404': response('NotFound'),
        }),
      },
    },

    '/api/v1/scrapers': {
      post: {
        operationId: 'createScraper',
        summary: 'Register a scraper',
        tags: ['Scrapers'],
        security: credentials('write'),
        requestBody: { required: true, content: json(schema('ScraperCreateRequest')) },
        responses: guarded({
          '201': ok('The scraper.', schema('Scraper')),
          '400': response('BadRequest'),
          '422': response('UnprocessableEntity'),
        }),
      },
      get: {
        operationId: 'listScrapers',
        summary: 'List the caller\'s scrapers',
        description: 'Newest first.',
        tags: ['Scrapers'],
        security: credentials('read'),
        parameters: [param('Page'), param('Limit')],
        responses: guarded({
          '200': ok('A page of scrapers.', schema('ScraperList')),
          '400': response('BadRequest'),
        }),
      },
    },
    '/api/v1/scrapers/{id}': {
      get: {
        operationId: 'getScraper',
        summary: 'One scraper',
        tags: ['Scrapers'],
        security: credentials('read'),
        parameters: [param('ScraperId')],
        responses: guarded({ '200': ok('The scraper.', schema('Scraper')), '404': response('NotFound') }),
      },
      patch: {
        operationId: 'updateScraper',
        summary: 'Change a scraper',
        description: 'A changed `schedule` takes effect at once (removed when null).',
        tags: ['Scrapers'],
        security: credentials('write'),
        parameters: [param('ScraperId')],
        requestBody: { required: true, content: json(schema('ScraperUpdateRequest')) },
        responses: guarded({
          '200': ok('The scraper.', schema('Scraper')),
          '400': response('BadRequest'),
          '404': response('NotFound'),
          '422': response('UnprocessableEntity'),
        }),
      },
      delete: {
        operationId: 'deleteScraper',
        summary: 'Delete a scraper',
        description: 'Stops its run, removes its schedule, and deletes its runs and results.',
        tags: ['Scrapers'],
        security: credentials('write'),
        parameters: [param('ScraperId')],
        responses: guarded({ '204': response('NoContent'), '404': response('NotFound') }),
      },
    },
    '/api/v1/scrapers/{id}/run': {
      post: {
        operationId: 'runScraper',
        summary: 'Start a run now',
        description: 'One compare-and-set on the scraper: concurrent requests, a schedule tick or another instance never start two runs.',
        tags: ['Scrapers'],
        security: credentials('write'),
        parameters: [param('ScraperId')],
        responses: guarded({ '202': ok('The run is queued.', schema('RunStarted')), '404': response('NotFound'), '409': response('Conflict') }),
      },
    },
    '/api/v1/scrapers/{id}/stop': {
      post: {
        operationId: 'stopScraper',
        summary: 'Stop the current run',
        description: 'The run ends as `stopped` at once; requests in flight are aborted within a second.',
        tags: ['Scrapers'],
        security: credentials('write'),
        parameters: [param('ScraperId')],
        responses: guarded({ '200': ok('The stopped run.', schema('RunStopped')), '404': response('NotFound'), '409': response('Conflict') }),
      },
    },
    '/api/v1/scrapers/{id}/status': {
      get: {
        operationId: 'getScraperStatus',
        summary: 'The latest run\'s status',
        tags: ['Scrapers'],
        security: credentials('read'),
        parameters: [param('ScraperId')],
        responses: guarded({ '200': ok('The status.', schema('ScraperStatus')), '404': response('NotFound') }),
      },
    },
    '/api/v1/scrapers/{id}/runs': {
      get: {
        operationId: 'listScraperRuns',
        summary: 'A scraper\'s runs',
        description: 'Newest first; a run in progress shows its counts as of the last second.',
        tags: ['Scrapers'],
        security: credentials('read'),
        parameters: [param('ScraperId'), param('Page'), param('Limit')],
        responses: guarded({ '200': ok('A page of runs.', schema('ScraperRunList')), '400': response('BadRequest'), '404': response('NotFound') }),
      },
    },
    '/api/v1/scrapers/{id}/runs/{runId}': {
      get: {
        operationId: 'getScraperRun',
        summary: 'One run',
        tags: ['Scrapers'],
        security: credentials('read'),
        parameters: [param('ScraperId'), { name: 'runId', in: 'path', required: true, description: 'A run of this scraper.', schema: integer({ minimum: 1 }) }],
        responses: guarded({ '200': ok('The run.', schema('ScraperRun')), '404': response('NotFound') }),
      },
    },
    '/api/v1/scrapers/{id}/results': {
      get: {
        operationId: 'listScraperResults',
        summary: 'A scraper\'s results',
        description:
          'In id order, paged as JSON; with `format=ndjson` or `format=csv` every matching result is streamed (`page` and `limit` ignored). CSV columns: `id,run_id,url,created_at`, then the selector fields in their order (or `url,title`; a field named like a fixed column is prefixed `data_`).',
        tags: ['Scrapers'],
        security: credentials('read'),
        parameters: [
          param('ScraperId'),
          param('Page'),
          param('Limit'),
          { name: 'run_id', in: 'query', description: 'Only this run\'s results.', schema: integer({ minimum: 1 }) },
          { name: 'format', in: 'query', description: 'The answer\'s form.', schema: { type: 'string', enum: ['json', 'ndjson', 'csv'], default: 'json' } },
        ],
        responses: guarded({
          '200': {
            description: 'A page of results (JSON), or every result as NDJSON or CSV.',
            headers: rateLimitHeaders,
            content: {
              'application/json': { schema: schema('ScraperResultList') },
              'application/x-ndjson': { schema: { type: 'string', description: 'One ScraperResult as JSON per line.' } },
              'text/csv': { schema: { type: 'string', description: 'A header line, then one line per result.' } },
            },
          },
          '400': response('BadRequest'),
          '404': response('NotFound'),
        }),
      },
    },
    '/api/v1/webhooks': {
      post: {
        operationId: 'createRunEventsWebhook',
        summary: 'Subscribe to run events',
        description: 'Creates a webhook subscription (section 3 of the contract: signed deliveries, retries, a test event at once) for the caller\'s run events only.',
        tags: ['Scrapers'],
        security: credentials('write'),
        requestBody: { required: true, content: json(schema('RunEventsWebhookRequest')) },
        responses: guarded({
          '201': ok('The subscription, with its secret.', schema('RunEventsWebhook')),
          '400': response('BadRequest'),
          '422': response('UnprocessableEntity'),
        }),
      },
    },

    '/api/v1/keys': {
      post: {
        operationId: 'createKey',
        summary: 'Issue an API key',
        description:
          'The key is in the answer and nowhere else. New keys of non-administrators get the default plan; a key or OAuth token cannot mint a key with scopes it lacks.',
        tags: ['Keys'],
        security: credentials('write'),
        requestBody: { required: false, content: json(schema('CreateKeyRequest')) },
        responses: guarded({
          '201': ok('The new key, with the key itself.', schema('KeyCreated')),
          '400': response('BadRequest'),
          '422': response('UnprocessableEntity'),
        }),
      },
      get: {
        operationId: 'listKeys',
        summary: 'List API keys',
        description: "The caller's keys, newest first; administrators see every consumer's keys and may filter with `user_id`.",
        tags: ['Keys'],
        security: credentials('read'),
        parameters: [
          param('Page'),
          param('Limit'),
          { name: 'user_id', in: 'query', description: 'Administrators: only this user\'s keys (ignored for others).', schema: integer({ minimum: 1 }) },
        ],
        responses: guarded({
          '200': ok('A page of keys.', schema('KeyList')),
          '400': response('BadRequest'),
        }),
      },
    },
    '/api/v1/keys/{id}': {
      delete: {
        operationId: 'revokeKey',
        summary: 'Revoke an API key',
        description: 'The key stops working at once; its record is kept. Revoking twice is still 204; another consumer\'s key is 404.',
        tags: ['Keys'],
        security: credentials('write'),
        parameters: [{ name: 'id', in: 'path', required: true, description: 'The key\'s id.', schema: integer({ minimum: 1 }) }],
        responses: guarded({
          '204': response('NoContent'),
          '404': response('NotFound'),
        }),
      },
    },

    '/api/v1/usage': {
      get: {
        operationId: 'getUsage',
        summary: 'Usage of the caller\'s keys',
        description: usageDescription,
        tags: ['Usage'],
        security: credentials('read'),
        parameters: [param('UsageFrom'), param('UsageTo'), param('UsageGranularity'), param('UsageKeyId')],
        responses: guarded({
          '200': ok('The usage report.', schema('UsageResponse')),
          '400': response('BadRequest'),
          '404': response('NotFound'),
        }),
      },
    },
    '/api/v1/usage/stream': {
      get: {
        operationId: 'streamUsage',
        summary: 'Usage as Server-Sent Events',
        description:
          usageDescription +
          '\n\nA `text/event-stream` that starts with a `retry:` field (the interval in milliseconds), then sends an `usage` event at once and every `interval` seconds until the client goes away:\n\n' +
          '```\nid: 1\nevent: usage\ndata: {"total":12,"by_status":{"200":12},"series":[…],"month":{"used":12,"quota":1000,"remaining":988}}\n```\n\n' +
          'Each event\'s `data` is a `UsageReport` (the `data` of `GET /api/v1/usage`). Comment lines (`: heartbeat`) keep the connection alive while a report is computed. Errors in the query are answered as ordinary JSON before the stream starts.',
        tags: ['Usage'],
        security: credentials('read'),
        parameters: [
          { name: 'interval', in: 'query', description: 'Seconds between events.', schema: integer({ minimum: 1, maximum: 5, default: 5 }) },
          param('UsageKeyId'),
          param('UsageGranularity'),
          param('UsageFrom'),
          param('UsageTo'),
        ],
        responses: guarded({
          '200': {
            description: 'The event stream; each `usage` event carries a `UsageReport` as JSON in its `data` field.',
            headers: rateLimitHeaders,
            content: {
              'text/event-stream': {
                schema: { type: 'string', description: 'Server-Sent Events: `retry:`, then `event: usage` with `data:` a UsageReport.' },
              },
            },
          },
          '400': response('BadRequest'),
          '404': response('NotFound'),
        }),
      },
    },

    '/api/v1/oauth/token': {
      post: {
        operationId: 'issueToken',
        summary: 'Exchange client credentials for an access token',
        description:
          'OAuth 2.0 client credentials grant (RFC 6749 section 4.4): `client_id` is the key\'s, `client_secret` the full key. Errors follow RFC 6749 section 5.2. Answers are never cached.',
        tags: ['OAuth'],
        security: open,
        requestBody: {
          required: true,
          content: {
            'application/json': { schema: schema('TokenRequest') },
            'application/x-www-form-urlencoded': { schema: schema('TokenRequest') },
          },
        },
        responses: {
          '200': {
            description: 'An access token.',
            headers: {
              'Cache-Control': { description: 'Always `no-store`.', schema: { const: 'no-store' } },
              Pragma: { description: 'Always `no-cache`.', schema: { const: 'no-cache' } },
            },
            content: json(schema('TokenResponse')),
          },
          '400': {
            description: '`invalid_request` (missing or malformed fields), `unsupported_grant_type`, or `invalid_scope` (a scope the key does not have).',
            content: json(schema('OAuthError')),
          },
          '401': {
            description: '`invalid_client`: unknown client, wrong secret, or a revoked or expired key.',
            headers: {
              'WWW-Authenticate': { description: 'The Basic challenge.', required: true, schema: { type: 'string', pattern: '^Basic ' } },
            },
            content: json(schema('OAuthError')),
          },
        },
      },
    },

    '/api/v1/plans': {
      get: {
        operationId: 'listPlans',
        summary: 'List plans',
        description: 'The price list, cheapest first. Open to anyone.',
        tags: ['Plans'],
        security: open,
        responses: {
          '200': { description: 'Every plan.', content: json(schema('PlanList')) },
        },
      },
    },

    '/api/v1/openapi.json': {
      get: {
        operationId: 'getOpenApiDocument',
        summary: 'This OpenAPI document',
        tags: ['Meta'],
        security: open,
        responses: {
          '200': { description: 'The OpenAPI 3.1 document.', content: json(schema('OpenApiDocument')) },
        },
      },
    },
  },
  components,
};
