import type { Core } from '@strapi/strapi';
import type { Context } from 'koa';
import { toBool } from '../../../db';
import { getService } from '../../../utils';
import { publishableByHand } from '../events/registry';
import type { parsePublishBody } from '../validation';
import type { AdminPublished, FilterTestOutcome } from '../validation/responses';
import { input } from '../../../http/input';
import { BodyTooLargeError } from '../../../http/errors';
import type { OneSubscriptionInputs } from '../routes/inputs';
import { InvalidEventsError, InvalidPayloadError, SubscriptionInactiveError } from '../errors';
import { checkAgainst, compileOrRefuse } from '../subscriptions/filters';

/**
 * The largest payload a filter may be tried on, as JSON. With at most 100 conditions (the
 * filter's own bound), a try's work is bounded by both: under 20 ms of CPU at the worst, once warm
 * (docs/operations.md#bounded-work). A real event's data is far smaller.
 */
export const MAX_FILTER_TEST_PAYLOAD_BYTES = 64 * 1024;

/**
 * Try a filter on an active type's example payload (or on the payload given): 413 for a payload
 * above 64 KB, 422 invalid_events for a type that is not active, 422 invalid_filter where the
 * filter does not fit the type.
 */
export async function tryFilter(
  strapi: Core.Strapi,
  body: { filter: Record<string, unknown>; type: string; payload?: Record<string, unknown> }
): Promise<FilterTestOutcome> {
  if (body.payload !== undefined && Buffer.byteLength(JSON.stringify(body.payload)) > MAX_FILTER_TEST_PAYLOAD_BYTES) {
    throw new BodyTooLargeError(`A payload to try a filter on is at most ${MAX_FILTER_TEST_PAYLOAD_BYTES / 1024} KB of JSON`);
  }
  const type = await getService(strapi, 'webhook-event-types').activeType(body.type);
  if (!type) throw new InvalidEventsError([body.type], `Unknown or inactive event type: ${body.type}`);
  const filter = compileOrRefuse(body.filter);
  checkAgainst(filter, [{ name: type.name, schema: type.schema }]);
  return { matches: filter.test(body.payload ?? type.example_payload), type: type.name };
}

/**
 * An administrator's publish, from the API or the admin panel: every type active and publishable by
 * hand (422 invalid_events otherwise), every payload fitting its type's schema (422 invalid_payload),
 * and then it reaches every subscriber of the type.
 */
export async function publishByHand(strapi: Core.Strapi, { batch, events }: ReturnType<typeof parsePublishBody>): Promise<AdminPublished> {
  const types = getService(strapi, 'webhook-event-types');
  const unknown = await types.unknown(events.map((event) => event.type));
  if (unknown.length > 0) {
    const names = [...new Set(unknown)];
    throw new InvalidEventsError(names, `Unknown or inactive event types: ${names.join(', ')}`);
  }
  // Sent by the plugin to the one consumer they are about: by hand they would reach every subscriber of the type.
  const single = [...new Set(events.map((event) => event.type))].filter((type) => {
    const definition = types.definition(type);
    return definition !== undefined && !publishableByHand(definition);
  });
  if (single.length > 0) {
    throw new InvalidEventsError(single, `Only the plugin publishes ${single.join(', ')}, to the one consumer concerned`);
  }
  // Every delivered payload of a type fits its schema in the event catalog, published by an administrator too.
  const problems = events.flatMap((event, index) =>
    types.payloadProblems(event.type, event.payload, batch ? `events.${index}.payload` : 'payload')
  );
  if (problems.length > 0) throw new InvalidPayloadError(problems);
  // Each payload was just checked against its type's schema; an administrator reaches every subscriber of a type.
  const published = await getService(strapi, 'webhooks').publishChecked(events, { anyAudience: true });
  const deliveries = published.reduce((sum, result) => sum + result.deliveries, 0);
  return batch ? { event_ids: published.map((result) => result.event_id), deliveries } : { event_id: published[0].event_id, deliveries };
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
      if (!toBool(subscription.is_active)) throw new SubscriptionInactiveError(face.inactive);
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
