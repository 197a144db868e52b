import { factories, type Core } from '@strapi/strapi';
import { isFeedQuery, type FeedService } from '../services/feed';

type Context = Parameters<Core.ControllerHandler>[0];

// What the Public role sees of products (published, not deleted) is enforced for every content-API read by src/lib/visibility.ts.
export default factories.createCoreController('api::product.product', ({ strapi }) => ({
  /** The product feed shares the collection's URL (docs/search-feed-cors.md#product-feed); Strapi's query convention still wins when used. */
  async find(ctx: Context) {
    const query = (ctx.query ?? {}) as Record<string, unknown>;
    if (!isFeedQuery(query)) return super.find(ctx);
    const { status, body } = await (strapi.service('api::product.feed') as unknown as FeedService).answer(query);
    ctx.status = status;
    ctx.body = body;
    return undefined;
  },
}));
