import fs from 'node:fs';
import { assertAdminBuilt } from '../helpers/admin-build';
import { startApp, type TestApp } from '../helpers/app';
import { closeBrowserTest, launchBrowser, registerFirstAdmin, type TestBrowser } from '../helpers/browser';
import { deliveriesPrinted, startPlayground, type Playground } from '../helpers/playground';
import { countedInLiveChart } from '../helpers/portal';
import { eventually } from '../helpers/wait';

/**
 * The README's "Your first hour", word for word, in a real browser: every click a step names is
 * made on the button or field of that name, every command is run as the step writes it (the
 * `curl` as the same request), and what the step says the newcomer sees is checked there. The
 * other end is `npm run playground` itself (scripts/playground.js), restarted with the signing
 * secret as step 5 says. A step whose words stop matching the screens fails here before a
 * newcomer meets it.
 */
const DEMO = { email: 'demo@example.com', password: 'demo-password-1' };
let app: TestApp;
let browser: TestBrowser;
let playground: Playground | undefined;
let apiKey = '';

beforeAll(async () => {
  assertAdminBuilt();
  app = await startApp({ serveAdminPanel: true, env: { SEED_DEMO_DATA: 'true' } });
  playground = await startPlayground();
  browser = await launchBrowser(app.url);
}, 180_000);

afterAll(async () => {
  await playground?.stop();
  await closeBrowserTest(browser, app);
});

it('2. signs in to the portal at /portal as the demo consumer: Overview shows the pro plan and its quota', async () => {
  const { page } = browser;
  await page.goto(`${app.url}/portal`);
  await page.getByLabel('Email or username').fill(DEMO.email);
  await page.getByLabel('Password').fill(DEMO.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
  await page.getByTestId('plan-name').getByText('pro').waitFor();
  await page
    .getByTestId('month-usage')
    .getByText(/of [\d,]+ requests/)
    .waitFor();
}, 60_000);

it('3. makes a key: Keys → Create a key, a name, read ticked, Create key; shown once', async () => {
  const { page } = browser;
  await page.getByRole('link', { name: 'Keys', exact: true }).click();
  await page.getByRole('heading', { name: 'Keys', level: 1 }).waitFor();
  await page.getByRole('button', { name: 'Create a key' }).click();
  await page.getByLabel('Name').fill('my first key');
  const read = page.getByLabel(/^read: /);
  expect(await read.isChecked()).toBe(true);
  await page.getByRole('button', { name: 'Create key' }).click();
  const shown = page.getByTestId('new-key');
  await shown.waitFor();
  apiKey = await shown.inputValue();
  expect(apiKey).toMatch(/^sk_/);
  await page.getByRole('button', { name: 'I have copied it' }).click();
}, 60_000);

it("4. calls the API with the key: the newest article, the rate-limit headers, and the call in Overview's live chart", async () => {
  const { page } = browser;
  await countedInLiveChart(page, async () => {
    // curl -i -H "X-API-Key: $API_KEY" "http://localhost:1337/api/v1/articles?limit=1"
    const answer = await fetch(`${app.url}/api/v1/articles?limit=1`, { headers: { 'X-API-Key': apiKey } });
    expect(answer.status).toBe(200);
    expect(((await answer.json()) as { data: unknown[] }).data).toHaveLength(1);
    expect(answer.headers.get('x-ratelimit-limit')).toEqual(expect.any(String));
    expect(answer.headers.get('x-ratelimit-remaining')).toEqual(expect.any(String));
  });
}, 60_000);

it('5. adds a webhook endpoint on the playground with a payload filter; the playground prints the test event; restarted with the secret', async () => {
  const { page } = browser;
  await page.getByRole('link', { name: 'Webhooks' }).click();
  await page.getByRole('button', { name: 'Add an endpoint' }).first().click();
  await page.getByLabel('Endpoint URL').fill(`${playground?.url}/hooks`);
  await page.getByLabel('article.created').check();
  await page.getByLabel('article.updated').check();
  await page.getByLabel('Payload filter (optional)').fill('{"status": "published"}');
  await page.getByRole('button', { name: 'Add endpoint' }).click();
  const shown = page.getByTestId('new-secret');
  await shown.waitFor();
  const secret = await shown.inputValue();
  expect(secret).toMatch(/^[A-Za-z0-9]{32}$/);
  await eventually(
    () => (playground?.lines.some((line) => line.includes('webhook.test, not checked')) ? true : undefined),
    10_000,
    () => `the test event printed: ${playground?.lines.join('\n')}`
  );
  // WEBHOOK_SECRET=<the secret> npm run playground, on the port the endpoint names.
  const port = Number(new URL(playground?.url as string).port);
  await playground?.stop();
  playground = await startPlayground(port, { WEBHOOK_SECRET: secret });
}, 60_000);

/** Content Manager → Article → Create new entry: a title, an excerpt, a body, the status, Save. */
async function writeArticle(title: string, status: 'draft' | 'published'): Promise<void> {
  const { page } = browser;
  await page.getByRole('link', { name: 'Content Manager' }).first().click();
  await page.getByRole('navigation').filter({ hasText: 'Collection Types' }).getByRole('link', { name: 'Article', exact: true }).click();
  await page.getByRole('heading', { name: 'Article', level: 1 }).waitFor();
  await page
    .getByRole('link', { name: /create new entry/i })
    .first()
    .click();
  await page.locator('input[name="title"]').fill(title);
  await page.locator('textarea[name="excerpt"]').fill('A first article.');
  // The body is Strapi's Markdown editor.
  await page.locator('.CodeMirror').first().click();
  await page.keyboard.type('Written during the walkthrough.');
  await page.getByRole('combobox', { name: /^Status/ }).click();
  await page.getByRole('option', { name: status, exact: true }).click();
  await page.getByRole('button', { name: /^save$/i }).click();
  await page.getByText('Saved document').first().waitFor();
}

it('6. an editor publishes an article in the admin panel: the playground prints it, verified; the portal lists it; a draft sends nothing', async () => {
  const { page } = browser;
  // /admin: the owner account is made on the first visit.
  await registerFirstAdmin(page, app.url);
  await writeArticle('A draft nobody is told of', 'draft');
  await writeArticle('Hello from the walkthrough', 'published');
  // The playground prints a delivery's line, then its data on the next (which may come a moment later).
  await eventually(
    () =>
      deliveriesPrinted(playground).length >= 1 && playground?.lines.join('\n').includes('Hello from the walkthrough') ? true : undefined,
    20_000,
    () => `the delivery and its data printed: ${playground?.lines.join('\n')}`
  );
  expect(deliveriesPrinted(playground)[0]).toContain('article.created, signature verified');

  // The endpoint's page in the portal lists the delivery and its attempt; the draft was held back by the filter.
  await page.goto(`${app.url}/portal/webhooks`);
  await page.getByRole('link', { name: `${playground?.url}/hooks` }).click();
  const rows = page.getByTestId('delivery-row');
  await rows.filter({ hasText: 'article.created' }).first().waitFor();
  const types = (await rows.locator('code').allInnerTexts()).sort();
  expect(types).toEqual(['article.created', 'webhook.test']);
  expect(deliveriesPrinted(playground)).toHaveLength(1);
}, 120_000);

it('7. scrapes the shop: Scrapers → New scraper, Create scraper, open it, Run now: 3 items, Download CSV', async () => {
  const { page } = browser;
  await page.getByRole('link', { name: 'Scrapers' }).click();
  await page.getByRole('button', { name: 'New scraper' }).first().click();
  await page.getByLabel('Name').fill('Playground shop');
  await page.getByLabel('Start URL').fill(`${playground?.url}/shop`);
  await page.getByLabel('Item selector (optional)').fill('.product');
  await page.getByLabel('Fields (optional)').fill('name: .name\nprice: .price\nlink: a.link@href');
  await page.getByRole('button', { name: 'Create scraper' }).click();
  await page.getByRole('link', { name: 'Playground shop' }).click();
  await page.getByRole('heading', { name: 'Playground shop', level: 1 }).waitFor();
  await page.getByRole('button', { name: 'Run now' }).click();
  const run = page.getByTestId('run-row').first();
  await run.getByText('completed').waitFor({ timeout: 60_000 });
  await run.getByText('3 items').waitFor();
  const [download] = await Promise.all([page.waitForEvent('download'), run.getByRole('button', { name: 'Download CSV' }).click()]);
  const file = await download.path();
  const csv = fs.readFileSync(file as string, 'utf8');
  expect(csv.trim().split('\n')).toHaveLength(4);
  expect(csv).toContain('Green teapot');
}, 120_000);

it('8. tries a route in the browser: API reference → GET /api/v1/articles → the key under Try it → Send', async () => {
  const { page } = browser;
  await page.getByRole('link', { name: 'API reference' }).click();
  await page.getByRole('heading', { name: 'API reference', level: 1 }).waitFor();
  await page.getByLabel('Find an operation').fill('/api/v1/articles');
  const operation = page.locator('[data-testid="operation"][data-method="GET"][data-path="/api/v1/articles"]');
  await operation.locator('summary').click();
  await page.getByLabel('API key', { exact: true }).fill(apiKey);
  await operation.getByRole('button', { name: 'Send' }).click();
  const answer = operation.getByTestId('try-answer');
  await answer.getByTestId('try-status').getByText('200').waitFor();
  await answer.getByTestId('try-header-x-ratelimit-limit').waitFor();
  await answer.getByTestId('try-body').waitFor();
}, 60_000);

it('9. sees a scraper fill a collection: Content Manager → Page lists the guides as drafts; one names the scraper and run that wrote it', async () => {
  const { page } = browser;
  // The demo's run started when the app began to listen: it has ended by now, or soon.
  const scraper = (await app.strapi.db
    .query('plugin::api-suite.scraper')
    .findOne({ where: { name: 'Guides from the demo site' }, select: ['id'] })) as { id: number } | null;
  expect(scraper).not.toBeNull();
  const run = await eventually(
    async () => {
      const found = (await app.strapi.db
        .query('plugin::api-suite.scraper-run')
        .findOne({ where: { scraper_id: scraper?.id }, select: ['status', 'error', 'items_collected'] })) as {
        status: string;
      } | null;
      return found && found.status !== 'pending' && found.status !== 'running' ? found : undefined;
    },
    30_000,
    "the demo scraper's run ended"
  );
  expect(run).toMatchObject({ status: 'completed', items_collected: 4 });

  await page.goto(`${app.url}/admin`);
  await page.getByRole('link', { name: 'Content Manager' }).first().click();
  await page.getByRole('navigation').filter({ hasText: 'Collection Types' }).getByRole('link', { name: 'Page', exact: true }).click();
  await page.getByRole('heading', { name: 'Page', level: 1 }).waitFor();
  for (const title of ['Verifying a webhook signature', 'Choosing a plan', 'Replaying failed deliveries', 'Rotating an API key'])
    await page.getByText(title, { exact: true }).waitFor();
  await page.getByText('Verifying a webhook signature', { exact: true }).click();
  const panel = page.getByTestId('written-by');
  await panel.getByText('Created by').waitFor();
  await panel.getByRole('link', { name: 'Guides from the demo site' }).waitFor();
  await panel.getByRole('link', { name: /Run #\d+/ }).waitFor();
}, 90_000);
