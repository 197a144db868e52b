import type { Core } from '@strapi/strapi';
import type { Context } from 'koa';
import { ApiError, respondFlatError } from '../../../http/errors';
import { toBool } from '../../../db';
import { getService } from '../../../utils';
import { consumerOf } from '../../../http/consumer';
import type { DeliveryRow } from '../services/deliveries';
import type { SubscriptionRow } from '../services/subscriptions';
import { deliveriesQuery, recoverBody, uuidParam } from '../validation';

/** Delivery records: per subscription, one with its attempts, manual retry, and recovering a time range. */
export default ({ strapi }: { strapi: Core.Strapi }) => {
  const subscriptions = () => getService(strapi, 'webhook-subscriptions');
  const deliveries = () => getService(strapi, 'webhook-deliveries');

  const ownedSubscription = async (ctx: Context): Promise<SubscriptionRow> => {
    const caller = consumerOf(ctx);
    const parsed = uuidParam.safeParse(ctx.params.id);
    const row = parsed.success ? await subscriptions().get(parsed.data) : null;
    if (!row || (row.consumer_id !== caller.consumerId && !caller.isAdmin)) throw new ApiError(404, 'not_found', 'Subscription not found');
    return row;
  };

  const ownedDelivery = async (ctx: Context): Promise<{ delivery: DeliveryRow; subscription: SubscriptionRow }> => {
    const caller = consumerOf(ctx);
    const parsed = uuidParam.safeParse(ctx.params.id);
    const delivery = parsed.success ? await deliveries().get(parsed.data) : null;
    const subscription = delivery ? await subscriptions().getById(delivery.subscription_id) : null;
    if (!delivery || !subscription || (subscription.consumer_id !== caller.consumerId && !caller.isAdmin)) {
      throw new ApiError(404, 'not_found', 'Delivery not found');
    }
    return { delivery, subscription };
  };

  return {
    async find(ctx: Context) {
      await respondFlatError(ctx, async () => {
        const subscription = await ownedSubscription(ctx);
        const query = deliveriesQuery.parse(ctx.query);
        const { rows, total } = await deliveries().list(subscription.id, query);
        ctx.body = {
          data: rows.map((row) => deliveries().present(row, subscription.uuid)),
          meta: { page: query.page, limit: query.limit, total },
        };
      });
    },

    async findOne(ctx: Context) {
      await respondFlatError(ctx, async () => {
        const { delivery, subscription } = await ownedDelivery(ctx);
        ctx.body = { ...deliveries().present(delivery, subscription.uuid), attempts: await deliveries().attemptsOf(delivery.uuid) };
      });
    },

    async retry(ctx: Context) {
      await respondFlatError(ctx, async () => {
        const { delivery, subscription } = await ownedDelivery(ctx);
        if (!toBool(subscription.is_active)) {
          throw new ApiError(
            409,
            'subscription_inactive',
            'The subscription is disabled: re-enable it with PATCH { "is_active": true } first'
          );
        }
        await deliveries().retry(delivery);
        ctx.status = 202;
        ctx.body = { delivery_id: delivery.uuid, status: 'queued' };
      });
    },

    async recover(ctx: Context) {
      await respondFlatError(ctx, async () => {
        const subscription = await ownedSubscription(ctx);
        const body = recoverBody.parse(ctx.request.body ?? {});
        ctx.status = 202;
        ctx.body = { deliveries: await deliveries().recoverFailed(subscription, body.since, body.until ?? new Date()) };
      });
    },
  };
};
