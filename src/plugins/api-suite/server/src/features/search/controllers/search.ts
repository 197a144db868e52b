import type { Core } from '@strapi/strapi';
import type { Context } from 'koa';
import { ApiError, respondCommerce } from '../../../http/errors';
import { getService } from '../../../utils';
import { MAX_QUERY_LENGTH, MIN_QUERY_LENGTH } from '../services/search';

/**
 * `GET /api/search?q&collections` (contract section 8), public: `{ data: [{ id, <fields>,
 * _collection }] }`; `q` shorter than 2 characters (once trimmed) answers `{ data: [] }`.
 */
export default ({ strapi }: { strapi: Core.Strapi }) => ({
  async find(ctx: Context) {
    await respondCommerce(ctx, async () => {
      const q = queryText(ctx.query.q);
      if (q === undefined || [...q].length < MIN_QUERY_LENGTH) {
        ctx.body = { data: [] };
        return;
      }
      const search = getService(strapi, 'search');
      ctx.body = { data: await search.search(q, search.select(collectionNames(ctx.query.collections))) };
    });
  },
});

function queryText(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw new ApiError(400, 'validation_error', 'q must be given once, as text');
  const q = value.trim();
  if ([...q].length > MAX_QUERY_LENGTH) throw new ApiError(400, 'validation_error', `q must be at most ${MAX_QUERY_LENGTH} characters`);
  return q;
}

/** "articles, pages" (or the parameter repeated) → ["articles", "pages"]; nothing named → undefined. */
function collectionNames(value: unknown): string[] | undefined {
  const parts = (Array.isArray(value) ? value : [value]).filter((part): part is string => typeof part === 'string');
  const names = parts.flatMap((part) => part.split(',')).map((name) => name.trim()).filter(Boolean);
  return names.length > 0 ? names : undefined;
}
