import { ApiError } from '../../http/errors';

/** Too many wrong passwords on closing an account (429 `too_many_attempts`, with `Retry-After`). */
export class TooManyAttemptsError extends ApiError {
  constructor(waitSeconds: number) {
    super(429, 'too_many_attempts', `Too many wrong passwords: try again in ${waitSeconds} seconds`, undefined, {
      'Retry-After': String(waitSeconds),
    });
  }
}
