import type { Core } from '@strapi/strapi';
import { NotFoundError } from '../../errors';
import { reaches, type Viewer } from '../../http/consumer';
import { getService } from '../../utils';
import type { RunRow } from './runs/rows';
import type { ScraperRow } from './services/scrapers';

/** The scraper `id`, if `viewer` may reach it; any other answers 404, as one that does not exist does. */
export async function scraperFor(strapi: Core.Strapi, id: number, viewer: Viewer): Promise<ScraperRow> {
  const row = await getService(strapi, 'scrapers').get(id);
  if (!row || !reaches(viewer, row.consumer_id)) throw new NotFoundError('Scraper');
  return row;
}

/** The run `runId` of the scraper `id` (null: a path segment that is no id), with its scraper; 404 Scraper, then 404 Run. */
export async function runFor(
  strapi: Core.Strapi,
  params: { id: number; runId: number | null },
  viewer: Viewer
): Promise<{ scraper: ScraperRow; run: RunRow }> {
  const scraper = await scraperFor(strapi, params.id, viewer);
  const run = params.runId === null ? null : await getService(strapi, 'scraper-runs').get(params.runId);
  if (!run || run.scraper_id !== scraper.id) throw new NotFoundError('Run');
  return { scraper, run };
}
