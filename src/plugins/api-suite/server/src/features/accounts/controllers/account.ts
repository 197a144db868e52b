import type { Core } from '@strapi/strapi';
import type { Context } from 'koa';
import { consumerOf } from '../../../http/consumer';
import { input } from '../../../http/input';
import { getService } from '../../../utils';
import { inputs } from '../routes/inputs';

/** `/api/v1/account*` (docs/accounts.md): the signed-in consumer's copy of their data, and closing their account. */
export default ({ strapi }: { strapi: Core.Strapi }) => ({
  async export(ctx: Context) {
    const { userId } = consumerOf(ctx);
    const document = await getService(strapi, 'account-export').export(userId);
    // A file to keep: a browser following the link saves it rather than showing it.
    ctx.set('Content-Disposition', `attachment; filename="account-${document.profile.consumer_id}.json"`);
    ctx.body = document;
  },

  async delete(ctx: Context) {
    const { userId } = consumerOf(ctx);
    const { body } = input(ctx, inputs.deleteAccount);
    await getService(strapi, 'account-closure').closeOwn(userId, body.password);
    ctx.status = 204;
    ctx.body = null;
  },
});
