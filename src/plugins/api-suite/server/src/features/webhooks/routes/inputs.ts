import { requireConsumer } from '../../../http/consumer';
import { routeInput } from '../../../http/input';
import { createSubscriptionBody, eventTypeUpdateBody, listQuery } from '../validation';

/**
 * What each webhook route takes, named in its route config and read by its handler
 * (http/input.ts). Routes on one subscription or delivery read their query or body once it is
 * found (controllers/actions.ts), so a missing one is a 404 whatever they hold; publishing reads
 * its events after the administrator check (controllers/events.ts).
 */
export const inputs = {
  create: routeInput({ before: requireConsumer, body: createSubscriptionBody }),
  find: routeInput({ before: requireConsumer, query: listQuery }),

  adminSubscriptions: routeInput({ query: listQuery }),
  adminUpdateEventType: routeInput({ body: eventTypeUpdateBody }),
};
