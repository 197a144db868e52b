import type { Core } from '@strapi/strapi';
import type { Context } from 'koa';
import { ApiError, respondErrorList } from '../../../http/errors';
import { getService } from '../../../utils';
import { isSearchable, searchQuery } from '../validation';

/**
 * `GET /api/search?q&collections`, public: `{ data: [{ id, <fields>, _collection }] }`; `q`
 * shorter than 2 characters (once trimmed) answers `{ data: [] }`.
 */
export default ({ strapi }: { strapi: Core.Strapi }) => ({
  async find(ctx: Context) {
    await respondErrorList(ctx, async () => {
      const parsed = searchQuery.safeParse(ctx.query);
      // Each problem's message names its parameter already ("q must be at most 200 characters").
      if (!parsed.success) throw new ApiError(400, 'validation_error', parsed.error.issues[0].message);
      const { q, collections } = parsed.data;
      if (!isSearchable(q)) {
        ctx.body = { data: [] };
        return;
      }
      const search = getService(strapi, 'search');
      ctx.body = { data: await search.search(q, search.select(collections)) };
    });
  },
});
