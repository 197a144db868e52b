/** Stripe's error body: `{ error: { type, message, param?, code? } }`. */
export interface StripeErrorBody {
  error: { type: string; message: string; param?: string; code?: string };
}

/** An error the stub answers as Stripe would: thrown by a handler, sent by the router. */
export class StubError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    message: string,
    readonly param?: string,
    readonly code?: string
  ) {
    super(message);
  }

  body(): StripeErrorBody {
    const error: StripeErrorBody['error'] = { type: this.type, message: this.message };
    if (this.param !== undefined) error.param = this.param;
    if (this.code !== undefined) error.code = this.code;
    return { error };
  }
}

/** 400 invalid_request_error. */
export const invalid = (message: string, param?: string, code?: string): StubError =>
  new StubError(400, 'invalid_request_error', message, param, code);

export const missing = (param: string): StubError => invalid(`Missing required param: ${param}.`, param, 'parameter_missing');

export const unknownParam = (param: string): StubError =>
  invalid(`Received unknown parameter: ${param}. (The Stripe stub accepts only the parameters it models.)`, param, 'parameter_unknown');

/** An object named in the request that does not exist: 404 for the URL's own id, 400 for a parameter. */
export const noSuch = (kind: string, id: string, param?: string): StubError =>
  new StubError(param ? 400 : 404, 'invalid_request_error', `No such ${kind}: '${id}'`, param ?? 'id', 'resource_missing');

export const onlyOneOf = (...params: string[]): StubError =>
  invalid(`You may only specify one of these parameters: ${params.join(', ')}.`, params[1]);

/** The object, or the 404 Stripe answers for an unknown id in the URL. */
export function found<T>(value: T | undefined, kind: string, id: string): T {
  if (value === undefined) throw noSuch(kind, id);
  return value;
}

/**
 * Stripe's refusal of recurring prices of different intervals on one subscription in classic billing
 * mode, and on one Checkout Session whatever the mode (Stripe makes mixed-interval subscriptions through
 * the Subscriptions, Subscription Schedules and Quotes APIs, in flexible billing mode, not through Checkout).
 */
export const mixedIntervals = (param: string): StubError =>
  invalid('Currency and interval fields must match across all plans on this subscription. Found mismatch in interval field.', param);
