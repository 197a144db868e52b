import { ConflictError, ForbiddenError, InvalidError, UnprocessableError } from '../../errors';

/** Running a scraper that has a run pending or running (409 `already_running`, naming the run when known). */
export class ScraperAlreadyRunningError extends ConflictError {
  constructor(scraper: string, runId: number | null) {
    super('already_running', `${scraper} is already running${runId ? ` (run ${runId})` : ''}`);
  }
}

/** Stopping a scraper that has no run to stop (409 `not_running`). */
export class ScraperNotRunningError extends ConflictError {
  constructor(scraper: string) {
    super('not_running', `${scraper} is not running`);
  }
}

/** An administrator creating a scraper for a `user_id` that names no user (400 `validation_error`). */
export class UnknownOwnerError extends InvalidError {
  constructor() {
    super('validation_error', 'user_id: must be an existing user', [{ field: 'user_id', message: 'must be an existing user' }]);
  }
}

/** A `proxy_pool` the site has not configured (400 `validation_error`, listing the configured pools). */
export class UnknownProxyPoolError extends InvalidError {
  constructor(pools: string[]) {
    const known = pools.length === 0 ? 'no proxy pool is configured' : `configured pools: ${pools.join(', ')}`;
    super('validation_error', `proxy_pool: must name a configured proxy pool (${known})`, [
      { field: 'proxy_pool', message: `must name a configured proxy pool (${known})` },
    ]);
  }
}

/** A `change_detection.key` that is not one of the items' fields (400 `validation_error`). */
export class InvalidChangeKeyError extends InvalidError {
  constructor(fields: string[]) {
    const message = `must be one of the items' fields (${fields.join(', ')})`;
    super('validation_error', `change_detection.key: ${message}`, [{ field: 'change_detection.key', message }]);
  }
}

/** A target that does not fit the site's schema or the items' fields, at `path` (422 `invalid_target`). */
export class InvalidTargetError extends UnprocessableError {
  constructor(path: string, message: string) {
    super('invalid_target', `${path}: ${message}`, { path });
  }
}

/** Someone other than an administrator setting a scraper's target, or changing a scraper that has one (403 `target_not_allowed`). */
export class TargetNotAllowedError extends ForbiddenError {
  constructor(message: string) {
    super('target_not_allowed', message);
  }
}
