import { InvalidError, UnauthenticatedError } from '../../errors';
import { ApiError } from '../../http/errors';

/** Too many wrong passwords on closing an account (429 `too_many_attempts`, with `Retry-After`). */
export class TooManyAttemptsError extends ApiError {
  constructor(waitSeconds: number) {
    super(429, 'too_many_attempts', `Too many wrong passwords: try again in ${waitSeconds} seconds`, undefined, {
      'Retry-After': String(waitSeconds),
    });
  }
}

/** Closing the account of a user who is gone by the time the request is served (401 `invalid_token`, as for any gone user's token). */
export class UserGoneError extends UnauthenticatedError {
  constructor() {
    super('invalid_token', 'The access token is not valid or has expired');
  }
}

/** Closing an account with a wrong password, or for an account that has none (400 `invalid_password`). */
export class WrongPasswordError extends InvalidError {
  constructor() {
    super('invalid_password', 'The password is not correct');
  }
}
