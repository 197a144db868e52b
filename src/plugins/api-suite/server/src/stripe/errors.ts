import { InvalidError } from '../errors';

/** A Stripe webhook without a `Stripe-Signature` header (400 `missing_signature`). */
export class MissingSignatureError extends InvalidError {
  constructor() {
    super('missing_signature', 'Missing Stripe-Signature header');
  }
}

/** A Stripe webhook whose signature does not verify over the raw body (400 `invalid_signature`). */
export class InvalidSignatureError extends InvalidError {
  constructor() {
    super('invalid_signature', 'Invalid Stripe signature');
  }
}

/** A verified Stripe webhook whose body is not JSON, or not an event with an id, a type and `data.object` (400 `invalid_payload`). */
export class InvalidPayloadError extends InvalidError {
  constructor(message = 'Invalid payload') {
    super('invalid_payload', message);
  }
}
