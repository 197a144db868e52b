import { requireConsumer } from '../../../http/consumer';
import { routeInput } from '../../../http/input';
import { adminCreateScraperBody, createScraperBody, listQuery, runEventsWebhookBody } from '../validation';

/**
 * What each scraper route takes, named in its route config and read by its handler
 * (http/input.ts). Routes on one scraper read their query or body once the scraper is found
 * (controllers/actions.ts), so a missing one is a 404 whatever they hold.
 */
export const inputs = {
  create: routeInput({ before: requireConsumer, body: createScraperBody }),
  find: routeInput({ before: requireConsumer, query: listQuery }),
  runEventsWebhook: routeInput({ before: requireConsumer, body: runEventsWebhookBody }),

  adminFind: routeInput({ query: listQuery }),
  adminCreate: routeInput({ body: adminCreateScraperBody }),
};
