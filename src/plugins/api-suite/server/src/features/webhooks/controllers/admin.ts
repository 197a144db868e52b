import type { Core } from '@strapi/strapi';
import type { Context } from 'koa';
import { ALL_CONSUMERS } from '../../../constants';
import { ApiError, respondStrapiError, summarizeFields } from '../../../http/errors';
import { toBool } from '../../../db';
import { getService } from '../../../utils';
import type { DeliveryRow } from '../services/deliveries';
import type { SubscriptionRow } from '../services/subscriptions';
import { sendTestEvent } from '../delivery/test-event';
import { payloadProblems } from '../validation/event-data';
import {
  adminSubscriptionUpdateBody,
  deliveriesQuery,
  eventTypeNameParam,
  eventTypeUpdateBody,
  listQuery,
  recoverBody,
  uuidParam,
} from '../validation';

/**
 * `/api-suite/webhooks/*` for the admin panel: every consumer's subscriptions, their deliveries
 * and attempts, retry, recover, test, re-enable, and the event types. The admin permissions on each route
 * decide who may call; the work is the webhook services'.
 */
export default ({ strapi }: { strapi: Core.Strapi }) => {
  const subscriptions = () => getService(strapi, 'webhook-subscriptions');
  const deliveries = () => getService(strapi, 'webhook-deliveries');

  const subscriptionOf = async (ctx: Context): Promise<SubscriptionRow> => {
    const parsed = uuidParam.safeParse(ctx.params.id);
    const row = parsed.success ? await subscriptions().get(parsed.data) : null;
    if (!row) throw new ApiError(404, 'not_found', 'Subscription not found');
    return row;
  };

  const deliveryOf = async (ctx: Context): Promise<{ delivery: DeliveryRow; subscription: SubscriptionRow }> => {
    const parsed = uuidParam.safeParse(ctx.params.id);
    const delivery = parsed.success ? await deliveries().get(parsed.data) : null;
    const subscription = delivery ? await subscriptions().getById(delivery.subscription_id) : null;
    if (!delivery || !subscription) throw new ApiError(404, 'not_found', 'Delivery not found');
    return { delivery, subscription };
  };

  /** A subscription as the API shows it, with the consumer who owns it. */
  const withOwners = async (rows: SubscriptionRow[]) => {
    const owners = await getService(strapi, 'consumers').describe(rows.map((row) => row.consumer_id));
    return rows.map((row) => ({ ...subscriptions().present(row), consumer: owners.get(row.consumer_id) ?? null }));
  };

  return {
    async subscriptions(ctx: Context) {
      await respondStrapiError(ctx, async () => {
        const query = listQuery.parse(ctx.query);
        const { rows, total } = await subscriptions().list(ALL_CONSUMERS, query.page, query.limit);
        ctx.body = { data: await withOwners(rows), meta: { page: query.page, limit: query.limit, total } };
      });
    },

    async subscription(ctx: Context) {
      await respondStrapiError(ctx, async () => {
        const [view] = await withOwners([await subscriptionOf(ctx)]);
        ctx.body = { data: view };
      });
    },

    /** `{ is_active }`: re-enabling a disabled subscription starts its failure count afresh. */
    async updateSubscription(ctx: Context) {
      await respondStrapiError(ctx, async () => {
        const row = await subscriptionOf(ctx);
        const body = adminSubscriptionUpdateBody.parse(ctx.request.body ?? {});
        const [view] = await withOwners([await subscriptions().update(row, body)]);
        ctx.body = { data: view };
      });
    },

    /** Allowed on a disabled subscription too, as in the API: an editor checks the endpoint is back before re-enabling it. */
    async test(ctx: Context) {
      await respondStrapiError(ctx, async () => {
        ctx.body = { data: await sendTestEvent(strapi, await subscriptionOf(ctx)) };
      });
    },

    async deliveries(ctx: Context) {
      await respondStrapiError(ctx, async () => {
        const subscription = await subscriptionOf(ctx);
        const query = deliveriesQuery.parse(ctx.query);
        const { rows, total } = await deliveries().list(subscription.id, query);
        ctx.body = {
          data: rows.map((row) => deliveries().present(row, subscription.uuid)),
          meta: { page: query.page, limit: query.limit, total },
        };
      });
    },

    async delivery(ctx: Context) {
      await respondStrapiError(ctx, async () => {
        const { delivery, subscription } = await deliveryOf(ctx);
        ctx.body = {
          data: { ...deliveries().present(delivery, subscription.uuid), attempts: await deliveries().attemptsOf(delivery.uuid) },
        };
      });
    },

    async recover(ctx: Context) {
      await respondStrapiError(ctx, async () => {
        const subscription = await subscriptionOf(ctx);
        const body = recoverBody.parse(ctx.request.body ?? {});
        ctx.status = 202;
        ctx.body = { data: { deliveries: await deliveries().recoverFailed(subscription, body.since, body.until ?? new Date()) } };
      });
    },

    async retry(ctx: Context) {
      await respondStrapiError(ctx, async () => {
        const { delivery, subscription } = await deliveryOf(ctx);
        if (!toBool(subscription.is_active))
          throw new ApiError(409, 'subscription_inactive', 'The subscription is disabled: re-enable it before retrying');
        await deliveries().retry(delivery);
        ctx.status = 202;
        ctx.body = { data: { delivery_id: delivery.uuid, status: 'queued' } };
      });
    },

    async eventTypes(ctx: Context) {
      await respondStrapiError(ctx, async () => {
        ctx.body = { data: await getService(strapi, 'webhook-event-types').listAll() };
      });
    },

    async updateEventType(ctx: Context) {
      await respondStrapiError(ctx, async () => {
        const name = eventTypeNameParam.safeParse(ctx.params.name);
        const body = eventTypeUpdateBody.parse(ctx.request.body ?? {});
        // The example is what the catalog promises a payload looks like: it must fit the event's schema.
        const problems =
          name.success && body.example_payload !== undefined ? payloadProblems(name.data, body.example_payload, 'example_payload') : [];
        if (problems.length > 0) throw new ApiError(400, 'validation_error', summarizeFields(problems), problems);
        const updated = name.success ? await getService(strapi, 'webhook-event-types').update(name.data, body) : null;
        if (!updated) throw new ApiError(404, 'not_found', 'Event type not found');
        ctx.body = { data: updated };
      });
    },
  };
};
