import { requireConsumer } from '../../../http/consumer';
import { routeInput } from '../../../http/input';
import { adminCreateScraperBody, createScraperBody, listQuery, resultsQuery, runEventsWebhookBody, updateScraperBody } from '../validation';

/**
 * What each scraper route takes, named in its route config and read by its handler
 * (http/input.ts). Routes on one scraper read their query or body once the scraper is found
 * (deferred), so a missing one is a 404 whatever they hold; the API and the admin panel share these.
 */
export const inputs = {
  create: routeInput({ before: requireConsumer, body: createScraperBody }),
  find: routeInput({ before: requireConsumer, query: listQuery }),
  runEventsWebhook: routeInput({ before: requireConsumer, body: runEventsWebhookBody }),
  update: routeInput({ body: updateScraperBody, deferred: ['body'] }),
  runs: routeInput({ query: listQuery, deferred: ['query'] }),
  results: routeInput({ query: resultsQuery, deferred: ['query'] }),

  adminFind: routeInput({ query: listQuery }),
  adminCreate: routeInput({ body: adminCreateScraperBody }),
};
