import { UnprocessableError } from '../../errors';
import { ApiError } from '../../http/errors';

/** A filter whose operator is given more operators instead of a value (400 `ValidationError`, as Strapi's content API words it). */
export class NestedFilterOperatorError extends ApiError {
  constructor(at: string) {
    super(400, 'ValidationError', `Invalid filter at filters${at}: an operator takes a value, not more operators`);
  }
}

/** A body to users-permissions' `/api/auth/*` that is neither JSON nor a form (400, in the family's validation code). */
export class NotJsonOrFormError extends ApiError {
  constructor(code: string) {
    super(400, code, 'Send the body as JSON (Content-Type: application/json) or as a form');
  }
}

/** A webhook endpoint or scraper start URL whose host resolves to an address the outbound guard forbids (422 `endpoint_not_allowed`). */
export class EndpointRefusedError extends UnprocessableError {
  constructor(host: string) {
    super(
      'endpoint_not_allowed',
      `${host} resolves to a loopback, private or otherwise reserved address, which this server does not deliver to`
    );
  }
}
