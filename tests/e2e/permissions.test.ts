import { startApp, type TestApp } from '../helpers/app';
import { assertAdminBuilt } from '../helpers/admin-build';
import { API_SUITE_ACTIONS, createAdminEditor, type AdminEditor } from '../helpers/admin-users';
import { closeBrowserTest, launchBrowser, logIn, openPluginPage, screenshot, waitForCount, type TestBrowser } from '../helpers/browser';
import { startReceiver, type Receiver } from '../helpers/receiver';
import { startSite, type TestSite } from '../helpers/site';
import { registerUser, type TestUser } from '../helpers/users';
import { subscribe, waitForPosts } from '../helpers/webhooks';

/**
 * A read-only editor in a real browser: a role holding the plugin's read actions for webhooks and
 * scrapers only sees those pages, with every write button hidden, and not the API access or Sales pages.
 */
let app: TestApp;
let browser: TestBrowser;
let receiver: Receiver;
let site: TestSite;
let alice: TestUser;
let editor: AdminEditor;
let scraperId: number;

beforeAll(async () => {
  assertAdminBuilt();
  receiver = await startReceiver();
  site = await startSite();
  app = await startApp({ serveAdminPanel: true });
  alice = await registerUser(app, { plan: 'enterprise' });
  await subscribe(app, alice, { endpoint_url: `${receiver.url}/alice`, events: ['*'] });
  await waitForPosts(receiver, 1);
  const scrapers = app.strapi.plugin('api-suite').service('scrapers');
  scraperId = (await scrapers.create(alice.consumer_id, { name: 'Alice shop', url: `${site.url}/` })).id;
  // The site owner (first admin, registered through the API here) makes a read-only role.
  editor = await createAdminEditor(app, [API_SUITE_ACTIONS.webhooksRead, API_SUITE_ACTIONS.scrapersRead]);
  browser = await launchBrowser(app.url);
}, 120_000);

afterAll(() => closeBrowserTest(browser, app, site, receiver));

it('signs the editor in through the login form and shows only the pages it may read', async () => {
  const { page } = browser;
  await logIn(page, app.url, editor);
  await openPluginPage(page, app.url, '', 'API Suite');
  const nav = page.getByRole('navigation', { name: 'API Suite' });
  await nav.getByRole('link', { name: 'Webhooks' }).waitFor();
  await nav.getByRole('link', { name: 'Scrapers' }).waitFor();
  expect(await nav.getByRole('link', { name: 'API access' }).count()).toBe(0);
  expect(await nav.getByRole('link', { name: 'Sales' }).count()).toBe(0);
  await page.goto(`${app.url}/admin/plugins/api-suite/access`);
  await page.getByText(/don't have the permissions/i).waitFor();
}, 90_000);

it('shows webhooks without test, retry, re-enable or event-type switches', async () => {
  const { page } = browser;
  await openPluginPage(page, app.url, '/webhooks', 'Webhooks');
  await page.getByTestId('subscription-row').click();
  await waitForCount(page.getByTestId('delivery-row'), 1);
  expect(await page.getByRole('button', { name: 'Send a test' }).count()).toBe(0);
  await page.getByTestId('delivery-row').click();
  await page.getByRole('dialog').getByTestId('attempt-row').waitFor();
  expect(await page.getByRole('button', { name: 'Retry now' }).count()).toBe(0);
  await screenshot(page, 'readonly-webhooks-delivery');
  await page.keyboard.press('Escape');

  await openPluginPage(page, app.url, '/webhooks?tab=event-types', 'Webhooks');
  const row = page.getByTestId('event-type-row').filter({ hasText: 'order.paid' });
  await row.getByRole('button', { name: 'View' }).waitFor();
  expect(await row.getByRole('button', { name: /Edit/ }).count()).toBe(0);
  expect(await row.getByRole('switch').count()).toBe(0);
  await row.getByRole('button', { name: 'View' }).click();
  await page.getByRole('dialog').getByText('Example payload (JSON)').waitFor();
  expect(await page.getByRole('dialog').getByRole('button', { name: 'Save' }).count()).toBe(0);
  await screenshot(page, 'readonly-event-type');
}, 90_000);

it('shows scrapers without create, run, edit or delete', async () => {
  const { page } = browser;
  await openPluginPage(page, app.url, '/scrapers', 'Scrapers');
  await page.getByTestId('scraper-row').waitFor();
  expect(await page.getByRole('button', { name: 'New scraper' }).count()).toBe(0);
  await openPluginPage(page, app.url, `/scrapers/${scraperId}`, 'Alice shop');
  await page.getByText('This scraper has not run yet.').waitFor();
  // Exact names: the user menu's "Eve Editor" would match a loose "Edit".
  for (const name of ['Run now', 'Edit', 'Delete'])
    expect([name, await page.getByRole('button', { name, exact: true }).count()]).toEqual([name, 0]);
  await screenshot(page, 'readonly-scraper');
}, 90_000);
