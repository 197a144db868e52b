import type { Core } from '@strapi/strapi';
import type { Context } from 'koa';
import { UIDS } from '../../../constants';
import { ApiError, respondNestedError } from '../../../http/errors';
import { consumerOf } from '../../../http/consumer';
import { getService } from '../../../utils';
import { grantPlanBody, userIdParam } from '../validation';

export default ({ strapi }: { strapi: Core.Strapi }) => ({
  /**
   * `PATCH /api/v1/consumers/{userId}` (administrators): grant a consumer a plan, or take the
   * grant back with null. A live subscription still comes first; the answer says which plan
   * the consumer is on now and why.
   */
  async update(ctx: Context) {
    await respondNestedError(ctx, async () => {
      const caller = consumerOf(ctx);
      if (!caller.isAdmin) throw new ApiError(403, 'forbidden', 'Only administrators may grant plans');
      const parsed = userIdParam.safeParse(ctx.params.userId);
      if (!parsed.success || (await strapi.db.query(UIDS.user).count({ where: { id: parsed.data } })) === 0)
        throw new ApiError(404, 'not_found', 'Consumer not found');
      const body = grantPlanBody.parse(ctx.request.body ?? {});
      if (body.plan_id !== null && !(await getService(strapi, 'plans').exists(body.plan_id))) {
        throw new ApiError(422, 'unknown_plan', `Plan ${body.plan_id} does not exist`, [
          { field: 'plan_id', message: 'must be an existing plan' },
        ]);
      }
      ctx.body = { data: await getService(strapi, 'consumer-plans').grantAndDescribe(parsed.data, body.plan_id) };
    });
  },
});
