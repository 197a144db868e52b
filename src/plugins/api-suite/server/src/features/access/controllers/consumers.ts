import type { Core } from '@strapi/strapi';
import type { Context } from 'koa';
import { input } from '../../../http/input';
import { getService } from '../../../utils';
import { inputs } from '../routes/inputs';
import { UnknownPlanError } from '../errors';

export default ({ strapi }: { strapi: Core.Strapi }) => ({
  /**
   * `PATCH /api/v1/consumers/{userId}` (administrators): grant a consumer a plan, or take the
   * grant back with null. A live subscription still comes first; the answer says which plan
   * the consumer is on now and why.
   */
  async update(ctx: Context) {
    const { row, body } = input(ctx, inputs.updateConsumer);
    const { userId } = row;
    if (body.plan_id !== null && !(await getService(strapi, 'plans').exists(body.plan_id))) {
      throw new UnknownPlanError(body.plan_id, [{ field: 'plan_id', message: 'must be an existing plan' }]);
    }
    ctx.body = { data: await getService(strapi, 'consumer-plans').grantAndDescribe(userId, body.plan_id) };
  },
});
