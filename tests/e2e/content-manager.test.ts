import { startApp, type TestApp } from '../helpers/app';
import { assertAdminBuilt } from '../helpers/admin-build';
import {
  closeBrowserTest,
  FIRST_ADMIN,
  launchBrowser,
  registerFirstAdmin,
  screenshot,
  waitForCount,
  type TestBrowser,
} from '../helpers/browser';
import { timePasses } from '../helpers/wait';

/**
 * The Content Manager as an editor sees it on a new database: it opens on the site's articles,
 * listed by title, newest first, with their own status (a draft says so); the records only the
 * plugin writes (keys, usage records, runs, results, deliveries) are not offered at all.
 */
let app: TestApp;
let browser: TestBrowser;
let token: string;

const LIST = (uid: string) => `${app.url}/admin/content-manager/collection-types/${uid}`;

beforeAll(async () => {
  assertAdminBuilt();
  app = await startApp({ serveAdminPanel: true });
  browser = await launchBrowser(app.url);
  // Signed in as the site's owner, registered through the /admin form as a new site's first visitor
  // would; three articles written through the Content Manager API for the pages below.
  await registerFirstAdmin(browser.page, app.url);
  const login = await app.request().post('/admin/login').send({ email: FIRST_ADMIN.email, password: FIRST_ADMIN.password });
  expect(login.status).toBe(200);
  token = login.body.data.token as string;
  const base = '/content-manager/collection-types/api::article.article';
  for (const [title, status] of [
    ['Webhooks that never lose an event', 'published'],
    ['Quotas, explained', 'archived'],
    ['Unfinished: OAuth client credentials', 'draft'],
  ]) {
    const created = await app.request().post(base).set('Authorization', `Bearer ${token}`).send({ title, status, excerpt: 'x', body: 'x' });
    expect([created.status, created.body.error]).toEqual([201, undefined]);
    // createdAt has a millisecond resolution: keep the three apart on the clock.
    await timePasses(20);
  }
}, 180_000);

afterAll(() => closeBrowserTest(browser, app));

it('lists articles by title, newest first, with their own status', async () => {
  const { page } = browser;
  await page.goto(LIST('api::article.article'));
  const rows = page.locator('tbody tr');
  await waitForCount(rows, 3);

  const headers = await columnHeaders();
  expect(headers.slice(0, 4)).toEqual(['TITLE', 'STATUS', 'AUTHOR', 'UPDATED']);

  const cells = async (row: number) => (await rows.nth(row).locator('td').allInnerTexts()).map((text) => text.trim());
  const first = await cells(0);
  expect(first).toEqual(expect.arrayContaining(['Unfinished: OAuth client credentials', 'Draft']));
  expect(await cells(1)).toEqual(expect.arrayContaining(['Quotas, explained', 'Archived']));
  expect(await cells(2)).toEqual(expect.arrayContaining(['Webhooks that never lose an event', 'Published']));
  // No UUID column.
  expect(headers).not.toContain('UUID');
  // The plugin registers its menu link the way Strapi 5 expects: no deprecation notice on any page.
  expect(browser.pluginWarnings).toEqual([]);
  await screenshot(page, 'content-manager-articles');
}, 60_000);

it('opens a published article with its status chosen and saves an edited title', async () => {
  const { page } = browser;
  const auth = { Authorization: `Bearer ${token}` };
  const base = '/content-manager/collection-types/api::article.article';
  const list = await app.request().get(base).query({ 'filters[title][$eq]': 'Webhooks that never lose an event' }).set(auth);
  const { documentId } = list.body.results[0] as { documentId: string };

  await page.goto(`${LIST('api::article.article')}/${documentId}`);
  const title = page.locator('input[name="title"]');
  await title.waitFor();
  // The stored status is chosen, not the select's "Choose here".
  const status = page.getByRole('combobox', { name: /^Status/ });
  await expect(status.innerText()).resolves.toMatch(/^published$/i);

  await title.fill('Webhooks that never lose an event, revised');
  await page.getByRole('button', { name: /^save$/i }).click();
  await page.getByText('Saved document').first().waitFor();
  expect(await page.getByText('This value is required').count()).toBe(0);
  await expect(status.innerText()).resolves.toMatch(/^published$/i);
  await screenshot(page, 'content-manager-article-saved');

  const opened = await app.request().get(`${base}/${documentId}`).set(auth);
  expect(opened.body.data).toMatchObject({ title: 'Webhooks that never lose an event, revised', status: 'published' });
}, 60_000);

it("opens on the site's content and does not offer the records only the plugin writes", async () => {
  const { page } = browser;
  await page.goto(`${app.url}/admin/content-manager`);
  // The Content Manager opens on the first type of its menu.
  await page.waitForURL((url) => url.pathname.endsWith('/collection-types/api::article.article'));
  await page.getByRole('heading', { name: 'Article', level: 1 }).waitFor();
  const navigation = page.getByRole('navigation').filter({ hasText: 'Collection Types' });
  await navigation.getByRole('link', { name: 'Article', exact: true }).waitFor();
  const offered = (await navigation.getByRole('link').allInnerTexts()).map((text) => text.trim());
  expect(offered[0]).toBe('Article');
  for (const hidden of [
    'API key',
    'API usage record',
    'Webhook delivery',
    'Webhook delivery attempt',
    'Scraper run',
    'Scraper result',
    'Stripe event',
    'Webhook topic',
  ]) {
    expect(offered).not.toContain(hidden);
  }
  expect(offered).toEqual(
    expect.arrayContaining(['Article', 'Plan', 'Order', 'Product', 'Scraper', 'Webhook subscription', 'Webhook event type'])
  );
  await screenshot(page, 'content-manager-menu');
}, 60_000);

it('shows products and plans in their declared columns', async () => {
  const { page } = browser;
  const auth = { Authorization: `Bearer ${token}` };
  const product = await app
    .request()
    .post('/content-manager/collection-types/api::product.product')
    .set(auth)
    .send({ name: 'Integration handbook (print)', price: 29, stock: 250, menuindex: 1, published: true });
  expect(product.status).toBe(201);

  // Column headers are set in capitals by the admin's style.
  const columns: Array<[string, string, string[]]> = [
    ['api::product.product', 'content-manager-products', ['NAME', 'PRICE (EUR)', 'IN STOCK', 'PUBLISHED', 'POSITION']],
    [
      'plugin::api-suite.plan',
      'content-manager-plans',
      ['NAME', 'PRICE A MONTH (EUR)', 'REQUESTS A MONTH', 'REQUESTS A MINUTE', 'DEFAULT PLAN'],
    ],
  ];
  for (const [uid, name, expected] of columns) {
    await page.goto(LIST(uid));
    await page.locator('tbody tr').first().waitFor();
    expect((await columnHeaders()).slice(0, expected.length)).toEqual(expected);
    await screenshot(page, name);
  }
}, 90_000);

/** The list's column headers as shown, without the selection and actions columns. */
async function columnHeaders(): Promise<string[]> {
  return (await browser.page.locator('thead th').allInnerTexts()).map((text) => text.trim()).filter(Boolean);
}
