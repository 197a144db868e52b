import type { Context } from 'koa';
import { z } from 'zod';
import { ALL_CONSUMERS } from '../../../constants';
import { consumerOf, requireConsumer, type Viewer } from '../../../http/consumer';
import { routeInput } from '../../../http/input';
import { rowIdParam } from '../../../http/validation';
import { runFor, scraperFor } from '../reach';
import {
  adminCreateScraperBody,
  createScraperBody,
  listQuery,
  resultsQuery,
  runEventsWebhookBody,
  updateScraperBody,
  writtenByQuery,
} from '../validation';

const scraperParams = z.object({ id: rowIdParam });
// A run id that is no id is a missing run (404 Run), once the scraper is found.
const runParams = z.object({ id: rowIdParam, runId: rowIdParam.nullable().catch(null) });

/** The inputs of the routes on one scraper, as one face (the API's caller, or the admin panel) reaches them. */
function onOneScraper(viewer: (ctx: Context) => Viewer, before?: (ctx: Context) => void) {
  const one = {
    before,
    params: scraperParams,
    notFound: 'Scraper',
    load: (ctx: Context, params: { id: number }) => scraperFor(strapi, params.id, viewer(ctx)),
  } as const;
  const run = {
    before,
    params: runParams,
    notFound: 'Scraper',
    load: (ctx: Context, params: { id: number; runId: number | null }) => runFor(strapi, params, viewer(ctx)),
  } as const;
  return {
    one: routeInput(one),
    update: routeInput({ ...one, body: updateScraperBody }),
    runs: routeInput({ ...one, query: listQuery }),
    results: routeInput({ ...one, query: resultsQuery }),
    runOne: routeInput(run),
    runWrites: routeInput({ ...run, query: listQuery }),
  };
}

export type OneScraperInputs = ReturnType<typeof onOneScraper>;

/**
 * What each scraper route takes, named in its route config and read by its handler
 * (http/input.ts). A route on one scraper loads it (`load`) before its query or body are read,
 * so a missing one is a 404 whatever they hold; each face has its own, which its handlers read.
 */
export const inputs = {
  create: routeInput({ before: requireConsumer, body: createScraperBody }),
  find: routeInput({ before: requireConsumer, query: listQuery }),
  runEventsWebhook: routeInput({ before: requireConsumer, body: runEventsWebhookBody }),
  api: onOneScraper(consumerOf, requireConsumer),

  adminFind: routeInput({ query: listQuery }),
  adminCreate: routeInput({ body: adminCreateScraperBody }),
  adminWrittenBy: routeInput({ query: writtenByQuery }),
  admin: onOneScraper(() => ALL_CONSUMERS),
};
