import type { Core } from '@strapi/strapi';
import { withFamilyShape, type ApiError } from '../../../http/errors';
import { OAuthError } from '../services/oauth';

/**
 * The token route's body for what is not an OAuthError: what the access guard answers there (a
 * body it cannot parse, the database or Redis away, a method the route does not have), in
 * RFC 6749 section 5.2's shape, `temporarily_unavailable` for a 503 and `invalid_request` else.
 */
export const oauthErrorBody = (error: ApiError) => ({
  error: error.status === 503 ? 'temporarily_unavailable' : 'invalid_request',
  error_description: error.message,
});

/**
 * `plugin::api-suite.oauth-errors`, the token route's error middleware: RFC 6749 section 5.2's
 * body (`{ error, error_description }`), with a Basic challenge on 401 (section 5.2 asks for
 * one when the client authenticated with Basic or may). Any other fault goes on, to the access
 * guard, which answers it in `oauthErrorBody`, as it does its own refusals on this route.
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
  { body: oauthErrorBody, refusalsToo: true }
);
