import type { Core } from '@strapi/strapi';
import type { Context } from 'koa';
import { ALL_CONSUMERS } from '../../../constants';
import { input } from '../../../http/input';
import { getService } from '../../../utils';
import { inputs } from '../routes/inputs';
import type { AdminSubscription } from '../validation/responses';
import type { SubscriptionRow } from '../services/subscriptions';
import { sendTestEvent } from '../delivery/test-event';
import { checkFilter } from '../subscriptions/filters';
import { eventsOf } from '../subscriptions/rows';
import { deliveryActions, publishByHand, tryFilter } from './actions';
import { NotFoundError } from '../../../errors';
import { InvalidExamplePayloadError } from '../errors';

/**
 * `/api-suite/webhooks/*` for the admin panel: every consumer's subscriptions, their deliveries
 * and attempts, retry, recover, test, re-enable, and the event types. The admin permissions on each route
 * decide who may call; the work is the webhook services'.
 */
export default ({ strapi }: { strapi: Core.Strapi }) => {
  const subscriptions = () => getService(strapi, 'webhook-subscriptions');
  const subscriptionOf = (ctx: Context) => input(ctx, inputs.admin.one).row;

  /** A subscription as the API shows it, with the consumer who owns it. */
  const withOwners = async (rows: SubscriptionRow[]): Promise<AdminSubscription[]> => {
    const owners = await getService(strapi, 'consumers').describe(rows.map((row) => row.consumer_id));
    return rows.map((row) => ({ ...subscriptions().present(row), consumer: owners.get(row.consumer_id) ?? null }));
  };

  return {
    ...deliveryActions(strapi, {
      inputs: inputs.admin,
      view: (data) => ({ data }),
      inactive: 'The subscription is disabled: re-enable it before retrying',
    }),

    async subscriptions(ctx: Context) {
      const { query } = input(ctx, inputs.adminSubscriptions);
      const { rows, total } = await subscriptions().list(ALL_CONSUMERS, query.page, query.limit);
      ctx.body = { data: await withOwners(rows), meta: { page: query.page, limit: query.limit, total } };
    },

    async subscription(ctx: Context) {
      const [view] = await withOwners([subscriptionOf(ctx)]);
      ctx.body = { data: view };
    },

    /** `{ is_active?, filter? }`: re-enabling a disabled subscription starts its failure count afresh. */
    async updateSubscription(ctx: Context) {
      const { row, body } = input(ctx, inputs.admin.update);
      if (body.filter !== undefined) await checkFilter(strapi, body.filter, eventsOf(row.events));
      const [view] = await withOwners([await subscriptions().update(row, body)]);
      ctx.body = { data: view };
    },

    /** Allowed on a disabled subscription too, as in the API: an editor checks the endpoint is back before re-enabling it. */
    async test(ctx: Context) {
      ctx.body = { data: await sendTestEvent(strapi, subscriptionOf(ctx)) };
    },

    /** Try a filter on a type's example or a payload, as the API's `filter-test` does. */
    async filterTest(ctx: Context) {
      const { body } = input(ctx, inputs.adminFilterTest);
      ctx.body = { data: await tryFilter(strapi, body) };
    },

    /** An event published by hand to every subscriber of its type, as the API's `POST /api/webhooks/events` does. */
    async publish(ctx: Context) {
      const published = await publishByHand(strapi, input(ctx, inputs.adminPublish).body);
      ctx.status = 202;
      ctx.body = { data: published };
    },

    async eventTypes(ctx: Context) {
      ctx.body = { data: await getService(strapi, 'webhook-event-types').listAll() };
    },

    async updateEventType(ctx: Context) {
      const { row: type, body } = input(ctx, inputs.admin.eventType);
      // The example is what the catalog promises a payload looks like: it must fit the event's schema.
      const problems =
        body.example_payload !== undefined
          ? getService(strapi, 'webhook-event-types').payloadProblems(type.name, body.example_payload, 'example_payload')
          : [];
      if (problems.length > 0) throw new InvalidExamplePayloadError(problems);
      // Null only when it went in the meantime.
      const updated = await getService(strapi, 'webhook-event-types').update(type.name, body);
      if (!updated) throw new NotFoundError('Event type');
      ctx.body = { data: updated };
    },
  };
};
