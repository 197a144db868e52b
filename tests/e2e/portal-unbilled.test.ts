import { startApp, type TestApp } from '../helpers/app';
import { closeBrowserTest, launchBrowser, type TestBrowser } from '../helpers/browser';
import { newPortalUser, shoot, signUp } from '../helpers/portal';

/**
 * The consumer portal on a site without Stripe (every billing route answers 503
 * `billing_not_configured`): the plans are still shown with what each includes, from the public
 * list, and the portal says that buying is not offered here; Webhooks offers the plans that include
 * them without a way to buy. Expected answers are not errors: the portal asks neither billing nor
 * a list the plan does not reach, so nothing is refused and the console stays clean.
 */
let app: TestApp;
let browser: TestBrowser;
/** Every refused API answer the pages got: each is a console error in the browser ("Failed to load resource"). */
const refused: string[] = [];

beforeAll(async () => {
  app = await startApp();
  browser = await launchBrowser(app.url);
  browser.page.on('response', (response) => {
    const url = new URL(response.url());
    if (url.pathname.startsWith('/api/') && response.status() >= 400) refused.push(`${response.status()} ${url.pathname}`);
  });
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
  await page.getByTestId('plan-offer').filter({ hasText: /^free/ }).getByText('Your plan').waitFor();
  const pro = page.getByTestId('plan-offer').filter({ hasText: /^pro/ });
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
  await offer.getByTestId('plan-offer').filter({ hasText: /^pro/ }).waitFor();
  await offer.getByText(/Plans are not sold on this site yet/).waitFor();
  expect(await page.locator('.notice-error').count()).toBe(0);
  await shoot(page, 'webhooks-not-in-plan-unbilled');

  await page.getByRole('link', { name: 'Scrapers' }).click();
  await page.getByTestId('not-in-plan').getByRole('heading', { name: 'Scrapers are not included in the free plan' }).waitFor();
  await page.getByRole('link', { name: 'Overview' }).click();
  await page.getByTestId('plan-name').getByText('free').waitFor();
  // A site without Stripe and a plan without webhooks or scrapers are expected: nothing is asked that would be refused.
  expect(refused).toEqual([]);
  expect(browser.errors).toEqual([]);
}, 90_000);

it('prices every plan with its currency, and names a plan once', async () => {
  const { page } = browser;
  await page.getByRole('link', { name: 'Plans and billing' }).click();
  const free = page.getByTestId('plan-offer').filter({ hasText: /^free/ });
  await free.getByText('€0.00').waitFor();
  expect(await free.getByText('Free', { exact: true }).count()).toBe(0);
  await page
    .getByTestId('plan-offer')
    .filter({ hasText: /^pro/ })
    .getByText(/^€\d+\.\d{2}/)
    .waitFor();
  // The plan's name as its editor wrote it, here as on the Overview.
  expect(await page.getByTestId('plan-offer').getByRole('heading', { name: 'pro', exact: true }).count()).toBe(1);
}, 60_000);
