import type { Core } from '@strapi/strapi';
import type { Context } from 'koa';
import { ApiError, respondFlatError } from '../../../http/errors';
import { getService } from '../../../utils';
import { consumerOf } from '../../../http/consumer';
import { parsePublishBody } from '../validation';

/** Event types, and publishing by administrators. */
export default ({ strapi }: { strapi: Core.Strapi }) => ({
  async types(ctx: Context) {
    await respondFlatError(ctx, async () => {
      ctx.body = { data: await getService(strapi, 'webhook-event-types').listActive() };
    });
  },

  async publish(ctx: Context) {
    await respondFlatError(ctx, async () => {
      const caller = consumerOf(ctx);
      if (!caller.isAdmin) throw new ApiError(403, 'forbidden', 'Only administrators may publish events');
      const { batch, events } = parsePublishBody(ctx.request.body);
      const unknown = await getService(strapi, 'webhook-event-types').unknown(events.map((event) => event.type));
      if (unknown.length > 0) {
        const names = [...new Set(unknown)];
        throw new ApiError(422, 'invalid_events', `Unknown or inactive event types: ${names.join(', ')}`, { invalid_events: names });
      }
      const published = await getService(strapi, 'webhooks').publishMany(events);
      const deliveries = published.reduce((sum, result) => sum + result.deliveries, 0);
      ctx.status = 202;
      ctx.body = batch ? { event_ids: published.map((result) => result.event_id), deliveries } : { event_id: published[0].event_id, deliveries };
    });
  },
});
