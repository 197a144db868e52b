import { factories, type Core } from '@strapi/strapi';
import { visibleOnly } from '../../../lib/visibility';
import { isFeedQuery, type FeedService } from '../services/feed';

type Context = Parameters<Core.ControllerHandler>[0];

export default factories.createCoreController('api::product.product', ({ strapi }) => {
  const visible = visibleOnly(strapi, 'api::product.product', { visible: { published: true, deleted: false } });
  type CoreController = ThisParameterType<typeof visible.find>;

  return {
    ...visible,

    /** The product feed shares the collection's URL (contract section 8); Strapi's query convention still wins when used. */
    async find(this: CoreController, ctx: Context) {
      const query = (ctx.query ?? {}) as Record<string, unknown>;
      if (!isFeedQuery(query)) return visible.find.call(this, ctx);
      const { status, body } = await (strapi.service('api::product.feed') as unknown as FeedService).answer(query);
      ctx.status = status;
      ctx.body = body;
      return undefined;
    },
  };
});
