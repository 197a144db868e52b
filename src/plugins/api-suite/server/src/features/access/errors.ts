import { ConflictError, ForbiddenError, InvalidError, UnauthenticatedError, UnprocessableError } from '../../errors';
import { ApiError, summarizeFields, type FieldProblem } from '../../http/errors';

/**
 * The access feature's refusals, each named by what went wrong (one small class each); the route
 * family's error middleware writes the body. Headers, where one carries them, are the rate-limit
 * headers as they stand.
 */

/** An `X-API-Key` (or a token's key) that names no key (401 `invalid_api_key`). */
export class InvalidApiKeyError extends ApiError {
  constructor(message = 'The API key is not valid') {
    super(401, 'invalid_api_key', message);
  }
}

/** A key revoked, or whose owner is gone (403 `key_revoked`). */
export class KeyRevokedError extends ApiError {
  constructor() {
    super(403, 'key_revoked', 'The API key has been revoked');
  }
}

/** A reroll of a key that is no longer active, or was rerolled already (409 `key_not_active`). */
export class KeyNotActiveError extends ApiError {
  constructor(replacedBy: number | null, message?: string) {
    super(
      409,
      'key_not_active',
      message ?? (replacedBy ? `The key was already rerolled: key ${replacedBy} replaces it` : 'Only an active key can be rerolled')
    );
  }
}

/** The plan's requests a minute are used up (429 `rate_limited`). */
export class RateLimitedError extends ApiError {
  constructor(perMinute: number, headers: Record<string, string>) {
    super(429, 'rate_limited', `Rate limit of ${perMinute} requests a minute exceeded`, undefined, headers);
  }
}

/** The plan's requests this month are used up (429 `monthly_quota_exceeded`). */
export class QuotaExceededError extends ApiError {
  constructor(perMonth: number, headers: Record<string, string>) {
    super(429, 'monthly_quota_exceeded', `Monthly quota of ${perMonth} requests exceeded`, undefined, headers);
  }
}

/** A consumer already holds as many usage streams open as one may (429 `too_many_streams`). */
export class TooManyStreamsError extends ApiError {
  constructor(limit: number) {
    super(
      429,
      'too_many_streams',
      `A consumer may hold ${limit} usage stream${limit === 1 ? '' : 's'} open at once and you have ${limit}: close one before opening another`,
      { limit }
    );
  }
}

/** A method no route on the path answers (405 `method_not_allowed`): the router's own 405, in JSON. */
export class MethodNotAllowedError extends ApiError {
  constructor(method: string, path: string) {
    super(405, 'method_not_allowed', `${method} is not allowed on ${path}`);
  }
}

/** An OAuth access token or user JWT that does not verify, has expired, or whose user is gone or blocked (401 `invalid_token`). */
export class InvalidTokenError extends UnauthenticatedError {
  constructor() {
    super('invalid_token', 'The access token is not valid or has expired');
  }
}

/** A key past its `expires_at` (403 `key_expired`). */
export class KeyExpiredError extends ForbiddenError {
  constructor() {
    super('key_expired', 'The API key has expired');
  }
}

/** A credential without the scope the request needs, or a key asked for with scopes the credential lacks (403 `insufficient_scope`). */
export class InsufficientScopeError extends ForbiddenError {
  constructor(message: string) {
    super('insufficient_scope', message);
  }
}

/** The caller's plan does not include this route (403 `endpoint_not_in_plan`). */
export class EndpointNotInPlanError extends ForbiddenError {
  constructor(method: string, path: string, plan: string) {
    super('endpoint_not_in_plan', `${method} ${path} is not included in the ${plan} plan`);
  }
}

/** A key or grant naming a plan that does not exist (422 `unknown_plan`); `details` where the route names the field. */
export class UnknownPlanError extends UnprocessableError {
  constructor(planId: number, details?: FieldProblem[]) {
    super('unknown_plan', `Plan ${planId} does not exist`, details);
  }
}

/** A key asked for on behalf of a user who does not exist (422 `unknown_user`). */
export class UnknownUserError extends UnprocessableError {
  constructor(userId: number) {
    super('unknown_user', `User ${userId} does not exist`);
  }
}

/** A consumer already holds as many live keys as one may (409 `too_many_keys`, the cap in `details.limit`). */
export class TooManyKeysError extends ConflictError {
  constructor(limit: number, held: number, reroll: boolean) {
    const way = reroll
      ? 'revoke a key you no longer need (DELETE /api/v1/keys/{id}), or reroll with grace_seconds 0 so the old key ends at once'
      : 'revoke a key you no longer need (DELETE /api/v1/keys/{id}) first';
    super('too_many_keys', `A consumer may hold ${limit} live API key${limit === 1 ? '' : 's'} and you have ${held}: ${way}`, { limit });
  }
}

/** A plan created or renamed with another plan's name (409 `name_taken`, on `name`). */
export class PlanNameTakenError extends ConflictError {
  constructor(name: string) {
    super('name_taken', `A plan named "${name}" already exists`, [{ field: 'name', message: 'is already the name of another plan' }]);
  }
}

/** A yearly price the plan cannot have, such as one without a monthly price (400 `validation_error`, on `price_yearly`). */
export class YearlyPriceInvalidError extends InvalidError {
  constructor(problem: string) {
    super('validation_error', `price_yearly: ${problem}`, [{ field: 'price_yearly', message: problem }]);
  }
}

/** An admin form naming a user or plan that does not exist (400 `validation_error`, each such field in `details`). */
export class NoSuchUserOrPlanError extends InvalidError {
  constructor(fields: ReadonlyArray<'user_id' | 'plan_id'>) {
    const problems = fields.map((field) => ({
      field,
      message: field === 'user_id' ? 'must be an existing user' : 'must be an existing plan',
    }));
    super('validation_error', summarizeFields(problems), problems);
  }
}

/** A usage report whose `from` is not before its `to` (400 `validation_error`, on `from`). */
export class UsageRangeReversedError extends InvalidError {
  constructor() {
    super('validation_error', 'from must be before to', [{ field: 'from', message: 'must be before to' }]);
  }
}

/** A usage report with more than `maxPoints` points at its granularity (400 `validation_error`, on `granularity`). */
export class UsageRangeTooFineError extends InvalidError {
  constructor(granularity: string, maxPoints: number) {
    super('validation_error', `the range holds more than ${maxPoints} ${granularity}s; use a coarser granularity`, [
      { field: 'granularity', message: 'too fine for the range' },
    ]);
  }
}
