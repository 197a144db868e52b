import { PassThrough, pipeline, type Readable, type Transform } from 'node:stream';
import type { Core } from '@strapi/strapi';
import type { Context } from 'koa';
import { input } from '../../../http/input';
import { getService } from '../../../utils';
import { consumerOf } from '../../../http/consumer';
import { checkScraperConfig, checkTargetAllowed } from '../check-config';
import { presentRun } from '../services/runs';
import type { ScraperRow } from '../services/scrapers';
import { inputs } from '../routes/inputs';
import { RUN_EVENTS } from '../validation';
import { resultsExport } from '../services/results-export';
import { resultsPage, scraperActions } from './actions';

/**
 * A streamed export's body. Its headers (200) are sent with the first rows, so a read that fails
 * midway (the database gone) can only cut the response short: the connection is closed before the
 * chunked body's end, which every HTTP client reports as an incomplete download. Koa alone would
 * leave such a response hanging, and a plain `pipe` would make the error an uncaught exception.
 */
function exportBody(ctx: Context, streams: [Readable, ...Transform[]], onFailure: (error: Error) => void): PassThrough {
  const body = new PassThrough();
  pipeline([...streams, body], (error) => {
    if (!error) return;
    // A client that leaves early is no news; anything else is.
    if ((error as NodeJS.ErrnoException).code !== 'ERR_STREAM_PREMATURE_CLOSE') onFailure(error);
    ctx.res.destroy();
  });
  return body;
}

/** `/api/v1/scrapers*` and `/api/v1/webhooks` (docs/scrapers.md#routes): the caller's own scrapers; others' answer 404. */
export default ({ strapi }: { strapi: Core.Strapi }) => {
  const scrapers = () => getService(strapi, 'scrapers');
  const runs = () => getService(strapi, 'scraper-runs');
  const exportFailed = (row: ScraperRow) => (error: Error) =>
    strapi.log.warn(`[api-suite] export of scraper ${row.id}'s results ended early: ${error.message}`);

  const checkConfig = (body: Parameters<typeof checkScraperConfig>[1], current?: ScraperRow) => checkScraperConfig(strapi, body, current);

  return {
    ...scraperActions(strapi, { inputs: inputs.api, name: (row) => `Scraper ${row.id}`, view: (data) => data }),

    async create(ctx: Context) {
      const caller = consumerOf(ctx);
      const { body } = input(ctx, inputs.create);
      checkTargetAllowed(body, caller);
      await checkConfig(body);
      ctx.status = 201;
      ctx.body = scrapers().present(await scrapers().create(caller.consumerId, body));
    },

    async find(ctx: Context) {
      const caller = consumerOf(ctx);
      const { query } = input(ctx, inputs.find);
      const { rows, total } = await scrapers().list(caller.consumerId, query.page, query.limit);
      ctx.body = { data: rows.map((row) => scrapers().present(row)), meta: { page: query.page, limit: query.limit, total } };
    },

    async findOne(ctx: Context) {
      ctx.body = scrapers().present(input(ctx, inputs.api.one).row);
    },

    async update(ctx: Context) {
      const { row, body } = input(ctx, inputs.api.update);
      checkTargetAllowed(body, consumerOf(ctx), row);
      await checkConfig(body, row);
      ctx.body = scrapers().present(await scrapers().update(row, body));
    },

    async status(ctx: Context) {
      const { row } = input(ctx, inputs.api.one);
      const latest = await runs().latest(row.id);
      if (!latest) {
        ctx.body = { id: row.id, status: 'idle', last_run: null, items_count: 0 };
        return;
      }
      // last_run is the latest run's start time (seed 001); a run still pending has not started, so it is when it was asked for.
      const run = presentRun(latest);
      ctx.body = { id: row.id, status: run.status, last_run: run.started_at ?? run.created_at, items_count: run.items_collected };
    },

    async results(ctx: Context) {
      const { row, query } = input(ctx, inputs.api.results);
      if (query.format === 'json') {
        ctx.body = await resultsPage(strapi, row, query);
        return;
      }
      const file = resultsExport(strapi, row, { ...query, format: query.format });
      // attachment() guesses a type from the extension: the exact type is set after it.
      ctx.attachment(file.filename);
      ctx.type = file.type;
      ctx.body = exportBody(ctx, file.streams, exportFailed(row));
    },

    /** `POST /api/v1/webhooks`: an ordinary webhook subscription to this consumer's run events (docs/scrapers.md#events). */
    async runEventsWebhook(ctx: Context) {
      const caller = consumerOf(ctx);
      const { url, events = [...RUN_EVENTS], ...rest } = input(ctx, inputs.runEventsWebhook).body;
      // The same creation path as POST /api/webhooks/subscriptions, limited to run events.
      const subscriptions = getService(strapi, 'webhook-subscriptions');
      const { row, secret } = await subscriptions.subscribe(caller, { ...rest, endpoint_url: url, events }, { allowedEvents: RUN_EVENTS });
      const view = subscriptions.present(row);
      ctx.status = 201;
      ctx.body = { id: view.id, url: view.endpoint_url, events: view.events, secret, created_at: view.created_at };
    },
  };
};
