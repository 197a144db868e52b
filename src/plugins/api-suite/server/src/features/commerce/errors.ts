import { ConflictError, FailedError, InvalidError, UnauthenticatedError } from '../../errors';

/** A checkout or report route without a user token as `Authorization: Bearer <jwt>` (401 `unauthenticated`). */
export class UserTokenRequiredError extends UnauthenticatedError {
  constructor() {
    super('unauthenticated', 'Authentication required: send a user token as Authorization: Bearer <jwt>');
  }
}

/** A checkout with no items, or none at all (400 `cart_empty`). */
export class CartEmptyError extends InvalidError {
  constructor() {
    super('cart_empty', 'Cart is empty');
  }
}

/** A cart naming products that do not exist or are not for sale (400 `validation_error`), each in `details`. */
export class UnknownProductsError extends InvalidError {
  constructor(ids: readonly number[], indexes?: readonly number[]) {
    const details = ids.map((id, position) => ({
      field: indexes ? `items.${indexes[position]}.product_id` : 'items',
      message: `product ${id} does not exist or is not for sale`,
    }));
    super('validation_error', details.map((detail) => `${detail.field}: ${detail.message}`).join('; '), details);
  }
}

/** An order whose total is more than Stripe takes in one Checkout Session (400 `total_too_large`). */
export class TotalTooLargeError extends InvalidError {
  constructor(maxTotalMinor: number) {
    super('total_too_large', `The order total exceeds ${(maxTotalMinor / 100).toFixed(2)}`);
  }
}

/** Fewer left of the named products than the cart asks for (409 `insufficient_stock`); `itemised` lists each in `details`. */
export class InsufficientStockError extends ConflictError {
  constructor(names: readonly string[], { itemised = false }: { itemised?: boolean } = {}) {
    const each = names.map((name) => `Not enough stock for "${name}"`);
    super('insufficient_stock', each.join('; '), itemised ? each : undefined);
  }
}

/** The consumer's unpaid checkouts already hold as many orders, or units of a product, as one may (409 `too_many_held`). */
export class TooManyHeldError extends ConflictError {
  constructor(message: string) {
    super('too_many_held', message);
  }
}

/** A checkout that could not be made: Stripe not configured or refusing, or a fault (500 `checkout_failed`); the cause is logged. */
export class CheckoutFailedError extends FailedError {
  constructor() {
    super('checkout_failed', 'Checkout failed');
  }
}

/** A sales report that could not be made (500 `report_failed`); the cause is logged. */
export class ReportFailedError extends FailedError {
  constructor() {
    super('report_failed', 'The report could not be made');
  }
}

/** The raw body of a Stripe webhook is not kept, so no signature can be checked (500 `raw_body_unavailable`). */
export class RawBodyUnavailableError extends FailedError {
  constructor() {
    super('raw_body_unavailable', 'Webhook receiver misconfigured');
  }
}

/** A Stripe webhook while Stripe is not configured to verify it (500 `stripe_not_configured`). */
export class StripeNotConfiguredError extends FailedError {
  constructor() {
    super('stripe_not_configured', 'Webhook receiver misconfigured');
  }
}

/** A verified Stripe event that could not be applied (500 `event_not_processed`): Stripe retries it. */
export class EventNotProcessedError extends FailedError {
  constructor() {
    super('event_not_processed', 'Event not processed');
  }
}
