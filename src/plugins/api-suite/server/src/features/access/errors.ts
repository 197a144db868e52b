import { ApiError } from '../../http/errors';

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
