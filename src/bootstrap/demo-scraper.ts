import type { AddressInfo } from 'node:net';
import type { Core } from '@strapi/strapi';
import { DEMO_CONSUMER } from './demo-consumer';

/**
 * A scraper that fills one of the site's collections (docs/scrapers.md#the-demo): it reads the
 * guides page the app serves from `public/demo-site/`, and writes each guide into Pages as a draft
 * for an editor to review, keyed by its slug. Made once, for the demo consumer, with the target an
 * administrator would set; its first run starts as soon as the app listens, so the Content Manager
 * shows its drafts, and where each came from, on the first visit.
 */
export const DEMO_SCRAPER_NAME = 'Guides from the demo site';

interface ScraperRow {
  id: number;
}
interface ScrapersService {
  create(consumerId: string, body: Record<string, unknown>): Promise<ScraperRow>;
}
interface RunsService {
  begin(scraper: ScraperRow, trigger: 'manual'): Promise<{ id: number }>;
}

export function seedDemoScraper(strapi: Core.Strapi): void {
  // Like the demo consumer it belongs to: never in production.
  if (process.env.NODE_ENV === 'production') return;
  const server = strapi.server.httpServer;
  const seed = () =>
    createAndRun(strapi, (server.address() as AddressInfo).port).catch((error: Error) =>
      strapi.log.warn(`[demo] the demo scraper was not set up: ${error.message}`)
    );
  // The page it reads is served by this app: the run starts once it answers.
  if (server.listening) void seed();
  else server.once('listening', () => void seed());
}

async function createAndRun(strapi: Core.Strapi, port: number): Promise<void> {
  const user = (await strapi.db
    .query('plugin::users-permissions.user')
    .findOne({ where: { email: DEMO_CONSUMER.email }, select: ['consumer_id'] })) as { consumer_id: string | null } | null;
  if (!user?.consumer_id) return;
  const existing = await strapi.db.query('plugin::api-suite.scraper').count({ where: { name: DEMO_SCRAPER_NAME } });
  if (existing > 0) return;
  const plugin = strapi.plugin('api-suite');
  const scraper = await (plugin.service('scrapers') as ScrapersService).create(user.consumer_id, {
    name: DEMO_SCRAPER_NAME,
    url: `http://127.0.0.1:${port}/demo-site/guides.html`,
    max_pages: 1,
    follow_links: false,
    selectors: { item: '.guide', fields: { title: '.title', slug: '.slug', body: '.body' } },
    target: {
      type: 'api::page.page',
      key: 'slug',
      fields: { title: 'title', slug: 'slug', body: 'body' },
      publish: 'draft',
      removed: 'unpublish',
    },
  });
  const run = await (plugin.service('scraper-runs') as RunsService).begin(scraper, 'manual');
  strapi.log.info(
    `[demo] scraper "${DEMO_SCRAPER_NAME}" (run ${run.id}) is writing the guides of /demo-site/guides.html into Pages as drafts`
  );
}
