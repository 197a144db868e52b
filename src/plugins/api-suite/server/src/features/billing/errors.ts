import { ApiError } from '../../http/errors';

/** Stripe refused or was out of reach (502 `payment_provider_error`): the consumer may try again; Stripe's reason is in the log only. */
export class PaymentProviderError extends ApiError {
  constructor(message = 'Stripe could not complete the request; try again in a moment') {
    super(502, 'payment_provider_error', message);
  }
}
