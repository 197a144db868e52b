import { ConflictError, InvalidError, UnprocessableError } from '../../errors';
import { ApiError, summarizeFields, type FieldProblem } from '../../http/errors';

/** Recovering the deliveries of a disabled subscription (409 `subscription_disabled`): it must be re-enabled first. */
export class SubscriptionDisabledError extends ApiError {
  constructor() {
    super(409, 'subscription_disabled', 'The subscription is disabled: re-enable it (is_active: true) before recovering its deliveries');
  }
}

/** Event types that are unknown, switched off, or not the caller's to name (422 `invalid_events`, listing them). */
export class InvalidEventsError extends UnprocessableError {
  constructor(events: string[], message: string) {
    super('invalid_events', message, { invalid_events: events });
  }
}

/** Payloads published by hand that do not fit their type's schema (422 `invalid_payload`, with every problem). */
export class InvalidPayloadError extends UnprocessableError {
  constructor(problems: FieldProblem[]) {
    super('invalid_payload', summarizeFields(problems.slice(0, 20)), { details: problems });
  }
}

/** An event type's example payload that does not fit the type's schema (400 `validation_error`). */
export class InvalidExamplePayloadError extends InvalidError {
  constructor(problems: FieldProblem[]) {
    super('validation_error', summarizeFields(problems), problems);
  }
}

/** A payload filter that cannot be applied, at `path` (422 `invalid_filter`). */
export class InvalidFilterError extends UnprocessableError {
  constructor(path: string, problem: string) {
    super('invalid_filter', `The filter cannot be applied at ${path}: ${problem}`, { path });
  }
}

/** Retrying a delivery of a subscription that is not active (409 `subscription_inactive`). */
export class SubscriptionInactiveError extends ConflictError {
  constructor(message: string) {
    super('subscription_inactive', message);
  }
}

/** Creating a subscription when the consumer holds as many as their plan allows (409 `too_many_subscriptions`, with the `limit`). */
export class TooManySubscriptionsError extends ConflictError {
  constructor(plan: string, limit: number, held: number) {
    const message =
      limit === 0
        ? `The ${plan} plan includes no webhook subscriptions: move to a plan that does to create one`
        : `The ${plan} plan allows ${limit} webhook subscription${limit === 1 ? '' : 's'} and you have ${held}: ` +
          'delete one you no longer need (DELETE /api/webhooks/subscriptions/{id}) or move to a plan that allows more';
    super('too_many_subscriptions', message, { limit });
  }
}
