import type { Context } from 'koa';
import { ZodError } from 'zod';

/**
 * A refusal with the status, code and message the API documents for it. Thrown anywhere below a controller
 * and turned into the body of its route family by that family's `responder` (one shape per family).
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
    this.name = 'ApiError';
  }
}

export const notFound = (what: string) => new ApiError(404, 'not_found', `${what} not found`);

/** `/api/v1/*` and the key middleware: `{ error: { code, message, details? } }`. */
export function nestedErrorBody(error: ApiError) {
  return { error: { code: error.code, message: error.message, ...(error.details === undefined ? {} : { details: error.details }) } };
}

/** zod's issues as a 400 naming every field, never a 500. */
export function fromZod(error: ZodError): ApiError {
  const fields = fieldProblems(error);
  return new ApiError(400, 'validation_error', summarizeFields(fields), fields);
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
 * even for a 500 ("Checkout failed"): the fault is logged and answered in that shape.
 */
export type Unexpected = (error: unknown) => ApiError;

type Respond = (ctx: Context, handler: () => Promise<void>, unexpected?: Unexpected) => Promise<void>;

/**
 * The runner of one route family: it runs a controller body and answers any ApiError or ZodError
 * in the family's `shape`; any other fault goes to `unexpected` when given, else on to Strapi's
 * error middleware (a 500 with nothing leaked).
 */
function responder(shape: (error: ApiError) => unknown): Respond {
  return async (ctx, handler, unexpected) => {
    try {
      await handler();
    } catch (caught) {
      const known = caught instanceof ZodError ? fromZod(caught) : caught;
      if (!(known instanceof ApiError) && !unexpected) throw caught;
      const error = known instanceof ApiError ? known : (unexpected as Unexpected)(caught);
      if (error.headers) ctx.set(error.headers);
      ctx.status = error.status;
      ctx.body = shape(error);
    }
  };
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
    return new ApiError(400, 'invalid_body', 'The request body is not valid JSON or form data');
  }
  if (error?.type === 'entity.too.large') return new ApiError(413, 'payload_too_large', 'The request body is too large');
  if (error?.type === 'encoding.unsupported' || error?.type === 'charset.unsupported') {
    return new ApiError(415, 'unsupported_encoding', 'The request body encoding is not supported');
  }
  if (error?.type === 'request.size.invalid' || error?.type === 'request.aborted')
    return new ApiError(400, 'invalid_body', 'The request body was incomplete');
  return undefined;
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

/*
 * The responders, named after the body they answer in (one per route family):
 * `/api/v1/*` and the key middleware, and the host's articles: `{ error: { code, message, details? } }`.
 */
export const respondNestedError = responder(nestedErrorBody);
/** `/api/webhooks/*`: `{ error: "<message>", code, …extra }`. */
export const respondFlatError = responder(flatErrorBody);
/** `/api/checkout`, `/api/reports/*` and `/api/search`: `{ errors: [{ message }] }`. */
export const respondErrorList = responder(errorListBody);
/** `/api/webhook/stripe`: `{ error: "<message>" }`. */
export const respondErrorMessage = responder((error) => ({ error: error.message }));
/** The admin panel's routes (`/api-suite/*`): Strapi's own error body. */
export const respondStrapiError = responder(strapiErrorBody);
