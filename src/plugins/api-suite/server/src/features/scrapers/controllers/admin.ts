import type { Core } from '@strapi/strapi';
import type { Context } from 'koa';
import { ALL_CONSUMERS, UIDS } from '../../../constants';
import { ApiError, respondStrapiError } from '../../../http/errors';
import { getService } from '../../../utils';
import { checkScraperConfig, proxyPoolNames } from '../check-config';
import { AlreadyRunningError, presentRun } from '../services/runs';
import type { ScraperRow } from '../services/scrapers';
import { adminCreateScraperBody, listQuery, resultsQuery, updateScraperBody } from '../validation';

/**
 * `/api-suite/scrapers/*` for the admin panel: every consumer's scrapers, created for a chosen
 * consumer, edited, run and stopped, with their runs and results. The scraper services do the work.
 */
export default ({ strapi }: { strapi: Core.Strapi }) => {
  const scrapers = () => getService(strapi, 'scrapers');
  const runs = () => getService(strapi, 'scraper-runs');

  const scraperOf = async (ctx: Context): Promise<ScraperRow> => {
    const raw = String(ctx.params.id ?? '');
    const row = /^\d{1,10}$/.test(raw) ? await scrapers().get(Number(raw)) : null;
    if (!row) throw new ApiError(404, 'not_found', 'Scraper not found');
    return row;
  };

  /** The API's checks, with an address the server may not fetch reported on the url field for the form. */
  const checkConfig = async (body: Parameters<typeof checkScraperConfig>[1], current?: ScraperRow) => {
    try {
      await checkScraperConfig(strapi, body, current);
    } catch (error) {
      if (error instanceof ApiError && error.code === 'endpoint_not_allowed') {
        throw new ApiError(error.status, error.code, error.message, [{ field: 'url', message: error.message }]);
      }
      throw error;
    }
  };

  /** Scrapers as the API shows them, with their owner and latest run. */
  const present = async (rows: ScraperRow[]) => {
    const owners = await getService(strapi, 'consumers').describe(rows.map((row) => row.consumer_id));
    return Promise.all(
      rows.map(async (row) => {
        const latest = await runs().latest(row.id);
        return { ...scrapers().present(row), owner: owners.get(row.consumer_id) ?? null, latest_run: latest ? presentRun(latest) : null };
      })
    );
  };

  return {
    async find(ctx: Context) {
      await respondStrapiError(ctx, async () => {
        const query = listQuery.parse(ctx.query);
        const { rows, total } = await scrapers().list(ALL_CONSUMERS, query.page, query.limit);
        ctx.body = { data: await present(rows), meta: { page: query.page, limit: query.limit, total } };
      });
    },

    /** What the form offers: the configured proxy pools. */
    async options(ctx: Context) {
      ctx.body = { data: { proxy_pools: proxyPoolNames(strapi) } };
    },

    async findOne(ctx: Context) {
      await respondStrapiError(ctx, async () => {
        const [view] = await present([await scraperOf(ctx)]);
        ctx.body = { data: view };
      });
    },

    async create(ctx: Context) {
      await respondStrapiError(ctx, async () => {
        const { user_id: userId, ...body } = adminCreateScraperBody.parse(ctx.request.body ?? {});
        const owner = (await strapi.db.query(UIDS.user).findOne({ where: { id: userId }, select: ['id', 'consumer_id'] })) as {
          id: number;
          consumer_id: string | null;
        } | null;
        if (!owner?.consumer_id)
          throw new ApiError(400, 'validation_error', 'user_id: must be an existing user', [
            { field: 'user_id', message: 'must be an existing user' },
          ]);
        await checkConfig(body);
        const [view] = await present([await scrapers().create(owner.consumer_id, body)]);
        ctx.status = 201;
        ctx.body = { data: view };
      });
    },

    /** Changes the fields it names; the owner stays. */
    async update(ctx: Context) {
      await respondStrapiError(ctx, async () => {
        const row = await scraperOf(ctx);
        const body = updateScraperBody.parse(ctx.request.body ?? {});
        await checkConfig(body, row);
        const [view] = await present([await scrapers().update(row, body)]);
        ctx.body = { data: view };
      });
    },

    async delete(ctx: Context) {
      await respondStrapiError(ctx, async () => {
        await scrapers().remove(await scraperOf(ctx));
        ctx.status = 204;
        ctx.body = null;
      });
    },

    async run(ctx: Context) {
      await respondStrapiError(ctx, async () => {
        const row = await scraperOf(ctx);
        try {
          const run = await runs().begin(row, 'manual');
          ctx.status = 202;
          ctx.body = { data: { run_id: run.id, status: 'started' } };
        } catch (error) {
          if (error instanceof AlreadyRunningError) {
            throw new ApiError(409, 'already_running', `${row.name} is already running${error.runId ? ` (run ${error.runId})` : ''}`);
          }
          throw error;
        }
      });
    },

    async stop(ctx: Context) {
      await respondStrapiError(ctx, async () => {
        const row = await scraperOf(ctx);
        const run = await runs().stopActive(row.id);
        if (!run) throw new ApiError(409, 'not_running', `${row.name} is not running`);
        ctx.body = { data: { run_id: run.id, status: 'stopped' } };
      });
    },

    async runs(ctx: Context) {
      await respondStrapiError(ctx, async () => {
        const row = await scraperOf(ctx);
        const query = listQuery.parse(ctx.query);
        const { rows, total } = await runs().list(row.id, query.page, query.limit);
        ctx.body = { data: rows.map(presentRun), meta: { page: query.page, limit: query.limit, total } };
      });
    },

    async runOne(ctx: Context) {
      await respondStrapiError(ctx, async () => {
        const row = await scraperOf(ctx);
        const raw = String(ctx.params.runId ?? '');
        const run = /^\d{1,10}$/.test(raw) ? await runs().get(Number(raw)) : null;
        if (!run || run.scraper_id !== row.id) throw new ApiError(404, 'not_found', 'Run not found');
        ctx.body = { data: presentRun(run) };
      });
    },

    async results(ctx: Context) {
      await respondStrapiError(ctx, async () => {
        const row = await scraperOf(ctx);
        const query = resultsQuery.parse(ctx.query);
        const { rows, total } = await runs().results(row.id, {
          runId: query.run_id,
          change: query.change,
          page: query.page,
          limit: query.limit,
        });
        ctx.body = { data: rows, meta: { page: query.page, limit: query.limit, total } };
      });
    },
  };
};
