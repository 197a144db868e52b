import { z } from 'zod';
import type { ApiDescription, JsonObject, ResponseSpec } from './openapi';
import type { Responses } from './route';
import { schemaRef, shared } from './openapi';

/**
 * What every `/api/v1` route shares: the error bodies, the page meta, the rate-limit headers, the
 * refusals of the key middleware, and the ways to send a credential.
 */

export const errorBody = z
  .object({
    error: z.object({
      code: z
        .string()
        .regex(/^[a-z0-9]+(_[a-z0-9]+)*$/)
        .meta({ description: 'A snake_case code.', examples: ['api_key_required'] }),
      message: z.string(),
      details: z.unknown().optional().meta({ description: 'More about the error; for `validation_error`, one entry per bad field.' }),
    }),
  })
  .meta({ description: 'The `/api/v1` error body: `{ "error": { "code", "message", "details"? } }`.' });

export const fieldError = z.object({
  field: z.string().meta({ description: 'The field, query parameter or body path at fault; `(body)` for the body as a whole.' }),
  message: z.string(),
});

export const validationErrorBody = z
  .object({
    error: z.object({
      code: z.literal('validation_error'),
      message: z.string(),
      details: z.array(fieldError).min(1),
    }),
  })
  .meta({ description: 'A 400: every bad field is named in `details` and in the message.' });

export const oauthErrorBody = z
  .object({
    error: z.enum(['invalid_request', 'invalid_client', 'invalid_grant', 'unsupported_grant_type', 'invalid_scope']),
    error_description: z.string(),
  })
  .meta({ description: 'RFC 6749 section 5.2.' });

export const pageMeta = z.object({ page: z.int().min(1), limit: z.int().min(1).max(100), total: z.int().min(0) });

/** Admin panel: a consumer (a users-permissions user) as the admin routes name one: the owner of a key, a subscription or a scraper. */
export const consumer = z.object({ id: z.int().min(1), username: z.string(), email: z.string(), consumer_id: z.string() });
export type Consumer = z.infer<typeof consumer>;

/** A page of `item`: `{ data: [item], meta: { page, limit, total } }`. */
export const pageOf = <T extends z.ZodType>(item: T) => z.object({ data: z.array(item), meta: pageMeta });

/** An answer in Strapi's envelope, as the admin panel's routes send one thing: `{ data: … }`. */
export const dataOf = <T extends z.ZodType>(item: T) => z.object({ data: item });

// One schema object per header: a component is named after its schema object.
const count = () => z.int().min(0);
const countOrUnlimited = () => z.union([z.int().min(0), z.literal('unlimited')]);

const HEADER_SCHEMAS = {
  HeaderXRateLimitLimit: count(),
  HeaderXRateLimitRemaining: count(),
  HeaderXRateLimitReset: count(),
  HeaderXRateLimitMonthlyLimit: countOrUnlimited(),
  HeaderXRateLimitMonthlyRemaining: countOrUnlimited(),
  HeaderRateLimitPolicy: z.string().regex(/^"minute";q=\d+;w=\d+(, "month";q=\d+;w=\d+)?$/),
  HeaderRateLimit: z.string().regex(/^"(minute|month)";r=\d+;t=\d+$/),
};

const RATE_LIMIT_HEADERS: Array<[header: string, component: string, description: string]> = [
  ['X-RateLimit-Limit', 'XRateLimitLimit', 'Requests allowed in the current clock minute.'],
  [
    'X-RateLimit-Remaining',
    'XRateLimitRemaining',
    'Requests left in the current minute, this one already counted (9 after the first of 10).',
  ],
  ['X-RateLimit-Reset', 'XRateLimitReset', 'Unix seconds of the next minute boundary.'],
  ['X-RateLimit-Monthly-Limit', 'XRateLimitMonthlyLimit', 'Requests allowed in the calendar month (UTC), or `unlimited`.'],
  ['X-RateLimit-Monthly-Remaining', 'XRateLimitMonthlyRemaining', 'Requests left this month, or `unlimited`.'],
  ['RateLimit-Policy', 'RateLimitPolicy', 'IETF `RateLimit-Policy`, such as `"minute";q=10;w=60, "month";q=1000;w=2678400`.'],
  ['RateLimit', 'RateLimit', 'IETF `RateLimit` for the window that matters now, such as `"minute";r=9;t=42`.'],
];

/** The quota headers a key-authenticated answer carries (absent for user JWTs and the shared key). */
export const rateLimitHeaders: Record<string, JsonObject> = Object.fromEntries(
  RATE_LIMIT_HEADERS.map(([header, component]) => [header, { $ref: `#/components/headers/${component}` }])
);

/** A 429 always carries them, and Retry-After. */
const requiredRateLimitHeaders: Record<string, JsonObject> = {
  ...Object.fromEntries(
    RATE_LIMIT_HEADERS.map(([header, component]) => [
      header,
      {
        description: `As on every key-authenticated answer; see ${component} in components/headers.`,
        required: true,
        schema: schemaRef(`Header${component}`),
      },
    ])
  ),
  'Retry-After': {
    description: 'Seconds until the refusing window (the minute, or the month) starts again; at least 1.',
    required: true,
    schema: { type: 'integer', minimum: 1 },
  },
};

/** A success answer of a key-guarded route: the JSON body, with the rate-limit headers. */
export const ok = <J extends z.ZodType>(description: string, json: J) =>
  ({ description, json, headers: rateLimitHeaders }) satisfies ResponseSpec;

/** The refusals every protected route can answer, before its own. */
export const guarded = <const R extends Responses>(responses: R) => ({
  ...responses,
  '401': shared('Unauthorized'),
  '403': shared('Forbidden'),
  '429': shared('TooManyRequests'),
});

/** The refusals of an account route: reachable on every plan and never counted, so never a 429. */
export const account = <const R extends Responses>(responses: R) => ({
  ...responses,
  '401': shared('Unauthorized'),
  '403': shared('Forbidden'),
});

const errorResponse = (description: string, headers?: Record<string, JsonObject>, schema = 'Error'): JsonObject => ({
  description,
  ...(headers ? { headers } : {}),
  content: { 'application/json': { schema: schemaRef(schema) } },
});

/** The pieces above as components of the document. */
export const commonDescription: ApiDescription = {
  components: {
    Error: errorBody,
    FieldError: fieldError,
    ValidationError: validationErrorBody,
    OAuthError: oauthErrorBody,
    PageMeta: pageMeta,
    ...HEADER_SCHEMAS,
  },
  extra: {
    headers: Object.fromEntries(
      RATE_LIMIT_HEADERS.map(([, component, description]) => [component, { description, schema: schemaRef(`Header${component}`) }])
    ),
    responses: {
      BadRequest: errorResponse('Invalid input (`validation_error`), naming every bad field.', rateLimitHeaders, 'ValidationError'),
      Unauthorized: errorResponse(
        'No credential (`api_key_required`), an unknown or malformed key (`invalid_api_key`), or a JWT or OAuth token that does not verify (`invalid_token`). No key was identified, so no rate-limit headers are sent.'
      ),
      Forbidden: errorResponse(
        "Valid credentials that may not do this: `key_expired`, `key_revoked`, `endpoint_not_in_plan`, `insufficient_scope`, `forbidden` (a user whose role may not write articles, or a non-administrator naming `plan_id`/`user_id`), `consumer_required` (the shared key on a consumer's route). Refusals of a key with a plan carry the rate-limit headers as they stand (a 403 is not counted).",
        rateLimitHeaders
      ),
      NotFound: errorResponse("Unknown, or another consumer's (`not_found`).", rateLimitHeaders),
      Conflict: errorResponse(
        'The slug is taken (`slug_taken`), a run is already pending or running (`already_running`), nothing runs to be stopped (`not_running`), billing refuses in this state (`already_subscribed`, `no_subscription`, `no_customer`), a key cannot be rerolled (`key_not_active`), the consumer already holds as many live API keys as a consumer may (`too_many_keys`, the cap in `details.limit`), or as many webhook subscriptions as their plan allows (`too_many_subscriptions`, the cap in `details.limit`).',
        rateLimitHeaders
      ),
      UnprocessableEntity: errorResponse(
        'A well-formed request naming something that does not exist (`unknown_author`, `unknown_plan`, `unknown_user`, `invalid_events`), or an address the server may not reach (`endpoint_not_allowed`).',
        rateLimitHeaders
      ),
      TooManyRequests: errorResponse(
        'Over the minute (`rate_limited`) or the month (`monthly_quota_exceeded`). A refused request is not counted.',
        requiredRateLimitHeaders
      ),
      NoContent: { description: 'Done; no body.', headers: rateLimitHeaders },
      BadGateway: errorResponse(
        "Stripe refused the request or could not be reached (`payment_provider_error`); nothing was stored, and the request may be retried. Stripe's reason is in the server log."
      ),
      ServiceUnavailable: errorResponse(
        'Billing is off (no `STRIPE_SECRET_KEY`) or not yet provisioned in Stripe (`billing_not_configured`); the reason is in the server log.'
      ),
    },
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
        description:
          'An `sk_` API key, a users-permissions JWT (`POST /api/auth/local`), or an OAuth access token from `POST /api/v1/oauth/token`.',
      },
      oauth2: {
        type: 'oauth2',
        description:
          "OAuth 2.0 client credentials: the key's `client_id` and the full key as `client_secret` buy an HS256 access token valid 3600 s, sent as `Authorization: Bearer`.",
        flows: {
          clientCredentials: { tokenUrl: '/api/v1/oauth/token', scopes: { read: 'GET and HEAD requests', write: 'every other method' } },
        },
      },
    },
  },
};
