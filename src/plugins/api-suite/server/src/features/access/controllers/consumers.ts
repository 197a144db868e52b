import type { Core } from '@strapi/strapi';
import type { Context } from 'koa';
import { UIDS } from '../../../constants';
import { input } from '../../../http/input';
import { getService } from '../../../utils';
import { inputs } from '../routes/inputs';
import { NotFoundError, UnprocessableError } from '../../../errors';

export default ({ strapi }: { strapi: Core.Strapi }) => ({
  /**
   * `PATCH /api/v1/consumers/{userId}` (administrators): grant a consumer a plan, or take the
   * grant back with null. A live subscription still comes first; the answer says which plan
   * the consumer is on now and why.
   */
  async update(ctx: Context) {
    const { userId } = input(ctx, inputs.updateConsumer).params;
    if ((await strapi.db.query(UIDS.user).count({ where: { id: userId } })) === 0) throw new NotFoundError('Consumer');
    // Read once the consumer is found (deferred): one that does not exist is a 404 whatever the body.
    const { body } = input(ctx, inputs.updateConsumer);
    if (body.plan_id !== null && !(await getService(strapi, 'plans').exists(body.plan_id))) {
      throw new UnprocessableError('unknown_plan', `Plan ${body.plan_id} does not exist`, [
        { field: 'plan_id', message: 'must be an existing plan' },
      ]);
    }
    ctx.body = { data: await getService(strapi, 'consumer-plans').grantAndDescribe(userId, body.plan_id) };
  },
});
