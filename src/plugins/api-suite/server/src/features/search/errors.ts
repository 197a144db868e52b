import { InvalidError } from '../../errors';

/**
 * The search feature's refusals, each named by what went wrong (one small class each); the route
 * family's error middleware writes the body.
 */

/** A search query that cannot be used as sent (400 `validation_error`), answered with its first problem alone. */
export class SearchQueryInvalidError extends InvalidError {
  constructor(problem: string) {
    super('validation_error', problem);
  }
}
