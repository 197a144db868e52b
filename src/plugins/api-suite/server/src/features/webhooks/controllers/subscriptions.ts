import type { Core } from '@strapi/strapi';
import type { Context } from 'koa';
import type { SecretRotated, SubscriptionCreated } from '../validation/responses';
import { input } from '../../../http/input';
import { getService } from '../../../utils';
import { consumerOf } from '../../../http/consumer';
import { ROTATION_WINDOW_MS } from '../signing';
import { checkAudience, checkEvents, createSubscription } from '../subscriptions/create';
import { checkEndpoint } from '../../platform/endpoint-check';
import { sendTestEvent } from '../delivery/test-event';
import { checkFilter } from '../subscriptions/filters';
import { eventsOf, filterOf } from '../subscriptions/rows';
import { inputs } from '../routes/inputs';

/** `/api/webhooks/subscriptions*`: the caller's own subscriptions; another consumer's answer 404. */
export default ({ strapi }: { strapi: Core.Strapi }) => {
  const subscriptions = () => getService(strapi, 'webhook-subscriptions');

  /** The subscription named in the path, as its route loaded it: the caller's own (any, for an administrator). */
  const owned = (ctx: Context) => input(ctx, inputs.api.one).row;

  return {
    async create(ctx: Context) {
      const caller = consumerOf(ctx);
      const { body } = input(ctx, inputs.create);
      const { row, secret } = await createSubscription(strapi, caller, body);
      const view = subscriptions().present(row);
      ctx.status = 201;
      // The secret is shown here and at rotation only: it is stored encrypted and never listed.
      ctx.body = {
        id: view.id,
        endpoint_url: view.endpoint_url,
        events: view.events,
        secret,
        created_at: view.created_at,
        test_sent: true,
      } satisfies SubscriptionCreated;
    },

    async find(ctx: Context) {
      const caller = consumerOf(ctx);
      const { query } = input(ctx, inputs.find);
      const { rows, total } = await subscriptions().list(caller.consumerId, query.page, query.limit);
      ctx.body = { data: rows.map((row) => subscriptions().present(row)), meta: { page: query.page, limit: query.limit, total } };
    },

    async findOne(ctx: Context) {
      ctx.body = subscriptions().present(owned(ctx));
    },

    async update(ctx: Context) {
      const { row, body } = input(ctx, inputs.api.update);
      await checkEvents(strapi, body.events);
      await checkAudience(strapi, row.consumer_id, body.events);
      // The filter (new or kept) must fit the types the subscription will receive.
      if (body.filter !== undefined || body.events !== undefined) {
        await checkFilter(strapi, body.filter !== undefined ? body.filter : filterOf(row.filter), body.events ?? eventsOf(row.events));
      }
      await checkEndpoint(strapi, body.endpoint_url);
      ctx.body = subscriptions().present(await subscriptions().update(row, body));
    },

    async delete(ctx: Context) {
      await subscriptions().remove(owned(ctx));
      ctx.status = 204;
      ctx.body = null;
    },

    /** One signed test event, sent now and recorded; the answer says how it went. Not retried. */
    async test(ctx: Context) {
      ctx.body = await sendTestEvent(strapi, owned(ctx));
    },

    async rotateSecret(ctx: Context) {
      const row = owned(ctx);
      const { secret, validUntil } = await subscriptions().rotate(row);
      ctx.body = {
        secret,
        valid_until: validUntil.toISOString(),
        note: `The previous secret stays valid for ${ROTATION_WINDOW_MS / 60_000} minutes: until then every delivery carries both signatures, the new one first.`,
      } satisfies SecretRotated;
    },
  };
};
