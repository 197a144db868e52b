import { ApiError } from '../../http/errors';
import { ConflictError, InvalidError, UnavailableError } from '../../errors';

/** Stripe refused or was out of reach (502 `payment_provider_error`): the consumer may try again; Stripe's reason is in the log only. */
export class PaymentProviderError extends ApiError {
  constructor(message = 'Stripe could not complete the request; try again in a moment') {
    super(502, 'payment_provider_error', message);
  }
}

/** A plan that does not exist, is the default plan, or is not for sale (400 `invalid_plan`). */
export class InvalidPlanError extends InvalidError {
  constructor(planId: number, reason = 'does not exist') {
    super('invalid_plan', `Plan ${planId} ${reason}`);
  }
}

/** A yearly purchase of a plan that has no yearly price (400 `interval_not_offered`). */
export class IntervalNotOfferedError extends InvalidError {
  constructor(planId: number) {
    super('interval_not_offered', `Plan ${planId} has no yearly price: it is sold monthly only`);
  }
}

/** A checkout by a consumer who already has a live subscription (409 `already_subscribed`). */
export class AlreadySubscribedError extends ConflictError {
  constructor() {
    super('already_subscribed', 'You already have a subscription: change its plan with POST /api/v1/billing/change-plan');
  }
}

/** A change of plan by a consumer with no live subscription (409 `no_subscription`). */
export class NoSubscriptionError extends ConflictError {
  constructor() {
    super('no_subscription', 'You have no subscription: buy a plan with POST /api/v1/billing/checkout');
  }
}

/** The Billing Portal asked for by a consumer who has bought nothing yet (409 `no_customer`). */
export class NoCustomerError extends ConflictError {
  constructor() {
    super('no_customer', 'You have not bought anything yet: buy a plan with POST /api/v1/billing/checkout');
  }
}

/** Billing, or the plan's price, not configured or provisioned in Stripe yet (503 `billing_not_configured`). */
export class BillingNotConfiguredError extends UnavailableError {
  constructor(message = 'Billing is not available on this site') {
    super('billing_not_configured', message);
  }
}
