import type { AdminScraper } from '../validation/responses';
import type { Core } from '@strapi/strapi';
import type { Context } from 'koa';
import { ALL_CONSUMERS, UIDS } from '../../../constants';
import { ApiError } from '../../../http/errors';
import { input } from '../../../http/input';
import { getService } from '../../../utils';
import { inputs } from '../routes/inputs';
import { checkScraperConfig, proxyPoolNames } from '../check-config';
import { presentRun } from '../services/runs';
import type { ScraperRow } from '../services/scrapers';
import { resultsPage, scraperActions } from './actions';
import { targetWrites } from '../target/writes';
import { targetTypesOf } from '../target/check';
import { UnknownOwnerError } from '../errors';

/**
 * `/api-suite/scrapers/*` for the admin panel: every consumer's scrapers, created for a chosen
 * consumer, edited, run and stopped, with their runs and results. The scraper services do the work.
 */
export default ({ strapi }: { strapi: Core.Strapi }) => {
  const scrapers = () => getService(strapi, 'scrapers');
  const runs = () => getService(strapi, 'scraper-runs');

  /** The API's checks, with an address the server may not fetch reported on the url field for the form. */
  const checkConfig = async (body: Parameters<typeof checkScraperConfig>[1], current?: ScraperRow) => {
    try {
      await checkScraperConfig(strapi, body, current);
    } catch (error) {
      if (error instanceof ApiError && error.code === 'endpoint_not_allowed') {
        throw error.with({ details: [{ field: 'url', message: error.message }] });
      }
      // The form shows a target's fault under the part of the target it names.
      if (error instanceof ApiError && error.code === 'invalid_target') {
        const { path } = error.details as { path: string };
        throw error.with({ details: [{ field: path, message: error.message }] });
      }
      throw error;
    }
  };

  /** Scrapers as the API shows them, with their owner and latest run: owners and runs each read in one query. */
  const present = async (rows: ScraperRow[]): Promise<AdminScraper[]> => {
    const [owners, latest] = await Promise.all([
      getService(strapi, 'consumers').describe(rows.map((row) => row.consumer_id)),
      runs().latestOf(rows.map((row) => row.id)),
    ]);
    return rows.map((row) => {
      const run = latest.get(row.id);
      return { ...scrapers().present(row), owner: owners.get(row.consumer_id) ?? null, latest_run: run ? presentRun(run) : null };
    });
  };

  return {
    ...scraperActions(strapi, { inputs: inputs.admin, name: (row) => row.name, view: (data) => ({ data }) }),

    async find(ctx: Context) {
      const { query } = input(ctx, inputs.adminFind);
      const { rows, total } = await scrapers().list(ALL_CONSUMERS, query.page, query.limit);
      ctx.body = { data: await present(rows), meta: { page: query.page, limit: query.limit, total } };
    },

    /** The documents a run wrote into its scraper's target, with how. */
    async runWrites(ctx: Context) {
      const { row, query } = input(ctx, inputs.admin.runWrites);
      const { rows, total } = await targetWrites(strapi).ofRun(row.run.id, query.page, query.limit);
      ctx.body = { data: rows, meta: { page: query.page, limit: query.limit, total } };
    },

    /** Which scraper and run last wrote a document: the Content Manager's edit view shows it. */
    async writtenBy(ctx: Context) {
      const { query } = input(ctx, inputs.adminWrittenBy);
      ctx.body = { data: await targetWrites(strapi).lastOf(query.type, query.document_id) };
    },

    /** What the form offers: the configured proxy pools, and the content types a scraper may write into. */
    async options(ctx: Context) {
      ctx.body = { data: { proxy_pools: proxyPoolNames(strapi), target_types: targetTypesOf(strapi) } };
    },

    async findOne(ctx: Context) {
      const [view] = await present([input(ctx, inputs.admin.one).row]);
      ctx.body = { data: view };
    },

    async create(ctx: Context) {
      const { user_id: userId, ...body } = input(ctx, inputs.adminCreate).body;
      const owner = (await strapi.db.query(UIDS.user).findOne({ where: { id: userId }, select: ['id', 'consumer_id'] })) as {
        id: number;
        consumer_id: string | null;
      } | null;
      if (!owner?.consumer_id) throw new UnknownOwnerError();
      await checkConfig(body);
      const [view] = await present([await scrapers().create(owner.consumer_id, body)]);
      ctx.status = 201;
      ctx.body = { data: view };
    },

    /** Changes the fields it names; the owner stays. */
    async update(ctx: Context) {
      const { row, body } = input(ctx, inputs.admin.update);
      await checkConfig(body, row);
      const [view] = await present([await scrapers().update(row, body)]);
      ctx.body = { data: view };
    },

    async results(ctx: Context) {
      const { row, query } = input(ctx, inputs.admin.results);
      ctx.body = await resultsPage(strapi, row, query);
    },
  };
};
