import { startApp, type TestApp } from '../helpers/app';
import { assertAdminBuilt } from '../helpers/admin-build';
import {
  closeBrowserTest,
  launchBrowser,
  openPluginPage,
  registerFirstAdmin,
  screenshot,
  waitForCount,
  type TestBrowser,
} from '../helpers/browser';
import { startSite, type TestSite } from '../helpers/site';
import { registerUser, type TestUser } from '../helpers/users';

/**
 * The Scrapers page in a real browser: an editor creates a scraper for a consumer against a local
 * site (the server's validation messages shown under the fields first), runs it, and reads its
 * results in the table; turns change detection on and sees each run's changes and filters by them.
 */
let app: TestApp;
let browser: TestBrowser;
let site: TestSite;
let alice: TestUser;

beforeAll(async () => {
  assertAdminBuilt();
  site = await startSite();
  app = await startApp({ serveAdminPanel: true });
  alice = await registerUser(app, { plan: 'enterprise' });
  browser = await launchBrowser(app.url);
  // Signed in as the site's owner, registered through the /admin form as a new site's first visitor would.
  await registerFirstAdmin(browser.page, app.url);
}, 180_000);

afterAll(() => closeBrowserTest(browser, app, site));

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

it("turns change detection on in the form, shows each run's changes and filters the results by change", async () => {
  const { page } = browser;
  const created = await app.strapi
    .plugin('api-suite')
    .service('scrapers')
    .create(alice.consumer_id, {
      name: 'Watched shop',
      url: `${site.url}/`,
      selectors: { item: '.product', fields: { name: '.name', link: 'a.link@href' } },
    });
  await openPluginPage(page, app.url, `/scrapers/${created.id}`, 'Watched shop');
  await page.getByTestId('change-detection').getByText('Off').waitFor();

  // A key the items do not have: the server's message under the key field.
  await page.getByRole('button', { name: 'Edit' }).click();
  const dialog = page.getByRole('dialog');
  const key = dialog.locator('input[name="change_detection.key"]');
  expect(await key.isDisabled()).toBe(true);
  await dialog.getByRole('checkbox', { name: 'Change detection' }).click();
  await key.fill('colour');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await dialog.getByText("must be one of the items' fields (name, link)").waitFor();
  await screenshot(page, 'scrapers-change-detection-form');
  await key.fill('name');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await dialog.waitFor({ state: 'hidden' });
  await page.getByTestId('change-detection').getByText('On, items keyed by name').waitFor();

  // The first run finds every item new; the second, on the same site, nothing changed.
  await page.getByRole('button', { name: 'Run now' }).click();
  await page.getByTestId('run-row').first().getByText('3 new · 0 changed · 0 removed').waitFor();
  const results = page.getByTestId('result-row');
  await waitForCount(results, 3);
  await waitForCount(page.locator('[data-testid="result-row"][data-change="new"]'), 3);
  await page.getByRole('button', { name: 'Run now' }).click();
  await page.getByTestId('run-row').first().getByText('0 new · 0 changed · 0 removed').waitFor();
  await waitForCount(page.locator('[data-testid="result-row"][data-change="unchanged"]'), 3);
  await page.getByRole('heading', { name: 'Run history' }).scrollIntoViewIfNeeded();
  await page.mouse.wheel(0, 400);
  await screenshot(page, 'scrapers-change-detection-runs');

  // Filtered to new and changed, the second run shows nothing; the first run shows its three.
  await page.getByRole('combobox', { name: 'Show' }).click();
  await page.getByRole('option', { name: 'New and changed' }).click();
  await page.getByText('No result of this run matches the filter.').waitFor();
  await page.getByTestId('run-row').nth(1).click();
  await waitForCount(page.locator('[data-testid="result-row"][data-change="new"]'), 3);
  await page.mouse.wheel(0, 400);
  await screenshot(page, 'scrapers-change-detection-filter');
}, 120_000);

it('shows a run in progress and stops it', async () => {
  const { page } = browser;
  const created = await app.strapi
    .plugin('api-suite')
    .service('scrapers')
    .create(alice.consumer_id, { name: 'Slow site', url: `${site.url}/hang` });
  await openPluginPage(page, app.url, `/scrapers/${created.id}`, 'Slow site');
  await page.getByRole('button', { name: 'Run now' }).click();
  await page.getByTestId('run-progress').waitFor();
  await page.getByText(/is crawling|is waiting for a worker/).waitFor();
  await screenshot(page, 'scrapers-running');
  await page.getByRole('button', { name: 'Stop' }).click();
  await page.getByTestId('run-progress').waitFor({ state: 'detached' });
  await page.getByTestId('run-row').first().getByText('Stopped').waitFor();
}, 90_000);

it("maps a content type's attributes to the items' fields, and the Content Manager shows the drafts with the run that wrote them", async () => {
  const { page } = browser;
  await openPluginPage(page, app.url, '/scrapers', 'Scrapers');
  await page.getByRole('button', { name: 'New scraper' }).first().click();
  const dialog = page.getByRole('dialog');
  const owner = dialog.getByRole('combobox', { name: /Consumer/ });
  await owner.click();
  await owner.fill(alice.username);
  await page.getByRole('option', { name: new RegExp(alice.username) }).click();
  await dialog.locator('input[name="name"]').fill('Site pages');
  await dialog.locator('input[name="url"]').fill(`${site.url}/`);
  await dialog.locator('input[name="selectors.item"]').fill('.product');
  await dialog.locator('textarea[name="selectors.fields"]').fill('title: .name\nlink: a.link@href');

  // The site's collection types are offered; choosing Page offers its attributes, each filled by an item field.
  await dialog.getByRole('combobox', { name: 'Content type' }).click();
  await page.getByRole('option', { name: 'Page', exact: true }).click();
  // title is filled by the item field of its name, and becomes the key; body is filled by hand.
  await dialog.getByRole('combobox', { name: 'Key' }).getByText('title').waitFor();
  await dialog.getByRole('combobox', { name: 'body (richtext)' }).click();
  // Only the items' fields are offered.
  await waitForCount(page.getByRole('option'), 4);
  await page.getByRole('option', { name: 'link', exact: true }).click();
  await screenshot(page, 'scrapers-target-form');
  await dialog.getByRole('button', { name: 'Create scraper' }).click();
  await dialog.waitFor({ state: 'hidden' });

  await page.getByRole('heading', { name: 'Site pages', level: 1 }).waitFor();
  await page.getByRole('button', { name: 'Run now' }).click();
  const writes = page.getByTestId('write-row');
  await waitForCount(writes, 3);
  await waitForCount(page.locator('[data-testid="write-row"][data-action="created"]'), 3);
  await page.getByTestId('run-row').first().getByText('Completed').waitFor();
  await page.getByRole('button', { name: 'Run now' }).waitFor();
  await page.getByTestId('target').getByText('api::page.page, keyed by title; As drafts, for an editor to publish').waitFor();
  await page.getByTestId('write-row').first().scrollIntoViewIfNeeded();
  await screenshot(page, 'scrapers-target-writes');

  // The drafts wait for an editor, and say where they came from.
  const drafts = (await app.strapi
    .documents('api::page.page')
    .findMany({ filters: { title: { $in: ['A', 'B', 'C'] } } })) as unknown as Array<{
    title: string;
    body: string | null;
    publishedAt: string | null;
  }>;
  expect(drafts.map((doc) => [doc.title, doc.body, doc.publishedAt]).sort()).toEqual([
    ['A', `${site.url}/items/a`, null],
    ['B', `${site.url}/items/b`, null],
    ['C', 'https://shop.example/c', null],
  ]);
  await writes
    .filter({ has: page.getByText('A', { exact: true }) })
    .getByRole('link', { name: 'Open in the Content Manager' })
    .click();
  const panel = page.getByTestId('written-by');
  await panel.getByText('Created by').waitFor();
  await panel.getByRole('link', { name: 'Site pages' }).waitFor();
  await panel.getByRole('link', { name: /Run #\d+/ }).waitFor();
  await screenshot(page, 'scrapers-target-content-manager');
  // Its run link leads back to the run's page, with the run's entries.
  await panel.getByRole('link', { name: /Run #\d+/ }).click();
  await page.getByRole('heading', { name: 'Site pages', level: 1 }).waitFor();
  await waitForCount(page.getByTestId('write-row'), 3);
}, 150_000);
