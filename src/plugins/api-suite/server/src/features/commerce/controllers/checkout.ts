import type { Core } from '@strapi/strapi';
import type { Context } from 'koa';
import { ApiError, respondErrorList } from '../../../http/errors';
import { getService } from '../../../utils';
import { parseCheckout } from '../validation';
import { userOf } from './caller';

/** `POST /api/checkout` (docs/commerce.md#checkout): 200 `{ data: { orderId, paymentUrl, total } }`. */
export default ({ strapi }: { strapi: Core.Strapi }) => ({
  async create(ctx: Context) {
    await respondErrorList(
      ctx,
      async () => {
        const buyer = await userOf(strapi, ctx);
        const input = parseCheckout(ctx.request.body);
        const result = await getService(strapi, 'checkout').place({ userId: buyer.userId }, input);
        ctx.status = 200;
        ctx.body = { data: result };
      },
      (error) => {
        strapi.log.error(`[api-suite] checkout failed: ${(error as Error).stack ?? String(error)}`);
        return new ApiError(500, 'checkout_failed', 'Checkout failed');
      }
    );
  },
});
