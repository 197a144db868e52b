import type { Core } from '@strapi/strapi';
import type { Context } from 'koa';
import { summarizeFields } from '../../../http/errors';
import { getService } from '../../../utils';
import { input } from '../../../http/input';
import { inputs } from '../routes/inputs';
import { tryFilter } from './actions';
import { UnprocessableError } from '../../../errors';

/** Event types, and publishing by administrators. */
export default ({ strapi }: { strapi: Core.Strapi }) => ({
  async types(ctx: Context) {
    ctx.body = { data: await getService(strapi, 'webhook-event-types').listActive() };
  },

  /** `{ filter, type, payload? }` → whether the type's example (or the payload) matches the filter. */
  async filterTest(ctx: Context) {
    const { body } = input(ctx, inputs.filterTest);
    ctx.body = await tryFilter(strapi, body);
  },

  async publish(ctx: Context) {
    const { batch, events } = input(ctx, inputs.publish).body;
    const unknown = await getService(strapi, 'webhook-event-types').unknown(events.map((event) => event.type));
    if (unknown.length > 0) {
      const names = [...new Set(unknown)];
      throw new UnprocessableError('invalid_events', `Unknown or inactive event types: ${names.join(', ')}`, { invalid_events: names });
    }
    const types = getService(strapi, 'webhook-event-types');
    // Sent by the plugin to the one consumer they are about: by hand they would reach every subscriber of the type.
    const single = [...new Set(events.map((event) => event.type))].filter((type) => types.definition(type)?.audience === 'consumer');
    if (single.length > 0) {
      throw new UnprocessableError('invalid_events', `Only the plugin publishes ${single.join(', ')}, to the one consumer concerned`, {
        invalid_events: single,
      });
    }
    // Every delivered payload of a type fits its schema in the event catalog, published by an administrator too.
    const problems = events.flatMap((event, index) =>
      types.payloadProblems(event.type, event.payload, batch ? `events.${index}.payload` : 'payload')
    );
    if (problems.length > 0) throw new UnprocessableError('invalid_payload', summarizeFields(problems.slice(0, 20)), { details: problems });
    // Each payload was just checked against its type's schema; an administrator reaches every subscriber of a type.
    const published = await getService(strapi, 'webhooks').publishChecked(events, { anyAudience: true });
    const deliveries = published.reduce((sum, result) => sum + result.deliveries, 0);
    ctx.status = 202;
    ctx.body = batch
      ? { event_ids: published.map((result) => result.event_id), deliveries }
      : { event_id: published[0].event_id, deliveries };
  },
});
