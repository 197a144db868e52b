import type { Core } from '@strapi/strapi';
import { errors as strapiErrors } from '@strapi/utils';
import type { Context } from 'koa';
import { ZodError } from 'zod';
import { DependencyUnavailableError, RETRY_AFTER_SECONDS, unavailableDependency, unavailableMessage } from '../dependencies';

/**
 * A refusal with the status, code and message the API documents for it. Thrown anywhere below a controller
 * and turned into the body of its route family by that family's error middleware (one shape per family).
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
    readonly headers?: Record<string, string>
  ) {
    super(message);
    this.name = new.target.name;
  }

  /** The same refusal with what the route adds to it: the field it was about, or its rate-limit headers. */
  with(extra: { details?: unknown; headers?: Record<string, string> }): this {
    const copy = Object.create(Object.getPrototypeOf(this) as object, Object.getOwnPropertyDescriptors(this)) as this;
    return Object.assign(copy, extra);
  }
}

/*
 * The refusals of HTTP itself, whatever the route: each one small class, named by what went wrong
 * (the features' own are beside them: `access/errors.ts`, `webhooks/errors.ts`, …; the kinds a
 * one-off refusal takes are in ../errors.ts).
 */

/** The body could not be read: not JSON or form data, or cut short (400 `invalid_body`). */
export class MalformedBodyError extends ApiError {
  constructor(message = 'The request body is not valid JSON or form data') {
    super(400, 'invalid_body', message);
  }
}

/** The body is larger than the route takes (413 `payload_too_large`). */
export class BodyTooLargeError extends ApiError {
  constructor(message = 'The request body is too large') {
    super(413, 'payload_too_large', message);
  }
}

/** The body is compressed or encoded in a way the server does not read (415 `unsupported_encoding`). */
export class UnsupportedEncodingError extends ApiError {
  constructor() {
    super(415, 'unsupported_encoding', 'The request body encoding is not supported');
  }
}

/** A JSON route was sent something else (415 `unsupported_media_type`). */
export class NotJsonError extends ApiError {
  constructor() {
    super(415, 'unsupported_media_type', 'Send the body as JSON, with Content-Type: application/json');
  }
}

/** Fields that cannot be used as sent, each with its problem (400; `validation_error`, or the family's own code). */
export class FieldsInvalidError extends ApiError {
  constructor(fields: FieldProblem[], code = 'validation_error', message = summarizeFields(fields)) {
    super(400, code, message, fields);
  }
}

/** The database or Redis is away (503 `dependency_unavailable`, with `Retry-After`). */
export class DependencyDownError extends ApiError {
  constructor(message: string) {
    super(503, 'dependency_unavailable', message, undefined, { 'Retry-After': String(RETRY_AFTER_SECONDS) });
  }
}

/** A route that needs a credential, called without one (401 `api_key_required`); the key middleware says how to send one. */
export class ApiKeyRequiredError extends ApiError {
  constructor(message = 'An API key is required') {
    super(401, 'api_key_required', message);
  }
}

/** A route that acts for a consumer, called with the shared key (403 `consumer_required`). */
export class ConsumerRequiredError extends ApiError {
  constructor() {
    super(403, 'consumer_required', 'This route acts for a consumer: use an API key, an OAuth token or a user JWT, not the shared key');
  }
}

/** Something only administrators may do, asked by a consumer who is not one (403 `forbidden`, in the route's words). */
export class AdministratorsOnlyError extends ApiError {
  constructor(message: string) {
    super(403, 'forbidden', message);
  }
}

/** A route that needs the consumer's own sign-in, called with an API key or OAuth token (403 `session_required`). */
export class SessionRequiredError extends ApiError {
  constructor() {
    super(
      403,
      'session_required',
      "This route needs the consumer's own sign-in: send the JWT from POST /api/auth/local as a Bearer token, not an API key or an OAuth token"
    );
  }
}

/**
 * A fault of the database or Redis (../dependencies.ts) as the refusal it is answered with: 503
 * `dependency_unavailable` with `Retry-After`, in the route's own shape; undefined for any other fault.
 */
export function dependencyRefusal(caught: unknown): ApiError | undefined {
  const dependency = unavailableDependency(caught);
  if (!dependency) return undefined;
  const message = caught instanceof DependencyUnavailableError ? caught.message : unavailableMessage(dependency);
  return new DependencyDownError(message);
}

/** `/api/v1/*` and the key middleware: `{ error: { code, message, details? } }`. */
export function nestedErrorBody(error: ApiError) {
  return { error: { code: error.code, message: error.message, ...(error.details === undefined ? {} : { details: error.details }) } };
}

/** zod's issues as a 400 naming every field, never a 500. */
export function fromZod(error: ZodError): ApiError {
  return new FieldsInvalidError(fieldProblems(error));
}

/** zod's issues, each with its field's path (under `under`, for a value checked inside a larger body). */
export function fieldProblems(error: ZodError, under = ''): FieldProblem[] {
  return error.issues.map((issue) => ({
    field: [under, ...issue.path.map(String)].filter(Boolean).join('.') || '(body)',
    message: issue.message,
  }));
}

/** Field problems as one line: `field: message; field: message`. */
export function summarizeFields(fields: FieldProblem[]): string {
  return fields.map((field) => `${field.field}: ${field.message}`).join('; ');
}

/**
 * What a route answers for a fault that is not a refusal, where its family promises its own shape
 * even for a 500 ("Checkout failed"): the fault is logged and answered in that shape. It may
 * rethrow a fault it does not own, which then reaches Strapi's error middleware.
 */
export type Unexpected = (error: unknown, strapi: Core.Strapi) => ApiError;

/** One route family's error body, built from the refusal. */
export type ErrorShape = (error: ApiError) => unknown;

/**
 * The body a family's error middleware answers in, kept on the middleware itself so that the
 * access guard, which answers for a route before the route runs, answers in the same body
 * (http/api-routes.ts's `routeFamilies` reads it from the middleware a route names).
 */
export interface FamilyShape {
  body: ErrorShape;
  /**
   * The guard's own refusals (401, 403, 429, 405) in `body` too, rather than the /api/v1 one
   * they keep everywhere else: the token route's, whose clients read RFC 6749's body only.
   */
  refusalsToo?: boolean;
  /** The code of its 400 for a body or query that cannot be used (`validation_error` unless said). */
  validationCode?: string;
  /**
   * What its writes' bodies may be (the input guard refuses others before the route runs): JSON
   * (415 otherwise, the default), JSON or a form (400 otherwise), anything, or a raw body whose
   * signature the route checks, which the guard leaves unread.
   */
  accepts?: 'json' | 'json-or-form' | 'any' | 'raw';
}

const FAMILY_SHAPE = Symbol.for('api-suite.family-shape');

/** Marks `middleware` (a family's error middleware factory) as answering in `shape`. */
export function withFamilyShape<T extends object>(middleware: T, shape: FamilyShape): T {
  return Object.assign(middleware, { [FAMILY_SHAPE]: shape });
}

/** The shape a registered middleware answers errors in, if it is a family's error middleware. */
export function familyShapeOf(middleware: unknown): FamilyShape | undefined {
  return typeof middleware === 'function' && FAMILY_SHAPE in middleware
    ? (middleware as { [FAMILY_SHAPE]: FamilyShape })[FAMILY_SHAPE]
    : undefined;
}

/** Writes `error` as the answer, in the family's `shape`. */
function answer(ctx: Context, error: ApiError, shape: ErrorShape): void {
  if (error.headers) ctx.set(error.headers);
  ctx.status = error.status;
  ctx.body = shape(error);
}

/**
 * Runs `run` and answers any ApiError or ZodError it throws in `shape`; any other fault goes to
 * `unexpected` when given, else on to Strapi's error middleware (a 500 with nothing leaked).
 */
async function answerErrors(ctx: Context, run: () => Promise<unknown>, shape: ErrorShape, unexpected?: (error: unknown) => ApiError) {
  try {
    await run();
  } catch (caught) {
    const known = caught instanceof ZodError ? fromZod(caught) : (dependencyRefusal(caught) ?? caught);
    if (known instanceof ApiError) return answer(ctx, known, shape);
    if (!unexpected) throw caught;
    answer(ctx, unexpected(caught), shape);
  }
}

/**
 * The error middleware of one route family, named in its routes' `config.middlewares` after the
 * access guard (whose refusals keep the guard's own body) and before the input validation (whose
 * refusals are the family's 400). Handlers throw; this writes the body, and the access guard
 * answers in the same one for what it meets on the route's behalf (`FamilyShape`).
 */
export function errorFamily(shape: ErrorShape, unexpected?: Unexpected, family: Omit<FamilyShape, 'body'> = {}): Core.MiddlewareFactory {
  const factory = (_config: unknown, { strapi }: { strapi: Core.Strapi }): Core.MiddlewareHandler => {
    const fallback = unexpected && ((error: unknown) => unexpected(error, strapi));
    return (ctx, next) => answerErrors(ctx, next, shape, fallback);
  };
  return withFamilyShape(factory, { ...family, body: shape });
}

/**
 * `/api/webhooks/*`: `{ error: "<message>", code, ...extra }`. Object details become extra
 * top-level fields (`invalid_events`), a list of field problems stays under `details`.
 */
export function flatErrorBody(error: ApiError): Record<string, unknown> {
  const extra =
    error.details === undefined
      ? {}
      : typeof error.details === 'object' && error.details !== null && !Array.isArray(error.details)
        ? (error.details as Record<string, unknown>)
        : { details: error.details };
  return { error: error.message, code: error.code, ...extra };
}

/**
 * `/api/checkout`, `/api/reports/*` and `/api/search`: `{ errors: [{ message }] }`, one entry per
 * problem (each bad field of a validation error has its own, as has each product short of stock).
 */
export function errorListBody(error: ApiError): { errors: Array<{ message: string }> } {
  if (Array.isArray(error.details) && error.details.length > 0) {
    return {
      errors: (error.details as Array<string | { field: string; message: string }>).map((problem) => ({
        message: typeof problem === 'string' ? problem : `${problem.field}: ${problem.message}`,
      })),
    };
  }
  return { errors: [{ message: error.message }] };
}

/**
 * A refusal by the body parser (co-body, raw-body), which runs before any route: malformed JSON
 * or form data, an oversized body, an unsupported encoding. Anything else is not one.
 */
export function bodyParserError(caught: unknown): ApiError | undefined {
  const error = caught as { type?: string; status?: number; name?: string } | undefined;
  // co-body throws JSON.parse's SyntaxError with status 400; raw-body errors carry a type.
  if ((error?.status === 400 && error.name === 'SyntaxError') || error?.type === 'entity.parse.failed') {
    return new MalformedBodyError();
  }
  if (error?.type === 'entity.too.large') return new BodyTooLargeError();
  if (error?.type === 'encoding.unsupported' || error?.type === 'charset.unsupported') return new UnsupportedEncodingError();
  if (error?.type === 'request.size.invalid' || error?.type === 'request.aborted')
    return new MalformedBodyError('The request body was incomplete');
  return undefined;
}

/** The statuses Strapi's error middleware gives its own application errors (any other one is a 400). */
const STRAPI_ERROR_STATUS: ReadonlyArray<readonly [abstract new (...args: never[]) => Error, number]> = [
  [strapiErrors.UnauthorizedError, 401],
  [strapiErrors.ForbiddenError, 403],
  [strapiErrors.NotFoundError, 404],
  [strapiErrors.PayloadTooLargeError, 413],
  [strapiErrors.RateLimitError, 429],
  [strapiErrors.NotImplementedError, 501],
];

/**
 * The status a fault that nobody below answered is answered with, once Strapi's error middleware
 * (`strapi::errors`, outside every route) has it: a refusal's own; 503 for a dependency's fault
 * (`plugin::api-suite.dependency-faults` answers it); a Strapi application error's
 * (400 unless it is one of the kinds above); an HTTP error's (4xx or 5xx); 500 for anything else,
 * such as a handler's crash. Until then `ctx.status` is still Koa's default 404, so a middleware
 * that records the answer while the fault passes through it asks here instead.
 */
export function faultStatus(caught: unknown): number {
  if (caught instanceof ApiError) return caught.status;
  if (unavailableDependency(caught)) return 503;
  if (caught instanceof strapiErrors.ApplicationError) {
    return STRAPI_ERROR_STATUS.find(([kind]) => caught instanceof kind)?.[1] ?? 400;
  }
  if (!(caught instanceof Error)) return 500;
  const { status, statusCode } = caught as Error & { status?: unknown; statusCode?: unknown };
  const given = status ?? statusCode;
  return typeof given === 'number' && Number.isInteger(given) && given >= 400 && given < 600 ? given : 500;
}

/** One problem with one field of a request, as `fromZod` and the controllers list them. */
export interface FieldProblem {
  field: string;
  message: string;
}

function isFieldProblems(details: unknown): details is FieldProblem[] {
  return (
    Array.isArray(details) &&
    details.every((item) => typeof item === 'object' && item !== null && typeof (item as FieldProblem).field === 'string')
  );
}

/**
 * Admin-panel routes (`/api-suite/*`): Strapi's own error body, which the admin's fetch client
 * and error helpers read, `{ data: null, error: { status, name, message, details } }`. Field
 * problems become `details.errors: [{ path, message, name }]` as Strapi's validation errors do,
 * so a form can show each message under its field.
 */
export function strapiErrorBody(error: ApiError) {
  const details = isFieldProblems(error.details)
    ? {
        errors: error.details.map((problem) => ({
          path: problem.field === '(body)' ? [] : problem.field.split('.'),
          message: problem.message,
          name: 'ValidationError',
        })),
      }
    : (error.details ?? {});
  return { data: null, error: { status: error.status, name: error.code, message: error.message, details } };
}

/** Strapi's own routes and the site's (no family of the plugin's): Strapi's body and validation code, any body. */
export const STRAPI_FAMILY: Omit<FamilyShape, 'body'> = { validationCode: 'ValidationError', accepts: 'any' };

/** The route families' error middlewares, by the body they answer in (`plugin::api-suite.<name>`). */
export const errorMiddlewares = {
  /** `/api/v1/*`: `{ error: { code, message, details? } }`. */
  'nested-errors': errorFamily(nestedErrorBody),
  /** `/api/webhooks/*`: `{ error: "<message>", code, …extra }`. */
  'flat-errors': errorFamily(flatErrorBody),
  /** `/api/checkout`, `/api/reports/*` and `/api/search`: `{ errors: [{ message }] }`. */
  'error-list': errorFamily(errorListBody),
  /** The admin panel's routes (`/api-suite/*`): Strapi's own error body. */
  'strapi-errors': errorFamily(strapiErrorBody, undefined, STRAPI_FAMILY),
};

/** `/api/webhook/stripe`: `{ error: "<message>" }`. */
export const errorMessageBody = (error: ApiError) => ({ error: error.message });

/**
 * The token route's body for what is not one of its own OAuth errors (a body that cannot be
 * parsed, a hostile input, the database or Redis away, a method the route does not have), in
 * RFC 6749 section 5.2's shape: `temporarily_unavailable` for a 503, `invalid_request` else.
 */
export const oauthErrorBody = (error: ApiError) => ({
  error: error.status === 503 ? 'temporarily_unavailable' : 'invalid_request',
  error_description: error.message,
});
