import type { Core } from '@strapi/strapi';
import type { Context } from 'koa';
import { ALL_CONSUMERS } from '../../../constants';
import { getService } from '../../../utils';
import { AlreadyRunningError, presentRun } from '../services/runs';
import type { ScraperRow } from '../services/scrapers';
import { input, type Input } from '../../../http/input';
import { inputs } from '../routes/inputs';
import { ConflictError, NotFoundError } from '../../../errors';

/** Whose scrapers a request may reach: a consumer's own (an administrator's, every one), or every one for the admin panel. */
export type Viewer = { consumerId: string | null; isAdmin: boolean } | typeof ALL_CONSUMERS;

/** How one face of the API shows a scraper's runs: who is asking, how a scraper is named in a refusal, and how an answer is wrapped. */
interface Face {
  viewer: (ctx: Context) => Viewer;
  name: (row: ScraperRow) => string;
  view: <T>(data: T) => unknown;
}

/** The scraper named in the path, if `viewer` may reach it; any other answers 404, as one that does not exist does. */
export async function scraperFor(strapi: Core.Strapi, ctx: Context, viewer: Viewer): Promise<ScraperRow> {
  const raw = String(ctx.params.id ?? '');
  const row = /^\d{1,10}$/.test(raw) ? await getService(strapi, 'scrapers').get(Number(raw)) : null;
  const reaches = viewer === ALL_CONSUMERS || row?.consumer_id === viewer.consumerId || viewer.isAdmin;
  if (!row || !reaches) throw new NotFoundError('Scraper');
  return row;
}

/** One page of a scraper's results as JSON, as both faces list them. */
export async function resultsPage(strapi: Core.Strapi, row: ScraperRow, query: Input<typeof inputs.results>['query']) {
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
  const scraperOf = (ctx: Context) => scraperFor(strapi, ctx, face.viewer(ctx));

  return {
    async delete(ctx: Context) {
      await getService(strapi, 'scrapers').remove(await scraperOf(ctx));
      ctx.status = 204;
      ctx.body = null;
    },

    async run(ctx: Context) {
      const row = await scraperOf(ctx);
      try {
        const run = await runs().begin(row, 'manual');
        ctx.status = 202;
        ctx.body = face.view({ run_id: run.id, status: 'started' });
      } catch (error) {
        if (!(error instanceof AlreadyRunningError)) throw error;
        throw new ConflictError('already_running', `${face.name(row)} is already running${error.runId ? ` (run ${error.runId})` : ''}`);
      }
    },

    async stop(ctx: Context) {
      const row = await scraperOf(ctx);
      const run = await runs().stopActive(row.id);
      if (!run) throw new ConflictError('not_running', `${face.name(row)} is not running`);
      ctx.body = face.view({ run_id: run.id, status: 'stopped' });
    },

    async runs(ctx: Context) {
      const row = await scraperOf(ctx);
      const { query } = input(ctx, inputs.runs);
      const { rows, total } = await runs().list(row.id, query.page, query.limit);
      ctx.body = { data: rows.map(presentRun), meta: { page: query.page, limit: query.limit, total } };
    },

    async runOne(ctx: Context) {
      const row = await scraperOf(ctx);
      const raw = String(ctx.params.runId ?? '');
      const run = /^\d{1,10}$/.test(raw) ? await runs().get(Number(raw)) : null;
      if (!run || run.scraper_id !== row.id) throw new NotFoundError('Run');
      ctx.body = face.view(presentRun(run));
    },
  };
}
