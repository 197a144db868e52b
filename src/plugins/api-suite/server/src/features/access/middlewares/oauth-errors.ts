import type { Core } from '@strapi/strapi';
import { oauthErrorBody, withFamilyShape } from '../../../http/errors';
import { OAuthError } from '../services/oauth';

/**
 * `plugin::api-suite.oauth-errors`, the token route's error middleware: RFC 6749 section 5.2's
 * body (`{ error, error_description }`), with a Basic challenge on 401 (section 5.2 asks for
 * one when the client authenticated with Basic or may). Any other fault goes on, to the access
 * guard, which answers it in `oauthErrorBody` (http/errors.ts), as it does its own refusals on this route.
 */
export const oauthErrors = withFamilyShape(
  (): Core.MiddlewareHandler => async (ctx, next) => {
    try {
      await next();
    } catch (error) {
      if (!(error instanceof OAuthError)) throw error;
      if (error.status === 401) ctx.set('WWW-Authenticate', 'Basic realm="api", charset="UTF-8"');
      ctx.status = error.status;
      ctx.body = { error: error.error, error_description: error.description };
    }
  },
  { body: oauthErrorBody, refusalsToo: true, validationCode: 'invalid_request', accepts: 'json-or-form' }
);
