import { startApp, type TestApp } from '../helpers/app';
import { closeBrowserTest, launchBrowser, type TestBrowser } from '../helpers/browser';
import { createPlan } from '../helpers/keys';
import { newPortalUser, shoot, signUp } from '../helpers/portal';
import { grantPlan } from '../helpers/users';

/**
 * The Overview's quota banner in a real browser (docs/portal.md): nothing below 80 % of the
 * month's quota; from the request that reaches it, live, how much is used, the plans above the
 * consumer's with a larger quota (never a cheaper one, nor their own) and a button to change plan
 * that leads to Plans and billing.
 */
let app: TestApp;
let browser: TestBrowser;
const dora = newPortalUser('dora');

beforeAll(async () => {
  app = await startApp();
  browser = await launchBrowser(app.url);
}, 120_000);

afterAll(() => closeBrowserTest(browser, app));

it('shows the banner from the 8th of 10 requests, with the plans above and the way to change plan', async () => {
  const { page } = browser;
  // Dearer than free (which has more requests but is no step up) and cheaper than pro and enterprise.
  await createPlan(app, {
    name: 'starter',
    requests_per_month: 10,
    requests_per_minute: 100,
    endpoints: ['GET /api/v1/articles*'],
    price_monthly: 9,
  });
  await signUp(page, app.url, dora);
  const user = (await app.strapi.db.query('plugin::users-permissions.user').findOne({ where: { email: dora.email }, select: ['id'] })) as {
    id: number;
  };
  await grantPlan(app, user, 'starter');
  const signedIn = await app.request().post('/api/auth/local').send({ identifier: dora.email, password: dora.password });
  expect(signedIn.status).toBe(200);
  const call = () =>
    app
      .request()
      .get('/api/v1/articles')
      .set('Authorization', `Bearer ${signedIn.body.jwt as string}`);

  for (let i = 0; i < 7; i += 1) expect((await call()).status).toBe(200);
  await page.reload();
  await page.getByTestId('plan-name').getByText('starter').waitFor();
  await page.getByTestId('quota-card').getByText('7 of 10 requests').waitFor();
  expect(await page.getByTestId('quota-banner').count()).toBe(0);

  expect((await call()).status).toBe(200);
  const banner = page.getByTestId('quota-banner');
  await banner.getByText('You have used 80 % of your monthly quota: 8 of 10 requests.').waitFor();
  expect(await banner.getByTestId('quota-offer').allTextContents()).toEqual([
    'pro: 100,000 requests a month, €49.00 a month',
    'enterprise: unlimited requests a month, €499.00 a month',
  ]);
  await shoot(page, 'overview-quota-banner');

  for (let i = 0; i < 2; i += 1) expect((await call()).status).toBe(200);
  await banner.getByText('You have used your monthly quota: 10 of 10 requests.').waitFor();
  expect((await call()).status).toBe(429);

  await banner.getByRole('link', { name: 'Change plan' }).click();
  await page.getByRole('heading', { name: 'Plans and billing', level: 1 }).waitFor();
  expect(browser.errors).toEqual([]);
}, 90_000);
