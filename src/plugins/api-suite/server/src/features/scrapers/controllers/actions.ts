import type { Core } from '@strapi/strapi';
import type { Context } from 'koa';
import { getService } from '../../../utils';
import { AlreadyRunningError, presentRun } from '../services/runs';
import type { ScraperRow } from '../services/scrapers';
import { input, type Input } from '../../../http/input';
import type { OneScraperInputs } from '../routes/inputs';
import { ScraperAlreadyRunningError, ScraperNotRunningError } from '../errors';

/** How one face of the API shows a scraper's runs: the inputs its routes load the scraper with, how a scraper is named in a refusal, and how an answer is wrapped. */
interface Face {
  inputs: OneScraperInputs;
  name: (row: ScraperRow) => string;
  view: <T>(data: T) => unknown;
}

/** One page of a scraper's results as JSON, as both faces list them. */
export async function resultsPage(strapi: Core.Strapi, row: ScraperRow, query: Input<OneScraperInputs['results']>['query']) {
  const { page, limit } = query;
  const { rows, total } = await getService(strapi, 'scraper-runs').results(row.id, {
    runId: query.run_id,
    change: query.change,
    page,
    limit,
  });
  return { data: rows, meta: { page, limit, total } };
}

/**
 * What the API (`/api/v1/scrapers/:id/*`) and the admin panel (`/api-suite/scrapers/:id/*`) do
 * alike with one scraper: delete it, run and stop it, list its runs and show one.
 */
export function scraperActions(strapi: Core.Strapi, face: Face) {
  const runs = () => getService(strapi, 'scraper-runs');
  const scraperOf = (ctx: Context) => input(ctx, face.inputs.one).row;

  return {
    async delete(ctx: Context) {
      await getService(strapi, 'scrapers').remove(scraperOf(ctx));
      ctx.status = 204;
      ctx.body = null;
    },

    async run(ctx: Context) {
      const row = scraperOf(ctx);
      try {
        const run = await runs().begin(row, 'manual');
        ctx.status = 202;
        ctx.body = face.view({ run_id: run.id, status: 'started' });
      } catch (error) {
        if (!(error instanceof AlreadyRunningError)) throw error;
        throw new ScraperAlreadyRunningError(face.name(row), error.runId);
      }
    },

    async stop(ctx: Context) {
      const row = scraperOf(ctx);
      const run = await runs().stopActive(row.id);
      if (!run) throw new ScraperNotRunningError(face.name(row));
      ctx.body = face.view({ run_id: run.id, status: 'stopped' });
    },

    async runs(ctx: Context) {
      const { row, query } = input(ctx, face.inputs.runs);
      const { rows, total } = await runs().list(row.id, query.page, query.limit);
      ctx.body = { data: rows.map(presentRun), meta: { page: query.page, limit: query.limit, total } };
    },

    async runOne(ctx: Context) {
      const { run } = input(ctx, face.inputs.runOne).row;
      ctx.body = face.view(presentRun(run));
    },
  };
}
