import { startApp, type TestApp } from '../helpers/app';
import { closeBrowserTest, launchBrowser, type TestBrowser } from '../helpers/browser';
import { stripeEnv, STRIPE_WEBHOOK_SECRET } from '../helpers/commerce';
import { planId } from '../helpers/keys';
import { newPortalUser, shoot, signUp } from '../helpers/portal';
import { startStripeStub, type StripeStub } from '../helpers/stripe-stub';
import { eventually } from '../helpers/wait';

/**
 * The portal's Plans and billing page with yearly prices and a trial, in a real browser against the
 * Stripe stub: a consumer sees the monthly prices and the trial of a first purchase, switches to
 * yearly and sees each plan's yearly price and what it saves against twelve months (a plan sold
 * monthly only says so), buys a year of pro through Checkout, and is back on pro in its free trial,
 * the page counting the days left. Photographed at 1440 and 390 px.
 */
let app: TestApp;
let browser: TestBrowser;
let stub: StripeStub;
let pro: number;

beforeAll(async () => {
  stub = await startStripeStub();
  app = await startApp({ env: { ...stripeEnv(stub), STRIPE_CURRENCY: 'eur' } });
  stub.webhookTarget = { url: `${app.url}/api/webhook/stripe`, secret: STRIPE_WEBHOOK_SECRET };
  app.strapi.config.set('server.absoluteUrl', app.url);
  pro = await planId(app, 'pro');
  // A year of pro for ten months' price (490 against 12 × 49 = 588: 17 % less), and two weeks free.
  await app.strapi.db.query('plugin::api-suite.plan').update({ where: { id: pro }, data: { price_yearly: 490, trial_days: 14 } });
  await eventually(
    async () =>
      (await app.request().get('/api/v1/billing/plans')).status === 200 &&
      [...stub.store.prices.values()].some((price) => price.active && price.lookup_key === `api-suite:${pro}:flat-yearly`)
        ? true
        : undefined,
    20_000,
    'yearly price provisioned'
  );
  browser = await launchBrowser(app.url);
}, 120_000);

afterAll(() => closeBrowserTest(browser, app, stub));

it('switches between monthly and yearly prices, with the saving and the trial of a first purchase', async () => {
  const { page } = browser;
  await signUp(page, app.url, newPortalUser('ivy'));
  await page.getByRole('link', { name: 'Plans and billing' }).click();
  const proCard = page.getByTestId('plan-offer').filter({ hasText: /^pro/ });
  const enterpriseCard = page.getByTestId('plan-offer').filter({ hasText: 'enterprise' });
  const switcher = page.getByTestId('interval-switch');

  // Monthly first: the monthly price, and the trial a first purchase starts with.
  await proCard.getByTestId('plan-price').getByText('€49.00').waitFor();
  await proCard.getByTestId('plan-trial').getByText('14-day free trial on your first purchase').waitFor();
  expect(await enterpriseCard.getByTestId('plan-trial').count()).toBe(0);
  expect(await page.getByRole('radio', { name: 'Monthly' }).isChecked()).toBe(true);
  await switcher.getByText('(save up to 17 %)').waitFor();
  await shoot(page, 'billing-monthly');

  // Yearly: the year's price and its saving; a plan without one is still sold, monthly, and says so.
  await page.getByRole('radio', { name: /Yearly/ }).check();
  await proCard.getByTestId('plan-price').getByText('€490.00').waitFor();
  await proCard.getByTestId('plan-price').getByText('a year').waitFor();
  await proCard.getByTestId('plan-saving').getByText('Save 17 % against €588.00 paid monthly').waitFor();
  await enterpriseCard.getByTestId('plan-saving').getByText('Sold monthly only').waitFor();
  await enterpriseCard.getByRole('button', { name: 'Buy enterprise monthly' }).waitFor();
  await shoot(page, 'billing-yearly');

  // Back to monthly with the keyboard: the switch is one group of radio buttons.
  await page.getByRole('radio', { name: /Yearly/ }).focus();
  await page.keyboard.press('ArrowLeft');
  await proCard.getByTestId('plan-price').getByText('€49.00').waitFor();
  expect(await page.getByRole('radio', { name: 'Monthly' }).isChecked()).toBe(true);
  expect(browser.errors).toEqual([]);
}, 90_000);

it('buys a year of pro with its trial and shows the days of trial left', async () => {
  const { page } = browser;
  await page.getByRole('radio', { name: /Yearly/ }).check();
  await page.getByTestId('plan-offer').filter({ hasText: /^pro/ }).getByRole('button', { name: 'Buy pro' }).click();
  await page.waitForURL(/\/pay\/cs_/);
  const session = stub.requests.filter((entry) => entry.method === 'POST' && entry.path === '/v1/checkout/sessions').at(-1);
  const row = await app.strapi.db.query('plugin::api-suite.plan').findOne({ where: { id: pro } });
  expect(session?.form).toMatchObject({
    'line_items[0][price]': row.stripe_yearly_price_id,
    'subscription_data[trial_period_days]': '14',
    allow_promotion_codes: 'true',
  });
  await page.getByRole('button', { name: 'Pay' }).click();
  await page.waitForURL(/\/portal\?checkout=success/);
  await page.getByTestId('checkout-notice').getByText('your new plan is active').waitFor();
  await page.getByTestId('plan-name').getByText('pro').waitFor();
  await page.getByTestId('plan-card').getByText('free trial').waitFor();

  await page.getByRole('link', { name: 'Plans and billing' }).click();
  const line = page.getByTestId('subscription-line');
  await line.getByText('free trial').waitFor();
  await line.getByText('paid yearly', { exact: false }).waitFor();
  await page.getByTestId('trial-left').getByText('14 days of your free trial left').waitFor();
  // Live: no switch, no second trial offered; the year's prices, each plan changed within it.
  expect(await page.getByTestId('interval-switch').count()).toBe(0);
  expect(await page.getByTestId('plan-trial').count()).toBe(0);
  await page.getByTestId('plan-offer').filter({ hasText: /^pro/ }).getByText('Your plan').waitFor();
  await page.getByTestId('plan-offer').filter({ hasText: /^pro/ }).getByTestId('plan-price').getByText('€490.00').waitFor();
  await shoot(page, 'billing-trialing');
  expect(browser.errors).toEqual([]);
}, 90_000);
