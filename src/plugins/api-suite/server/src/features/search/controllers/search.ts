import type { Core } from '@strapi/strapi';
import type { Context } from 'koa';
import { input } from '../../../http/input';
import { getService } from '../../../utils';
import { inputs } from '../routes/inputs';
import { isSearchable } from '../validation';

/**
 * `GET /api/search?q&collections`, public: `{ data: [{ id, <fields>, _collection }] }`; `q`
 * shorter than 2 characters (once trimmed) answers `{ data: [] }`.
 */
export default ({ strapi }: { strapi: Core.Strapi }) => ({
  async find(ctx: Context) {
    const { q, collections } = input(ctx, inputs.search).query;
    if (!isSearchable(q)) {
      ctx.body = { data: [] };
      return;
    }
    const search = getService(strapi, 'search');
    ctx.body = { data: await search.search(q, search.select(collections)) };
  },
});
