import type { Core } from '@strapi/strapi';
import type { Context } from 'koa';
import { toBool } from '../../../db';
import { getService } from '../../../utils';
import type { FilterTestOutcome } from '../validation/responses';
import { input } from '../../../http/input';
import type { OneSubscriptionInputs } from '../routes/inputs';
import { ConflictError, UnprocessableError } from '../../../errors';
import { checkAgainst, compileOrRefuse } from '../subscriptions/filters';

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

/** How one face of the API shows deliveries: the inputs its routes load them with, how an answer is wrapped, and what a retry on a disabled subscription says. */
interface Face {
  inputs: OneSubscriptionInputs;
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
      const { row: subscription, query } = input(ctx, face.inputs.deliveries);
      const { rows, total } = await deliveries().list(subscription.id, query);
      ctx.body = {
        data: rows.map((row) => deliveries().present(row, subscription.uuid)),
        meta: { page: query.page, limit: query.limit, total },
      };
    },

    async delivery(ctx: Context) {
      const { delivery, subscription } = input(ctx, face.inputs.delivery).row;
      ctx.body = face.view({
        ...deliveries().present(delivery, subscription.uuid),
        attempts: await deliveries().attemptsOf(delivery.uuid),
      });
    },

    async retry(ctx: Context) {
      const { delivery, subscription } = input(ctx, face.inputs.delivery).row;
      if (!toBool(subscription.is_active)) throw new ConflictError('subscription_inactive', face.inactive);
      await deliveries().retry(delivery);
      ctx.status = 202;
      ctx.body = face.view({ delivery_id: delivery.uuid, status: 'queued' });
    },

    async recover(ctx: Context) {
      const { row: subscription, body } = input(ctx, face.inputs.recover);
      ctx.status = 202;
      ctx.body = face.view({ deliveries: await deliveries().recoverFailed(subscription, body.since, body.until ?? new Date()) });
    },
  };
}
