import type { Core } from '@strapi/strapi';
import type { Context } from 'koa';
import { errorFamily, errorListBody } from '../../../http/errors';
import { getService } from '../../../utils';
import { input } from '../../../http/input';
import { inputs } from '../routes/inputs';
import { CheckoutFailedError } from '../errors';

/** `plugin::api-suite.checkout-errors`: `{ errors: [{ message }] }`, a fault included ("Checkout failed", logged). */
export const checkoutErrors = errorFamily(errorListBody, (error, strapi) => {
  strapi.log.error(`[api-suite] checkout failed: ${(error as Error).stack ?? String(error)}`);
  return new CheckoutFailedError();
});

/** `POST /api/checkout` (docs/commerce.md#checkout): 200 `{ data: { orderId, paymentUrl, total } }`. */
export default ({ strapi }: { strapi: Core.Strapi }) => ({
  async create(ctx: Context) {
    const { row: buyer, body } = input(ctx, inputs.checkout);
    const result = await getService(strapi, 'checkout').place({ userId: buyer.userId }, body);
    ctx.status = 200;
    ctx.body = { data: result };
  },
});
