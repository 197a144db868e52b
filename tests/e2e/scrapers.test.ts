import { startApp, type TestApp } from '../helpers/app';
import { assertAdminBuilt } from '../helpers/admin-build';
import { closeBrowserTest, launchBrowser, openPluginPage, registerFirstAdmin, screenshot, waitForCount, type TestBrowser } from '../helpers/browser';
import { startSite, type TestSite } from '../helpers/site';
import { registerUser, type TestUser } from '../helpers/users';

/**
 * The Scrapers page in a real browser: an editor creates a scraper for a consumer against a local
 * site (the server's validation messages shown under the fields first), runs it, and reads its
 * results in the table.
 */
let app: TestApp;
let browser: TestBrowser;
let site: TestSite;
let alice: TestUser;

beforeAll(async () => {
  assertAdminBuilt();
  site = await startSite();
  app = await startApp({ serveAdminPanel: true });
  alice = await registerUser(app);
  browser = await launchBrowser(app.url);
}, 120_000);

afterAll(() => closeBrowserTest(browser, app, site));

it('registers the first admin through the /admin form', async () => {
  await registerFirstAdmin(browser.page, app.url);
}, 90_000);

it('creates a scraper against a local site, runs it and shows its results', async () => {
  const { page } = browser;
  await openPluginPage(page, app.url, '/scrapers', 'Scrapers');
  await page.getByText(/No scrapers yet/).waitFor();
  await page.getByRole('button', { name: 'New scraper' }).first().click();
  const dialog = page.getByRole('dialog');

  // Sent as the editor typed it: the server's messages appear under each field.
  await dialog.locator('input[name="name"]').fill('Local shop');
  await dialog.locator('input[name="url"]').fill('not a url');
  await dialog.locator('input[name="schedule"]').fill('every minute');
  await dialog.getByRole('button', { name: 'Create scraper' }).click();
  await dialog.getByText('choose the user who owns this scraper').waitFor();
  await dialog.getByText('must be an absolute http(s) URL').waitFor();
  await dialog.getByText('must be a cron expression of 5 fields (minute first) or 6 (second first)').waitFor();
  await screenshot(page, 'scrapers-form-errors');

  const owner = dialog.getByRole('combobox', { name: /Consumer/ });
  await owner.click();
  await owner.fill(alice.username);
  await page.getByRole('option', { name: new RegExp(alice.username) }).click();
  await dialog.locator('input[name="url"]').fill(`${site.url}/`);
  await dialog.locator('input[name="schedule"]').fill('0 3 * * *');
  await dialog.locator('input[name="selectors.item"]').fill('.product');
  await dialog.locator('textarea[name="selectors.fields"]').fill('name: .name\nlink: a.link@href');
  await dialog.getByRole('button', { name: 'Create scraper' }).click();
  await dialog.waitFor({ state: 'hidden' });

  await page.getByRole('heading', { name: 'Local shop', level: 1 }).waitFor();
  await page.getByText(/has not run yet/).waitFor();
  await page.getByRole('button', { name: 'Run now' }).click();
  const results = page.getByTestId('result-row');
  await waitForCount(results, 3);
  for (const name of ['A', 'B', 'C']) await results.getByText(name, { exact: true }).waitFor();
  await results.getByText(`${site.url}/items/a`).waitFor();
  await page.getByTestId('run-row').first().getByText('Completed').waitFor();
  await page.getByRole('button', { name: 'Run now' }).waitFor();
  await screenshot(page, 'scrapers-results');

  // It belongs to Alice: her API lists it.
  const mine = await app.request().get('/api/v1/scrapers').set('Authorization', `Bearer ${alice.jwt}`);
  expect(mine.body.data.map((scraper: { name: string }) => scraper.name)).toEqual(['Local shop']);

  await openPluginPage(page, app.url, '/scrapers', 'Scrapers');
  const row = page.getByTestId('scraper-row').filter({ hasText: 'Local shop' });
  await row.getByText('3 items').waitFor();
  await row.getByText(alice.username).waitFor();
  await screenshot(page, 'scrapers-list');
}, 120_000);

it('shows a run in progress and stops it', async () => {
  const { page } = browser;
  const created = await app.strapi.plugin('api-suite').service('scrapers').create(alice.consumer_id, { name: 'Slow site', url: `${site.url}/hang` });
  await openPluginPage(page, app.url, `/scrapers/${created.id}`, 'Slow site');
  await page.getByRole('button', { name: 'Run now' }).click();
  await page.getByTestId('run-progress').waitFor();
  await page.getByText(/is crawling|is waiting for a worker/).waitFor();
  await screenshot(page, 'scrapers-running');
  await page.getByRole('button', { name: 'Stop' }).click();
  await page.getByTestId('run-progress').waitFor({ state: 'detached' });
  await page.getByTestId('run-row').first().getByText('Stopped').waitFor();
}, 90_000);
