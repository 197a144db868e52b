import { ApiError } from '../../http/errors';

/** Recovering the deliveries of a disabled subscription (409 `subscription_disabled`): it must be re-enabled first. */
export class SubscriptionDisabledError extends ApiError {
  constructor() {
    super(409, 'subscription_disabled', 'The subscription is disabled: re-enable it (is_active: true) before recovering its deliveries');
  }
}
