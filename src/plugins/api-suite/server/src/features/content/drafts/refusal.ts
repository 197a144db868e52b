import type { Core } from '@strapi/strapi';
import { ApiError, nestedErrorBody } from '../../../http/errors';

/**
 * A content-API caller who is not staff asked for drafts (docs/content-api.md#drafts): 403
 * `drafts_not_allowed` in the `/api/v1` body, as the plugin's other refusals on the content API.
 */
export class DraftsNotAllowedError extends ApiError {
  constructor() {
    super(403, 'drafts_not_allowed', "Drafts are only served to the site's staff: leave out status, or ask for status=published");
    this.name = 'DraftsNotAllowedError';
  }
}

/**
 * Answers the refusal, which the document service throws from deep inside a controller. Nothing
 * else would: Strapi's error middleware turns an error it does not know into a 500, and the
 * plugin's access middleware, which answers the content API's other refusals, is only there on a
 * site that lists it in config/middlewares and passes on what it did not raise itself.
 *
 * Installed at the plugin's bootstrap, when Strapi has already added every middleware of the
 * site's list and has not yet mounted its router (it does so when it starts listening): this runs
 * inside all of them and just outside the routes, whatever the site's list says.
 */
export function answerDraftRefusals(strapi: Core.Strapi): void {
  strapi.server.use(async (ctx, next) => {
    try {
      await next();
    } catch (caught) {
      if (!(caught instanceof DraftsNotAllowedError)) throw caught;
      ctx.status = caught.status;
      ctx.body = nestedErrorBody(caught);
    }
  });
}
