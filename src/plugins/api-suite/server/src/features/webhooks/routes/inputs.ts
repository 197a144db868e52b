import { requireConsumer } from '../../../http/consumer';
import { routeInput } from '../../../http/input';
import {
  adminSubscriptionUpdateBody,
  createSubscriptionBody,
  deliveriesQuery,
  eventTypeUpdateBody,
  filterTestBody,
  listQuery,
  recoverBody,
  updateSubscriptionBody,
} from '../validation';

/**
 * What each webhook route takes, named in its route config and read by its handler
 * (http/input.ts). Routes on one subscription read their query or body once it is found
 * (deferred), so a missing one is a 404 whatever they hold; the API and the admin panel share
 * those of deliveries. Publishing reads its events itself (controllers/events.ts).
 */
export const inputs = {
  create: routeInput({ before: requireConsumer, body: createSubscriptionBody }),
  find: routeInput({ before: requireConsumer, query: listQuery }),
  update: routeInput({ body: updateSubscriptionBody, deferred: ['body'] }),
  deliveries: routeInput({ query: deliveriesQuery, deferred: ['query'] }),
  recover: routeInput({ body: recoverBody, deferred: ['body'] }),
  filterTest: routeInput({ before: requireConsumer, body: filterTestBody }),

  adminSubscriptions: routeInput({ query: listQuery }),
  adminUpdateSubscription: routeInput({ body: adminSubscriptionUpdateBody, deferred: ['body'] }),
  adminUpdateEventType: routeInput({ body: eventTypeUpdateBody }),
  adminFilterTest: routeInput({ body: filterTestBody }),
};
