import { startApp, type TestApp } from '../helpers/app';
import { closeBrowserTest, launchBrowser, type TestBrowser } from '../helpers/browser';
import { newPortalUser, shoot, signUp } from '../helpers/portal';

/**
 * The consumer portal on a site without Stripe (every billing route answers 503
 * `billing_not_configured`): the plans are still shown with what each includes, from the public
 * list, and the portal says that buying is not offered here; Webhooks offers the plans that include
 * them without a way to buy.
 */
let app: TestApp;
let browser: TestBrowser;

beforeAll(async () => {
  app = await startApp();
  browser = await launchBrowser(app.url);
}, 120_000);

afterAll(() => closeBrowserTest(browser, app));

it('shows the plans and says buying is not offered, on Billing and where the plan stops', async () => {
  const { page } = browser;
  expect((await app.request().get('/api/v1/billing/plans')).body.error.code).toBe('billing_not_configured');
  await signUp(page, app.url, newPortalUser('carol'));
  await page.getByTestId('plan-name').getByText('free').waitFor();
  await page.getByTestId('month-usage').getByText('of 1,000 requests').waitFor();
  await page.getByRole('link', { name: 'See the plans' }).waitFor();

  await page.getByRole('link', { name: 'Plans and billing' }).click();
  await page.getByTestId('billing-off').getByText('Buying a plan is not offered on this site yet').waitFor();
  await page.getByTestId('subscription-line').getByText('You are on the free plan.').waitFor();
  await page.getByTestId('plan-offer').filter({ hasText: 'free' }).getByText('Your plan').waitFor();
  const pro = page.getByTestId('plan-offer').filter({ hasText: 'pro' });
  await pro.getByText('100,000 requests a month').waitFor();
  await pro
    .getByTestId('plan-includes')
    .getByText(/Webhooks, Scrapers/)
    .waitFor();
  expect(await page.getByRole('button', { name: /^Buy / }).count()).toBe(0);
  await shoot(page, 'billing-unconfigured');

  await page.getByRole('link', { name: 'Webhooks' }).click();
  const offer = page.getByTestId('not-in-plan');
  await offer.getByRole('heading', { name: 'Webhooks are not included in the free plan' }).waitFor();
  await offer.getByTestId('plan-offer').filter({ hasText: 'pro' }).waitFor();
  await offer.getByText(/Plans are not sold on this site yet/).waitFor();
  expect(await page.locator('.notice-error').count()).toBe(0);
  await shoot(page, 'webhooks-not-in-plan-unbilled');
  expect(browser.errors).toEqual([]);
}, 90_000);
