import fs from 'node:fs';
import type { Request } from 'playwright-core';
import { startApp, type TestApp } from '../helpers/app';
import { closeBrowserTest, launchBrowser, type TestBrowser } from '../helpers/browser';
import { compileWithTypes, openapiFetchProgram } from '../helpers/openapi-types';
import { newPortalUser, shoot, signUp } from '../helpers/portal';

/**
 * The portal's API reference in a real browser, under the portal's CSP: a consumer on the free
 * plan makes a key, opens the reference (a file of its own, fetched only then), finds
 * GET /api/v1/articles, tries it with the pasted key and sees 200 and the rate-limit headers;
 * sees that the free plan does not reach the scrapers' routes, with the way to Billing; follows an
 * event type to the event catalog; and downloads the document and the TypeScript types, against
 * which an openapi-fetch call compiles with tsc. The key is never stored by the page.
 */
let app: TestApp;
let browser: TestBrowser;
let apiKey = '';
const requested: string[] = [];
const dana = newPortalUser('dana');

beforeAll(async () => {
  app = await startApp();
  browser = await launchBrowser(app.url);
  browser.page.on('request', (request: Request) => requested.push(new URL(request.url()).pathname));
}, 120_000);

afterAll(() => closeBrowserTest(browser, app));

it('makes a key, and the other pages have not loaded the reference', async () => {
  const { page } = browser;
  await signUp(page, app.url, dana);
  await page.getByRole('link', { name: 'Keys', exact: true }).click();
  await page.getByRole('button', { name: 'Create your first key' }).click();
  await page.getByLabel('Name').fill('Reference');
  await page.getByRole('button', { name: 'Create key' }).click();
  apiKey = await page.getByTestId('new-key').inputValue();
  expect(apiKey).toMatch(/^sk_[A-Za-z0-9]{48}$/);
  await page.getByRole('button', { name: 'I have copied it' }).click();
  // The code the pages share is named in the page (modulepreload) and loaded with it; the reference's own file is not.
  const preloaded = /<link rel="modulepreload" href="([^"]+)">/.exec((await app.request().get('/portal')).text)?.[1];
  expect(preloaded).toMatch(/^\/portal\/assets\/chunk-[A-Z0-9]+\.js$/);
  expect(requested).toContain(preloaded);
  expect(requested.filter((path) => /\/portal\/assets\/Reference-/.test(path))).toEqual([]);
}, 60_000);

it('finds GET /api/v1/articles and tries it with the pasted key: 200 and X-RateLimit-Remaining', async () => {
  const { page } = browser;
  await page.getByRole('link', { name: 'API reference' }).click();
  await page.getByRole('heading', { name: 'API reference', level: 1 }).waitFor();
  expect(requested.filter((path) => /\/portal\/assets\/Reference-[A-Z0-9]+\.js$/.test(path))).toHaveLength(1);
  await page.getByRole('heading', { name: 'Articles', level: 2 }).waitFor();
  await shoot(page, 'reference');

  await page.getByLabel('Find an operation').fill('/api/v1/articles');
  const list = page.locator('[data-testid="operation"][data-method="GET"][data-path="/api/v1/articles"]');
  await list.locator('summary').click();
  await list.getByRole('heading', { name: 'Parameters' }).waitFor();
  await list.getByTestId('example-curl').getByText('X-API-Key: $API_KEY').waitFor();
  await list.getByTestId('example-fetch').getByText('process.env.API_KEY').waitFor();

  // Without a key the page says so and sends nothing.
  await list.getByRole('button', { name: 'Send' }).click();
  await list.getByText('Paste one of your keys above first.').waitFor();

  await page.getByLabel('API key', { exact: true }).fill(apiKey);
  await list.getByLabel('limit', { exact: true }).fill('1');
  await list.getByText('GET /api/v1/articles?limit=1').waitFor();
  await list.getByTestId('example-curl').getByText(`${app.url}/api/v1/articles?limit=1`).waitFor();
  await list.getByRole('button', { name: 'Send' }).click();
  const answer = list.getByTestId('try-answer');
  await answer.getByTestId('try-status').getByText('200').waitFor();
  expect(await answer.getByTestId('try-header-x-ratelimit-limit').locator('dd').textContent()).toBe('10');
  const remaining = Number(await answer.getByTestId('try-header-x-ratelimit-remaining').locator('dd').textContent());
  // The free plan's 10 a minute: this request was counted.
  expect(remaining).toBeGreaterThanOrEqual(0);
  expect(remaining).toBeLessThan(10);
  const body = JSON.parse((await answer.getByTestId('try-body').textContent()) ?? '') as { data: unknown[]; meta: unknown };
  expect(body.data.length).toBeLessThanOrEqual(1);

  // The key was sent to the API only and kept nowhere.
  const stored = String(await page.evaluate('JSON.stringify([{ ...localStorage }, { ...sessionStorage }, document.cookie])'));
  expect(stored).not.toContain(apiKey);
  expect(JSON.stringify(await browser.context.cookies())).not.toContain(apiKey);
  await shoot(page, 'reference-try-it');
}, 90_000);

it('marks the routes the free plan does not reach, with the plans that do and the way to Billing', async () => {
  const { page } = browser;
  await page.getByLabel('Find an operation').fill('scrapers');
  const scrapers = page.locator('[data-testid="operation"][data-method="GET"][data-path="/api/v1/scrapers"]');
  await scrapers.getByTestId('operation-not-in-plan').getByText('Not in your plan').waitFor();
  await scrapers.locator('summary').click();
  const offer = scrapers.getByTestId('not-in-plan');
  await offer.getByRole('heading', { name: 'This route is not included in the free plan' }).waitFor();
  await offer.getByTestId('plan-offer').filter({ hasText: /^pro/ }).waitFor();
  await offer.getByRole('link', { name: 'See all plans' }).waitFor();
  await shoot(page, 'reference-not-in-plan');
  // Reading articles is in the free plan (no mark), writing them is not.
  await page.getByLabel('Find an operation').fill('/api/v1/articles');
  const read = page.locator('[data-testid="operation"][data-method="GET"][data-path="/api/v1/articles"]');
  await read.waitFor();
  expect(await read.getByTestId('operation-not-in-plan').count()).toBe(0);
  await page
    .locator('[data-testid="operation"][data-method="POST"][data-path="/api/v1/articles"]')
    .getByTestId('operation-not-in-plan')
    .waitFor();
  // What the site's Public role may call is marked as needing no key, whatever the plan says.
  await page.getByLabel('Find an operation').fill('/api/comments');
  const publicList = page.locator('[data-testid="operation"][data-method="GET"][data-path="/api/comments"]');
  await publicList.getByText('No key needed').waitFor();
  expect(await publicList.getByTestId('operation-not-in-plan').count()).toBe(0);
  await page
    .locator('[data-testid="operation"][data-method="POST"][data-path="/api/comments"]')
    .getByTestId('operation-not-in-plan')
    .waitFor();
  await page.getByLabel('Find an operation').fill('');
}, 60_000);

it('links each webhook event type to its schema in the event catalog', async () => {
  const { page } = browser;
  const link = page.getByTestId('reference-event-types').getByRole('link').first();
  const name = (await link.textContent()) ?? '';
  expect(name).toMatch(/^[a-z_]+\.[a-z_.]+$/);
  await link.click();
  await page.getByRole('heading', { name: 'Event catalog', level: 1 }).waitFor();
  const opened = page.locator(`details[id="event-${name}"][open]`);
  await opened.getByRole('heading', { name: 'Example' }).waitFor();
  await page.goBack();
  await page.getByRole('heading', { name: 'API reference', level: 1 }).waitFor();
}, 60_000);

it('downloads the document and the TypeScript types, and an openapi-fetch call compiles against them', async () => {
  const { page } = browser;
  const downloads = page.getByTestId('downloads');
  const [document] = await Promise.all([page.waitForEvent('download'), downloads.getByRole('link', { name: 'OpenAPI document' }).click()]);
  expect(document.suggestedFilename()).toBe('openapi.json');
  const served = (await app.request().get('/api/v1/openapi.json')).body as unknown;
  expect(JSON.parse(fs.readFileSync(await document.path(), 'utf8'))).toEqual(served);

  const [typesFile] = await Promise.all([page.waitForEvent('download'), downloads.getByRole('link', { name: 'TypeScript types' }).click()]);
  expect(typesFile.suggestedFilename()).toBe('openapi.d.ts');
  const types = fs.readFileSync(await typesFile.path(), 'utf8');
  expect(types).toContain('"/api/v1/articles": {');
  expect(await compileWithTypes(types, openapiFetchProgram())).toEqual({ code: 0, output: '' });
  const wrong = await compileWithTypes(types, openapiFetchProgram('/api/v1/artikles'));
  expect(wrong.code).not.toBe(0);
  expect(browser.errors).toEqual([]);
}, 300_000);
