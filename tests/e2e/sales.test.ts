import { startApp, type TestApp } from '../helpers/app';
import { assertAdminBuilt } from '../helpers/admin-build';
import {
  closeBrowserTest,
  FIRST_ADMIN,
  launchBrowser,
  openPluginPage,
  registerFirstAdmin,
  screenshot,
  waitForCount,
  type TestBrowser,
} from '../helpers/browser';
import { checkout, createProduct, sendStripeEvent, sessionEvent, stripeEnv, STRIPE_WEBHOOK_SECRET } from '../helpers/commerce';
import { planId } from '../helpers/keys';
import { eventually } from '../helpers/wait';
import { startStripeStub, type StripeStub } from '../helpers/stripe-stub';
import { registerUser, type TestUser } from '../helpers/users';

/**
 * The Sales page in a real browser: empty at first and saying so, then, after two checkouts
 * against the local Stripe stub and one payment confirmed by a signed Stripe webhook, the day,
 * week and month figures count the paid order and the latest orders list both, filterable by
 * status, each opening in the content manager.
 */
let app: TestApp;
let stub: StripeStub;
let browser: TestBrowser;
let alice: TestUser;
let bob: TestUser;

beforeAll(async () => {
  assertAdminBuilt();
  stub = await startStripeStub();
  app = await startApp({ serveAdminPanel: true, env: stripeEnv(stub) });
  alice = await registerUser(app, { plan: 'enterprise' });
  bob = await registerUser(app, { plan: 'enterprise' });
  browser = await launchBrowser(app.url);
  // Signed in as the site's owner, registered through the /admin form as a new site's first visitor would.
  await registerFirstAdmin(browser.page, app.url);
}, 180_000);

afterAll(() => closeBrowserTest(browser, app, stub));

/** A full-access API token made with the first admin's credentials (registered in the browser). */
async function apiToken(): Promise<string> {
  const login = await app.request().post('/admin/login').send({ email: FIRST_ADMIN.email, password: FIRST_ADMIN.password });
  expect(login.status).toBe(200);
  const created = await app
    .request()
    .post('/admin/api-tokens')
    .set('Authorization', `Bearer ${login.body.data.token}`)
    .send({ name: 'e2e-sales', type: 'full-access', lifespan: null, description: 'products for the sales test' });
  expect(created.status).toBe(201);
  return created.body.data.accessKey as string;
}

it('says what to do while there are no orders', async () => {
  const { page } = browser;
  await openPluginPage(page, app.url, '/sales', 'Sales');
  await page.getByText(/No orders yet/).waitFor();
  await page.getByTestId('sales-month-revenue').getByText('€0.00').waitFor();
  await screenshot(page, 'sales-empty');
}, 60_000);

it('shows the figures and the latest orders once buyers check out and pay', async () => {
  const token = await apiToken();
  const lamp = await createProduct(app, token, { name: 'Desk lamp', price: 12.5, stock: 10 });
  const paid = await checkout(app, alice, { items: [{ product_id: lamp.id, quantity: 2 }] });
  expect(paid.status).toBe(200);
  const pending = await checkout(app, bob, { items: [{ product_id: lamp.id, quantity: 1 }] });
  expect(pending.status).toBe(200);
  const session = [...stub.sessions.values()].find((candidate) => candidate.metadata.order_id === paid.body.data.orderId);
  if (!session) throw new Error('the checkout made no session in the Stripe stub');
  const payment = sessionEvent('checkout.session.completed', {
    id: session.id,
    metadata: { order_id: paid.body.data.orderId },
    amount_total: 2500,
  });
  expect((await sendStripeEvent(app, payment)).status).toBe(200);

  const { page } = browser;
  await page.getByRole('button', { name: 'Refresh' }).click();
  await waitForCount(page.getByTestId('order-row'), 2);
  // Only the paid order is a sale: 2 × 12.50 in every period.
  for (const period of ['day', 'week', 'month']) {
    await page.getByTestId(`sales-${period}-revenue`).getByText('€25.00').waitFor();
    await page.getByTestId(`sales-${period}-count`).getByText('1').waitFor();
    await page.getByTestId(`sales-${period}-average`).getByText('€25.00').waitFor();
  }
  const newest = page.getByTestId('order-row').first();
  await newest.getByText(bob.email).waitFor();
  await newest.getByText('Pending').waitFor();
  const alicesRow = page.getByTestId('order-row').filter({ hasText: alice.username });
  await alicesRow.getByText('Paid', { exact: true }).waitFor();
  await alicesRow.getByText('€25.00').waitFor();
  await screenshot(page, 'sales');

  await page.getByRole('combobox', { name: 'Order status' }).click();
  await page.getByRole('option', { name: 'Paid' }).click();
  await waitForCount(page.getByTestId('order-row'), 1);
  await page.getByTestId('order-row').getByText(alice.email).waitFor();

  // The order opens in the content manager, where its status is edited.
  await page.getByTestId('order-row').getByRole('link').click();
  await page.waitForURL(/\/admin\/content-manager\/collection-types\/plugin::api-suite\.order\/[a-z0-9]+/);
}, 120_000);

it('lists the API subscriptions bought through Stripe Billing', async () => {
  const { page } = browser;
  await openPluginPage(page, app.url, '/sales', 'Sales');
  await page.getByText(/No subscriptions yet/).waitFor();
  stub.webhookTarget = { url: `${app.url}/api/webhook/stripe`, secret: STRIPE_WEBHOOK_SECRET };
  await eventually(
    async () => ((await app.request().get('/api/v1/billing/plans')).status === 200 ? true : undefined),
    20_000,
    'billing provisioned'
  );
  const bought = await app
    .request()
    .post('/api/v1/billing/checkout')
    .set('Authorization', `Bearer ${alice.jwt}`)
    .send({ plan_id: await planId(app, 'pro') });
  expect(bought.status).toBe(200);
  stub.completeCheckout(bought.body.data.session_id);
  expect(await stub.flush()).toEqual([200, 200, 200]);

  await page.getByRole('button', { name: 'Refresh' }).click();
  const row = page.getByTestId('subscription-row');
  await waitForCount(row, 1);
  await row.getByText(alice.email).waitFor();
  await row.getByText('pro', { exact: true }).waitFor();
  await row.getByText('Active', { exact: true }).waitFor();
  await screenshot(page, 'sales-subscriptions');
}, 120_000);
