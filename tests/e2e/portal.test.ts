import { startApp, type TestApp } from '../helpers/app';
import { closeBrowserTest, launchBrowser, UI_TIMEOUT_MS, waitForCount, type TestBrowser } from '../helpers/browser';
import { stripeEnv, STRIPE_WEBHOOK_SECRET } from '../helpers/commerce';
import { countedInLiveChart, newPortalUser, shoot, signUp } from '../helpers/portal';
import { startReceiver, type Receiver } from '../helpers/receiver';
import { startSite, type TestSite } from '../helpers/site';
import { startStripeStub, type StripeStub } from '../helpers/stripe-stub';
import { grantPlan } from '../helpers/users';
import { eventually } from '../helpers/wait';

/**
 * The consumer portal in a real browser, over the public API only: a consumer signs up, sees the
 * free plan and its pool before any key and the plans that include webhooks and scrapers where the
 * free plan stops, makes a key and sees it once, watches a request arrive in the live chart, buys a plan through the Stripe
 * stub's Checkout and sees the new quota, adds a webhook endpoint on a local receiver, tests it,
 * sees the attempts, lets the receiver fail and recovers the failed deliveries once it is back;
 * a second consumer sees none of it. Every page is photographed at 1440 and 390 px.
 */
let app: TestApp;
let browser: TestBrowser;
let stub: StripeStub;
let receiver: Receiver;
let site: TestSite;
let apiKey = '';
let endpointPath = '';
const alice = newPortalUser('alice');

beforeAll(async () => {
  stub = await startStripeStub();
  receiver = await startReceiver();
  site = await startSite();
  // No retries: a failed test delivery stays failed, for recovery to find.
  app = await startApp({ env: { ...stripeEnv(stub), STRIPE_CURRENCY: 'eur', WEBHOOK_RETRY_SCHEDULE: '' } });
  stub.webhookTarget = { url: `${app.url}/api/webhook/stripe`, secret: STRIPE_WEBHOOK_SECRET };
  // Checkout sends the buyer back to the site's public URL, which an app on an ephemeral port only knows once listening.
  app.strapi.config.set('server.absoluteUrl', app.url);
  await eventually(
    async () => ((await app.request().get('/api/v1/billing/plans')).status === 200 && stub.store.prices.size >= 2 ? true : undefined),
    20_000,
    'billing provisioned'
  );
  browser = await launchBrowser(app.url);
}, 120_000);

afterAll(() => closeBrowserTest(browser, app, stub, receiver, site));

it("signs up through the portal, with the server's field errors beside the fields", async () => {
  const { page } = browser;
  await page.goto(`${app.url}/portal/keys`);
  await page.getByRole('heading', { name: 'Sign in' }).waitFor();
  await shoot(page, 'sign-in');
  await page.getByRole('link', { name: 'Create one' }).click();
  await page.getByLabel('Username').fill('x');
  await page.getByLabel('Email', { exact: true }).fill('not-an-email');
  await page.getByLabel('Password').fill('pw');
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.locator('.field-error').first().waitFor();
  await shoot(page, 'sign-up-errors');
  await signUp(page, app.url, alice);
  expect(browser.errors).toEqual([]);
}, 90_000);

it('shows a new consumer their plan and its pool before any key, and what the plan leaves out', async () => {
  const { page } = browser;
  await page.getByTestId('plan-name').getByText('free').waitFor();
  await page.getByTestId('plan-limits').getByText('1,000 requests a month, 10 a minute.').waitFor();
  await page.getByTestId('plan-includes').getByText('Includes: Reading articles.').waitFor();
  // The pool is there before the first key: never "0 of 0".
  await page.getByTestId('month-usage').getByText('of 1,000 requests').waitFor();
  await shoot(page, 'overview-before-key');

  for (const [tab, what] of [
    ['Webhooks', 'Webhooks'],
    ['Scrapers', 'Scrapers'],
  ] as const) {
    await page.getByRole('link', { name: tab, exact: true }).click();
    const offer = page.getByTestId('not-in-plan');
    await offer.getByRole('heading', { name: `${what} are not included in the free plan` }).waitFor();
    // The plans that reach them, with price and what they include; the free plan is not among them.
    const pro = offer.getByTestId('plan-offer').filter({ hasText: /^pro/ });
    await pro.getByText('€49.00').waitFor();
    await pro.getByTestId('plan-includes').getByText(what).waitFor();
    await offer.getByTestId('plan-offer').filter({ hasText: 'enterprise' }).waitFor();
    expect(await offer.getByTestId('plan-offer').filter({ hasText: /^free/ }).count()).toBe(0);
    await offer.getByRole('link', { name: 'Choose a plan in Plans and billing' }).waitFor();
    // No form to fill in and no error banner.
    expect(await page.getByRole('button', { name: /Add an endpoint|New scraper/ }).count()).toBe(0);
    expect(await page.locator('.notice-error').count()).toBe(0);
    await shoot(page, `${tab.toLowerCase()}-not-in-plan`);
  }
  await page.getByTestId('not-in-plan').getByRole('link', { name: 'Choose a plan in Plans and billing' }).click();
  await page.getByRole('heading', { name: 'Plans and billing', level: 1 }).waitFor();
  await page.getByRole('link', { name: 'Overview' }).click();
}, 60_000);

it('creates a key and shows it once, with a copy button', async () => {
  const { page } = browser;
  await page.getByRole('link', { name: 'Keys' }).click();
  await page.getByText('No keys yet').waitFor();
  await shoot(page, 'keys-empty');
  await page.getByRole('button', { name: 'Create your first key' }).click();
  await page.getByLabel('Name').fill('CI job');
  await page.getByLabel(/write: every other request/).check();
  await page.getByRole('button', { name: 'Create key' }).click();
  const shown = page.getByTestId('new-key');
  await shown.waitFor();
  apiKey = await shown.inputValue();
  expect(apiKey).toMatch(/^sk_[A-Za-z0-9]{48}$/);
  await page.getByRole('button', { name: 'Copy' }).click();
  await page.getByText('Copied to the clipboard.').waitFor();
  expect(await page.evaluate('navigator.clipboard.readText()')).toBe(apiKey);
  await shoot(page, 'keys-new');
  await page.getByRole('button', { name: 'I have copied it' }).click();
  await page
    .getByTestId('key-row')
    .filter({ hasText: 'CI job' })
    .getByText(`${apiKey.slice(0, 8)}…`)
    .waitFor();
  await page.getByTestId('key-row').filter({ hasText: 'CI job' }).getByTestId('key-plan').getByText('Plan: free').waitFor();
  expect(await page.content()).not.toContain(apiKey);
  await page.reload();
  await page.getByTestId('key-row').first().waitFor();
  expect(await page.content()).not.toContain(apiKey);
}, 60_000);

it('shows a request in the live usage chart', async () => {
  const { page } = browser;
  await countedInLiveChart(page, async () => {
    expect((await app.request().get('/api/v1/articles').set('X-API-Key', apiKey)).status).toBe(200);
  });
  await page.getByTestId('plan-name').getByText('free').waitFor();
  await page.getByTestId('month-usage').getByText('of 1,000 requests').waitFor();
  await shoot(page, 'overview');
}, 60_000);

it('buys a plan through Checkout and sees the new quota', async () => {
  const { page } = browser;
  await page.getByRole('link', { name: 'Plans and billing' }).click();
  const pro = page.getByTestId('plan-offer').filter({ hasText: /^pro/ });
  await pro.getByText('€49.00').waitFor();
  await page.getByTestId('plan-offer').filter({ hasText: /^free/ }).getByText('Your plan').waitFor();
  await pro
    .getByTestId('plan-includes')
    .getByText(/Webhooks, Scrapers/)
    .waitFor();
  await shoot(page, 'billing');
  await pro.getByRole('button', { name: 'Buy pro' }).click();
  await page.waitForURL(/\/pay\/cs_/);
  await page.getByRole('button', { name: 'Pay' }).click();
  await page.waitForURL(/\/portal\?checkout=success/);
  await page.getByTestId('checkout-notice').getByText('your new plan is active').waitFor();
  await page.getByTestId('plan-name').getByText('pro').waitFor();
  await page.getByTestId('month-usage').getByText('of 100,000 requests').waitFor();
  await page.getByTestId('plan-limits').getByText('100,000 requests a month, 100 a minute.').waitFor();
  await shoot(page, 'overview-after-checkout');
  await page.getByRole('link', { name: 'Plans and billing' }).click();
  await page.getByTestId('subscription-line').getByText('active').waitFor();
  await page.getByTestId('plan-offer').filter({ hasText: 'enterprise' }).getByRole('button', { name: 'Switch to enterprise' }).waitFor();
  await shoot(page, 'billing-subscribed');
}, 90_000);

it('adds a webhook endpoint, sends a test and sees its attempt', async () => {
  const { page } = browser;
  await page.getByRole('link', { name: 'Webhooks' }).click();
  await page.getByText('No endpoints yet').waitFor();
  await shoot(page, 'webhooks-empty');
  await page.getByRole('button', { name: 'Add your first endpoint' }).click();
  await page.getByLabel('Endpoint URL').fill('ftp://nowhere');
  await page.getByLabel('Rate limit (optional)').fill('0');
  await page.getByRole('button', { name: 'Add endpoint' }).click();
  await page.locator('.field-invalid').filter({ hasText: 'Endpoint URL' }).locator('.field-error').waitFor();
  await page
    .locator('.field-invalid')
    .filter({ hasText: 'Rate limit' })
    .getByText('must be between 1 and 1000, or null for no limit')
    .waitFor();
  await page.locator('.field-invalid').filter({ hasText: 'Events' }).locator('.field-error').waitFor();
  await shoot(page, 'webhooks-errors');
  await page.getByLabel('Endpoint URL').fill(`${receiver.url}/alice`);
  await page.getByLabel('Rate limit (optional)').fill('20');
  await page.getByLabel('webhook.test').check();
  await page.getByRole('button', { name: 'Add endpoint' }).click();
  const secret = await page.getByTestId('new-secret').inputValue();
  expect(secret).toMatch(/^[A-Za-z0-9]{32}$/);
  await page.getByRole('link', { name: 'Open the endpoint' }).click();
  endpointPath = new URL(page.url()).pathname;
  await page.getByTestId('endpoint-rate-limit').getByText('20 a second at most').waitFor();
  await page.getByRole('button', { name: 'Send a test event' }).click();
  await page.getByTestId('test-result').getByText('Test delivered: HTTP 200').waitFor();
  await page.locator('[data-testid="delivery-row"][data-status="succeeded"]').first().getByRole('button', { name: 'Attempts' }).click();
  await page.getByTestId('attempt-row').first().getByText('HTTP 200').waitFor();
  await shoot(page, 'endpoint');
  await page.getByRole('link', { name: 'Webhooks' }).first().click();
  await page.getByRole('link', { name: 'Event catalog' }).click();
  await waitForCount(page.getByTestId('event-type'), 10, { atLeast: true });
  // Each type opens on its fields in words and its example; the JSON Schema (draft 2020-12) is one click away.
  const orderPaid = page.getByTestId('event-type').filter({ hasText: 'order.paid' });
  await orderPaid.locator('summary').first().click();
  const fields = orderPaid.getByRole('table', { name: 'order.paid fields' });
  await fields.getByRole('row').filter({ hasText: 'created_at' }).getByText('text, date-time').waitFor();
  expect(await fields.textContent()).not.toContain('pattern');
  await orderPaid.getByText('JSON Schema', { exact: true }).click();
  await orderPaid.getByLabel('order.paid schema').getByText('"additionalProperties": false').waitFor();
  await shoot(page, 'event-catalog');
}, 90_000);

it('recovers the deliveries that failed while the receiver was down', async () => {
  const { page } = browser;
  await page.goto(`${app.url}${endpointPath}`);
  receiver.setReply(() => ({ status: 500 }));
  for (let i = 0; i < 2; i += 1) {
    await page.getByRole('button', { name: 'Send a test event' }).click();
    await page.getByTestId('test-result').getByText('Test failed: HTTP 500').waitFor();
  }
  await waitForCount(page.locator('[data-testid="delivery-row"][data-status="failed"]'), 2);
  receiver.setReply(() => ({ status: 200 }));
  const received = receiver.requests.length;
  await page.getByRole('button', { name: 'Recover' }).click();
  await page.getByTestId('recover-result').getByText('2 deliveries queued again.').waitFor();
  await receiver.waitFor(received + 2, UI_TIMEOUT_MS);
  await eventually(
    async () => {
      await page.getByRole('button', { name: 'Refresh' }).click();
      return (await page.locator('[data-testid="delivery-row"][data-status="failed"]').count()) === 0 ? true : undefined;
    },
    UI_TIMEOUT_MS,
    'no failed deliveries left'
  );
  await shoot(page, 'endpoint-recovered');
}, 90_000);

it('creates and runs a scraper, and offers its results', async () => {
  const { page } = browser;
  await page.getByRole('link', { name: 'Scrapers' }).click();
  await page.getByText('No scrapers yet').waitFor();
  await shoot(page, 'scrapers-empty');
  await page.getByRole('button', { name: 'Create your first scraper' }).click();
  // The page limit starts where the server's (and the admin panel's) default is.
  expect(await page.getByLabel('Pages at most').inputValue()).toBe('100');
  await page.getByLabel('Name').fill('Shop');
  await page.getByLabel('Start URL').fill(`${site.url}/`);
  await page.getByLabel('Schedule (optional)').fill('not cron');
  await page.getByLabel('Detect changes between runs').check();
  await page.getByLabel('Key field (optional)').fill('sku');
  await page.getByRole('button', { name: 'Create scraper' }).click();
  await page.getByText(/must be a cron expression/).waitFor();
  await page.getByLabel('Schedule (optional)').fill('');
  await page.getByRole('button', { name: 'Create scraper' }).click();
  // Without selectors an item has only url and title: the server says so beside the key.
  await page.locator('.field-invalid').filter({ hasText: 'Key field' }).locator('.field-error').waitFor();
  await page.getByLabel('Key field (optional)').fill('');
  await page.getByRole('button', { name: 'Create scraper' }).click();
  await page.getByTestId('scraper-row').getByRole('link', { name: 'Shop' }).click();
  // Every setting is shown, an empty change-detection key said as what it means.
  const settings = page.getByTestId('scraper-settings');
  await settings.getByText("none: each page's URL and title").waitFor();
  await page
    .getByTestId('scraper-change-detection')
    .getByText(/an item is recognised by its url field/)
    .waitFor();
  await shoot(page, 'scraper-settings');
  // Edited in place, through PATCH /api/v1/scrapers/{id}.
  await page.getByRole('button', { name: 'Edit' }).click();
  expect(await page.getByLabel('Pages at most').inputValue()).toBe('100');
  await page.getByLabel('Pages at most').fill('7');
  // Speed, robots.txt and request headers are edited here too, a header refused beside its field.
  expect(await page.getByLabel('Requests a second').inputValue()).toBe('5');
  await page.getByLabel('Requests a second').fill('3');
  await page.getByLabel("Keep to the site's robots.txt").uncheck();
  await page.getByLabel('Request headers (optional)').fill('Host: elsewhere.example');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await page.locator('.field-invalid').filter({ hasText: 'Request headers' }).locator('.field-error').waitFor();
  await page.getByLabel('Request headers (optional)').fill('Accept-Language: en');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await settings.getByText('7', { exact: true }).waitFor();
  await settings.getByText("at most 3 requests a second, ignoring the site's robots.txt, directly (no proxy pool)").waitFor();
  await page.getByTestId('scraper-headers').getByText('Accept-Language').waitFor();
  await page.getByRole('button', { name: 'Run now' }).click();
  await page.getByTestId('run-row').getByText('completed').waitFor();
  await page.getByTestId('run-row').getByRole('button', { name: 'Download CSV' }).waitFor();
  // The first compared run finds every item new.
  await page
    .getByTestId('run-changes')
    .getByText(/^\d+ new · 0 changed · 0 removed$/)
    .waitFor();
  await shoot(page, 'scraper');
}, 90_000);

it("shows a second consumer none of the first one's keys, endpoints or plan", async () => {
  const { page } = browser;
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.getByRole('heading', { name: 'Sign in' }).waitFor();
  const bob = newPortalUser('bob');
  await signUp(page, app.url, bob);
  await page.getByTestId('plan-name').getByText('free').waitFor();
  // On a plan with webhooks and scrapers (an administrator's grant), so the pages show bob's own, empty lists.
  const bobId = (
    (await app.strapi.db.query('plugin::users-permissions.user').findOne({ where: { username: bob.username }, select: ['id'] })) as {
      id: number;
    }
  ).id;
  await grantPlan(app, { id: bobId }, 'pro');
  await page.reload();
  await page.getByTestId('plan-name').getByText('pro').waitFor();
  await page.getByRole('link', { name: 'Keys' }).click();
  await page.getByText('No keys yet').waitFor();
  await page.getByRole('link', { name: 'Webhooks' }).click();
  await page.getByText('No endpoints yet').waitFor();
  await page.getByRole('link', { name: 'Scrapers' }).click();
  await page.getByText('No scrapers yet').waitFor();
  await page.goto(`${app.url}${endpointPath}`);
  await page.getByText('This endpoint does not exist, or is not yours.').waitFor();
  await shoot(page, 'endpoint-not-yours');
  // A token the server no longer takes sends the consumer back to sign in.
  await page.evaluate(
    "localStorage.setItem('api-suite-portal-session', JSON.stringify({ jwt: 'expired', user: { id: 1, username: 'x', email: 'x@example.test' } }))"
  );
  await page.goto(`${app.url}/portal/keys`);
  await page.getByText('Your session has ended. Sign in again.').waitFor();
  expect(browser.errors).toEqual([]);
}, 90_000);
