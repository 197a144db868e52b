import { ApiError } from './http/errors';

/**
 * The refusals services and handlers throw, named by what went wrong rather than by a status:
 * each kind's status is decided here, and the route family's error middleware (http/errors.ts)
 * writes the body. Each keeps the code and message the API documents for it (docs/api-reference.md).
 */
const STATUS = {
  invalid: 400,
  unauthenticated: 401,
  forbidden: 403,
  notFound: 404,
  conflict: 409,
  unprocessable: 422,
  failed: 500,
  unavailable: 503,
} as const;

/** The base class of one kind of refusal, with its status; `name` is the subclass's own. */
function refusal(kind: keyof typeof STATUS) {
  return class extends ApiError {
    constructor(code: string, message: string, details?: unknown) {
      super(STATUS[kind], code, message, details);
      this.name = new.target.name;
    }
  };
}

/** The request's values cannot be used as sent (a field out of range, a plan not for sale, a bad signature). */
export class InvalidError extends refusal('invalid') {}

/** Who is calling is not known: no credential, or one that does not verify. */
export class UnauthenticatedError extends refusal('unauthenticated') {}

/** The caller is known but may not do this. */
export class ForbiddenError extends refusal('forbidden') {}

/** The request is valid but the state of things refuses it (already running, out of stock, already subscribed). */
export class ConflictError extends refusal('conflict') {}

/** Well formed, but naming something the server will not use (an unknown plan or event type, a private address). */
export class UnprocessableError extends refusal('unprocessable') {}

/** The server could not do it, and says so in the route's own words ("Checkout failed"); the cause is logged. */
export class FailedError extends refusal('failed') {}

/** Not available on this site now (billing not configured or not provisioned yet). */
export class UnavailableError extends refusal('unavailable') {}

/** `<what> not found`: a row that does not exist, or one the caller may not see. */
export class NotFoundError extends refusal('notFound') {
  constructor(what: string) {
    super('not_found', `${what} not found`);
  }
}
