import type { Core } from '@strapi/strapi';
import type { Context } from 'koa';
import { ALL_CONSUMERS } from '../../../constants';
import { toBool } from '../../../db';
import { getService } from '../../../utils';
import type { DeliveryRow } from '../services/deliveries';
import type { SubscriptionRow } from '../services/subscriptions';
import type { FilterTestOutcome } from '../validation/responses';
import { input } from '../../../http/input';
import { inputs } from '../routes/inputs';
import { uuidParam } from '../validation';
import { ConflictError, NotFoundError, UnprocessableError } from '../../../errors';
import { checkAgainst, compileOrRefuse } from '../subscriptions/filters';

/** Whose subscriptions a request may reach: a consumer's own (an administrator's, every one), or every one for the admin panel. */
export type Viewer = { consumerId: string | null; isAdmin: boolean } | typeof ALL_CONSUMERS;

const reaches = (viewer: Viewer, row: SubscriptionRow) =>
  viewer === ALL_CONSUMERS || row.consumer_id === viewer.consumerId || viewer.isAdmin;

/** The subscription named in the path, if `viewer` may reach it; any other answers 404, as one that does not exist does. */
export async function subscriptionFor(strapi: Core.Strapi, ctx: Context, viewer: Viewer): Promise<SubscriptionRow> {
  const parsed = uuidParam.safeParse(ctx.params.id);
  const row = parsed.success ? await getService(strapi, 'webhook-subscriptions').get(parsed.data) : null;
  if (!row || !reaches(viewer, row)) throw new NotFoundError('Subscription');
  return row;
}

/** The delivery named in the path and its subscription, if `viewer` may reach them. */
export async function deliveryFor(
  strapi: Core.Strapi,
  ctx: Context,
  viewer: Viewer
): Promise<{ delivery: DeliveryRow; subscription: SubscriptionRow }> {
  const parsed = uuidParam.safeParse(ctx.params.id);
  const delivery = parsed.success ? await getService(strapi, 'webhook-deliveries').get(parsed.data) : null;
  const subscription = delivery ? await getService(strapi, 'webhook-subscriptions').getById(delivery.subscription_id) : null;
  if (!delivery || !subscription || !reaches(viewer, subscription)) throw new NotFoundError('Delivery');
  return { delivery, subscription };
}

/**
 * Try a filter on an active type's example payload (or on the payload given): 422 invalid_events
 * for a type that is not active, 422 invalid_filter where the filter does not fit the type.
 */
export async function tryFilter(
  strapi: Core.Strapi,
  body: { filter: Record<string, unknown>; type: string; payload?: Record<string, unknown> }
): Promise<FilterTestOutcome> {
  const type = await getService(strapi, 'webhook-event-types').activeType(body.type);
  if (!type)
    throw new UnprocessableError('invalid_events', `Unknown or inactive event type: ${body.type}`, { invalid_events: [body.type] });
  const filter = compileOrRefuse(body.filter);
  checkAgainst(filter, [{ name: type.name, schema: type.schema }]);
  return { matches: filter.test(body.payload ?? type.example_payload), type: type.name };
}

/** How one face of the API shows deliveries: who is asking, how an answer is wrapped, and what a retry on a disabled subscription says. */
interface Face {
  viewer: (ctx: Context) => Viewer;
  view: <T>(data: T) => unknown;
  inactive: string;
}

/**
 * What the API (`/api/webhooks/*`) and the admin panel (`/api-suite/webhooks/*`) do alike with
 * deliveries: list a subscription's, show one with its attempts, retry one, recover a time range.
 */
export function deliveryActions(strapi: Core.Strapi, face: Face) {
  const deliveries = () => getService(strapi, 'webhook-deliveries');

  return {
    async deliveries(ctx: Context) {
      const subscription = await subscriptionFor(strapi, ctx, face.viewer(ctx));
      const { query } = input(ctx, inputs.deliveries);
      const { rows, total } = await deliveries().list(subscription.id, query);
      ctx.body = {
        data: rows.map((row) => deliveries().present(row, subscription.uuid)),
        meta: { page: query.page, limit: query.limit, total },
      };
    },

    async delivery(ctx: Context) {
      const { delivery, subscription } = await deliveryFor(strapi, ctx, face.viewer(ctx));
      ctx.body = face.view({
        ...deliveries().present(delivery, subscription.uuid),
        attempts: await deliveries().attemptsOf(delivery.uuid),
      });
    },

    async retry(ctx: Context) {
      const { delivery, subscription } = await deliveryFor(strapi, ctx, face.viewer(ctx));
      if (!toBool(subscription.is_active)) throw new ConflictError('subscription_inactive', face.inactive);
      await deliveries().retry(delivery);
      ctx.status = 202;
      ctx.body = face.view({ delivery_id: delivery.uuid, status: 'queued' });
    },

    async recover(ctx: Context) {
      const subscription = await subscriptionFor(strapi, ctx, face.viewer(ctx));
      const { body } = input(ctx, inputs.recover);
      ctx.status = 202;
      ctx.body = face.view({ deliveries: await deliveries().recoverFailed(subscription, body.since, body.until ?? new Date()) });
    },
  };
}
