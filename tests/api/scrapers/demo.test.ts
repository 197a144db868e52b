import { startApp, type TestApp } from '../../helpers/app';
import { eventually } from '../../helpers/wait';

/**
 * The demo (docs/scrapers.md#the-demo): where demo data is seeded, a scraper owned by the demo
 * consumer reads the guides page the app serves from public/demo-site/ and writes each guide into
 * Pages as a draft, in a run that starts once the app listens. Booted again on the same database,
 * it is neither made nor run a second time.
 */
let app: TestApp | undefined;

afterAll(async () => {
  await app?.close();
});

const GUIDES = ['guide-choosing-a-plan', 'guide-replaying-deliveries', 'guide-rotating-keys', 'guide-verifying-signatures'];

interface Run {
  id: number;
  status: string;
  trigger: string;
  items_collected: number;
}

it('fills Pages with the guides as drafts, once', async () => {
  app = await startApp({ env: { SEED_DEMO_DATA: 'true' }, keepDatabase: true });
  const { strapi } = app;
  const scrapers = () => strapi.db.query('plugin::api-suite.scraper').findMany({ where: { name: 'Guides from the demo site' } });
  const runs = async () =>
    (await strapi.db.query('plugin::api-suite.scraper-run').findMany({ select: ['id', 'status', 'trigger', 'items_collected'] })) as Run[];

  const run = await eventually(
    async () => {
      const [only] = await runs();
      return only && ['completed', 'failed', 'stopped'].includes(only.status) ? only : undefined;
    },
    30_000,
    "the demo scraper's run ended"
  );
  expect(run).toMatchObject({ status: 'completed', trigger: 'manual', items_collected: 4 });

  // Drafts an editor reviews: no published version yet, each with its guide's text.
  const pages = (await strapi.documents('api::page.page').findMany({
    filters: { slug: { $startsWith: 'guide-' } },
    sort: 'slug',
  })) as unknown as Array<{ slug: string; title: string; body: string; publishedAt: string | null }>;
  expect(pages.map((page) => page.slug)).toEqual(GUIDES);
  expect(pages.every((page) => page.publishedAt === null)).toBe(true);
  expect(pages.find((page) => page.slug === 'guide-rotating-keys')).toMatchObject({
    title: 'Rotating an API key',
    body: expect.stringContaining('Reroll the key with a grace period'),
  });
  const published = await strapi
    .documents('api::page.page')
    .findMany({ filters: { slug: { $startsWith: 'guide-' } }, status: 'published' });
  expect(published).toEqual([]);

  // The demo consumer owns it, and the Content Manager can say which run wrote each one.
  const [scraper] = (await scrapers()) as Array<{ id: number; consumer_id: string }>;
  const owner = await strapi.db.query('plugin::users-permissions.user').findOne({ where: { email: 'demo@example.com' } });
  expect(scraper.consumer_id).toBe((owner as { consumer_id: string }).consumer_id);
  const written = (await strapi.db
    .query('plugin::api-suite.scraper-target-write')
    .findMany({ where: { scraper_id: scraper.id, run_id: run.id }, select: ['action'] })) as Array<{ action: string }>;
  expect(written.map((write) => write.action)).toEqual(['created', 'created', 'created', 'created']);

  // A second boot on the same database neither makes it again nor runs it again.
  const database = app.database;
  await app.close();
  app = await startApp({ env: { SEED_DEMO_DATA: 'true' }, database });
  const again = app.strapi;
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  expect(await again.db.query('plugin::api-suite.scraper').count({ where: { name: 'Guides from the demo site' } })).toBe(1);
  expect(await again.db.query('plugin::api-suite.scraper-run').count({})).toBe(1);
}, 120_000);
