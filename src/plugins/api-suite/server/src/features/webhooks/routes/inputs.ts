import type { Context } from 'koa';
import { z } from 'zod';
import { ALL_CONSUMERS } from '../../../constants';
import { administratorsOnly, consumerOf, requireConsumer, type Viewer } from '../../../http/consumer';
import { routeInput } from '../../../http/input';
import { deliveryFor, eventTypeFor, subscriptionFor } from '../reach';
import {
  adminSubscriptionUpdateBody,
  createSubscriptionBody,
  deliveriesQuery,
  eventTypeNameParam,
  eventTypeUpdateBody,
  filterTestBody,
  listQuery,
  parsePublishBody,
  publishBody,
  recoverBody,
  updateSubscriptionBody,
  uuidParam,
} from '../validation';

const byId = z.object({ id: uuidParam });

/** The inputs of the routes on one subscription or delivery, as one face (the API's caller, or the admin panel) reaches them. */
function onOneSubscription(viewer: (ctx: Context) => Viewer, before?: (ctx: Context) => void) {
  const one = {
    before,
    params: byId,
    notFound: 'Subscription',
    load: (ctx: Context, params: { id: string }) => subscriptionFor(strapi, params.id, viewer(ctx)),
  } as const;
  return {
    one: routeInput(one),
    deliveries: routeInput({ ...one, query: deliveriesQuery }),
    recover: routeInput({ ...one, body: recoverBody }),
    delivery: routeInput({
      before,
      params: byId,
      notFound: 'Delivery',
      load: (ctx: Context, params: { id: string }) => deliveryFor(strapi, params.id, viewer(ctx)),
    }),
  };
}

export type OneSubscriptionInputs = ReturnType<typeof onOneSubscription>;

const api = onOneSubscription(consumerOf, requireConsumer);
const admin = onOneSubscription(() => ALL_CONSUMERS);

/**
 * What each webhook route takes, named in its route config and read by its handler
 * (http/input.ts). A route on one subscription, delivery or event type loads it (`load`) before
 * its query or body are read, so a missing one is a 404 whatever they hold; the API and the admin
 * panel each have theirs, which the shared delivery handlers (controllers/actions.ts) are given.
 */
export const inputs = {
  create: routeInput({ before: requireConsumer, body: createSubscriptionBody }),
  find: routeInput({ before: requireConsumer, query: listQuery }),
  filterTest: routeInput({ before: requireConsumer, body: filterTestBody }),
  publish: routeInput({
    before: administratorsOnly('Only administrators may publish events'),
    body: { parse: parsePublishBody, of: publishBody },
  }),
  api: { ...api, update: routeInput({ ...api.one, body: updateSubscriptionBody }) },

  adminSubscriptions: routeInput({ query: listQuery }),
  adminFilterTest: routeInput({ body: filterTestBody }),
  adminPublish: routeInput({ body: { parse: parsePublishBody, of: publishBody } }),
  admin: {
    ...admin,
    update: routeInput({ ...admin.one, body: adminSubscriptionUpdateBody }),
    eventType: routeInput({
      params: z.object({ name: eventTypeNameParam }),
      notFound: 'Event type',
      load: (_ctx: Context, params: { name: string }) => eventTypeFor(strapi, params.name),
      body: eventTypeUpdateBody,
    }),
  },
};
