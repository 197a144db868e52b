import type { Page, Response } from 'playwright-core';
import { startApp, type TestApp } from '../helpers/app';
import { assertAdminBuilt } from '../helpers/admin-build';
import { closeBrowserTest, FIRST_ADMIN, launchBrowser, logIn, measureWidths, screenshot, type TestBrowser } from '../helpers/browser';
import { stripeEnv, STRIPE_WEBHOOK_SECRET } from '../helpers/commerce';
import { DESKTOP, PHONE } from '../helpers/portal';
import { startSite, type TestSite } from '../helpers/site';
import { startStripeStub, type StripeStub } from '../helpers/stripe-stub';
import { adminSession, registerUser, type TestUser } from '../helpers/users';
import { subscribe } from '../helpers/webhooks';
import { eventually } from '../helpers/wait';

/**
 * The screenshot review: every page a newcomer sees, in the consumer portal and in the admin
 * panel, photographed at 1440 × 900 and at 390 × 844 (tests/e2e/screenshots/review-*.png), with
 * data on them (a key, an endpoint with a payload filter, a scraper with a run). Each page fails
 * the test when it is wider than the window, when one of its tables is cut off inside its box, or
 * when the plugin's own code causes a console error, a page error or an error answer from the
 * plugin's routes. Every page is looked at before the test fails, and the failure names them all.
 */
let app: TestApp;
let browser: TestBrowser;
let stub: StripeStub;
let site: TestSite;
let consumer: TestUser;
let endpointId = '';
let scraperId = 0;

beforeAll(async () => {
  assertAdminBuilt();
  stub = await startStripeStub();
  site = await startSite();
  app = await startApp({ serveAdminPanel: true, env: { ...stripeEnv(stub), STRIPE_CURRENCY: 'eur' } });
  stub.webhookTarget = { url: `${app.url}/api/webhook/stripe`, secret: STRIPE_WEBHOOK_SECRET };
  app.strapi.config.set('server.absoluteUrl', app.url);
  // The site's owner, registered as the first visitor of /admin would be (the test signs in as them).
  await adminSession(app);
  consumer = await registerUser(app, { plan: 'pro' });
  const as = { Authorization: `Bearer ${consumer.jwt}` };
  const key = await app
    .request()
    .post('/api/v1/keys')
    .set(as)
    .send({ name: 'Production server', scopes: ['read', 'write'] });
  expect([key.status, key.body.error]).toEqual([201, undefined]);
  // Nothing listens there: its deliveries fail, with their errors to show.
  endpointId = (
    await subscribe(app, consumer, {
      endpoint_url: 'http://127.0.0.1:9/hooks/orders',
      events: ['order.paid', 'article.created'],
      description: 'Orders over 100 euros, for the accounting system',
      filter: { total: { $gt: 100 } },
    })
  ).id;
  const scraper = await app
    .request()
    .post('/api/v1/scrapers')
    .set(as)
    .send({ name: 'Shop prices', url: `${site.url}/`, selectors: { item: '.product', fields: { name: '.name', link: 'a.link@href' } } });
  expect([scraper.status, scraper.body.error]).toEqual([201, undefined]);
  scraperId = scraper.body.id as number;
  expect((await app.request().post(`/api/v1/scrapers/${scraperId}/run`).set(as)).status).toBeLessThan(300);
  await eventually(
    async () => {
      const runs = await app.request().get(`/api/v1/scrapers/${scraperId}/runs`).set(as);
      return (runs.body.data as Array<{ status: string }>)[0]?.status === 'completed' ? true : undefined;
    },
    30_000,
    'the scraper run completed'
  );
  await eventually(
    async () => ((await app.request().get('/api/v1/billing/plans')).status === 200 && stub.store.prices.size >= 2 ? true : undefined),
    20_000,
    'billing provisioned'
  );
  browser = await launchBrowser(app.url);
  // Error answers of the plugin's own routes, whatever the console says of them (it says only "Failed to load resource").
  browser.page.on('response', (response: Response) => {
    const url = new URL(response.url());
    if (response.status() >= 400 && PLUGIN_ROUTES.test(url.pathname)) failed.push(`${response.status()} ${url.pathname}`);
  });
}, 180_000);

afterAll(() => closeBrowserTest(browser, app, stub, site));

/** The plugin's routes: its admin routes, its content API and the portal. */
const PLUGIN_ROUTES = /^\/(api-suite\/|api\/v1\/|api\/webhooks\/|portal(\/|$)|api\/openapi)/;
const failed: string[] = [];
/** What each page showed wrong, by its screenshot name: every page is looked at before the test fails. */
const problems: Record<string, string[]> = {};

it('shows every portal page a newcomer sees within the window, without errors', async () => {
  const { page } = browser;
  await page.goto(`${app.url}/portal/sign-in`);
  await page.getByLabel('Email').fill(consumer.email);
  await page.getByLabel('Password').fill(consumer.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();

  await review(page, 'portal-overview', '/portal', 'Overview', () => page.getByTestId('plan-name').getByText('pro').waitFor());
  await review(page, 'portal-keys', '/portal/keys', 'Keys', () => page.getByText('Production server').first().waitFor());
  await review(page, 'portal-webhooks', '/portal/webhooks', 'Webhooks', () => page.getByText('127.0.0.1:9').first().waitFor());
  await review(page, 'portal-endpoint-with-filter', `/portal/webhooks/${endpointId}`, undefined, () =>
    page.getByText('total').first().waitFor()
  );
  await review(page, 'portal-event-catalog', '/portal/webhooks/event-types', undefined, () =>
    page.getByText('order.paid').first().waitFor()
  );
  await review(page, 'portal-reference', '/portal/reference', 'API reference', () => page.getByText('/api/v1/keys').first().waitFor());
  await review(page, 'portal-scrapers', '/portal/scrapers', 'Scrapers', () => page.getByText('Shop prices').first().waitFor());
  await review(page, 'portal-scraper', `/portal/scrapers/${scraperId}`, 'Shop prices', () => page.getByText('completed').first().waitFor());
  await review(page, 'portal-billing', '/portal/billing', 'Plans and billing', () => page.getByText('enterprise').first().waitFor());
  await review(page, 'portal-account', '/portal/account', 'Account', () => page.getByText(consumer.email).first().waitFor());
  expect(problems).toEqual({});
}, 240_000);

it('shows every admin page a newcomer sees within the window, without errors', async () => {
  const { page } = browser;
  await logIn(page, app.url, FIRST_ADMIN);
  const plugin = '/admin/plugins/api-suite';
  await review(page, 'admin-overview', plugin, undefined, () => page.getByText('Webhooks').first().waitFor());
  await review(page, 'admin-access', `${plugin}/access?tab=keys`, 'API access', () => page.getByTestId('key-row').first().waitFor());
  await review(page, 'admin-access-consumers', `${plugin}/access?tab=consumers`, 'API access', () =>
    page.getByTestId('consumer-row').first().waitFor()
  );
  await review(page, 'admin-access-plans', `${plugin}/access?tab=plans`, 'API access', () =>
    page.getByTestId('plan-row').first().waitFor()
  );
  await review(page, 'admin-webhooks', `${plugin}/webhooks`, 'Webhooks', () => page.getByTestId('subscription-row').first().waitFor());
  await review(page, 'admin-scrapers', `${plugin}/scrapers`, 'Scrapers', () => page.getByTestId('scraper-row').first().waitFor());
  await review(page, 'admin-sales', `${plugin}/sales`, 'Sales', () => page.locator('h1').first().waitFor());
  expect(problems).toEqual({});
}, 240_000);

/**
 * Open `path`, wait for its heading and for `ready` (its data on screen), then look at it wide and
 * narrow: each width photographed and measured.
 */
async function review(page: Page, name: string, path: string, title: string | undefined, ready: () => Promise<void>): Promise<void> {
  const errorsBefore = browser.errors.length;
  const failedBefore = failed.length;
  await page.setViewportSize(DESKTOP);
  await page.goto(`${app.url}${path}`);
  if (title) await page.getByRole('heading', { name: title, level: 1 }).first().waitFor();
  else await page.locator('h1').first().waitFor();
  await ready();
  for (const size of [DESKTOP, PHONE]) {
    await page.setViewportSize(size);
    // The layout follows the new width before the next frame; wait for it rather than a fixed time.
    await page.evaluate('new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))');
    const shot = `review-${name}-${size.width}`;
    const { scrollWidth, innerWidth, tables } = await measureWidths(page);
    await screenshot(page, shot);
    const found: string[] = [];
    if (scrollWidth > innerWidth) found.push(`the page is ${scrollWidth - innerWidth} px wider than the window`);
    tables.forEach((overflow, index) => {
      if (overflow > 1) found.push(`table ${index} is cut off by ${Math.round(overflow)} px`);
    });
    if (found.length > 0) problems[shot] = found;
  }
  const errors = [...browser.errors.slice(errorsBefore), ...failed.slice(failedBefore).map((line) => `error answer: ${line}`)];
  if (errors.length > 0) problems[`review-${name}`] = [...(problems[`review-${name}`] ?? []), ...errors];
  await page.setViewportSize(DESKTOP);
}
