import { startApp, type TestApp } from '../helpers/app';
import { assertAdminBuilt } from '../helpers/admin-build';
import { closeBrowserTest, FIRST_ADMIN, launchBrowser, logIn, openPluginPage, screenshot, type TestBrowser } from '../helpers/browser';
import { shoot } from '../helpers/portal';
import { startReceiver, type Receiver } from '../helpers/receiver';
import { adminSession, registerUser, type TestUser } from '../helpers/users';

/**
 * Payload filters in the browsers (docs/webhooks.md#payload-filters): in the consumer portal a
 * consumer adds an endpoint with a filter, picking a field its event's data has, sees whether the
 * event type's example matches (as the server answers), sees text that is not JSON named without
 * asking the server and the server's refusal of a field no type has at the filter field, saves the
 * filter and changes it; in the admin panel an administrator sees the filter and changes it.
 */
let app: TestApp;
let browser: TestBrowser;
let receiver: Receiver;
let alice: TestUser;
/** The bodies of the filter tries the portal sent, in order. */
const tries: unknown[] = [];

beforeAll(async () => {
  assertAdminBuilt();
  receiver = await startReceiver();
  app = await startApp({ serveAdminPanel: true });
  alice = await registerUser(app, { plan: 'enterprise' });
  browser = await launchBrowser(app.url);
  browser.page.on('request', (request) => {
    if (request.url().endsWith('/api/webhooks/filter-test')) tries.push(request.postDataJSON());
  });
}, 120_000);

afterAll(() => closeBrowserTest(browser, app, receiver));

const endpointUrl = () => `${receiver.url}/orders`;

/** Alice's endpoint on the receiver, as the API answers it. */
async function savedEndpoint(): Promise<{ id: string; filter: unknown } | undefined> {
  const response = await app.request().get('/api/webhooks/subscriptions?limit=100').set('Authorization', `Bearer ${alice.jwt}`);
  expect(response.status).toBe(200);
  return (response.body.data as Array<{ id: string; endpoint_url: string; filter: unknown }>).find(
    (row) => row.endpoint_url === endpointUrl()
  );
}

it('adds an endpoint with a payload filter, trying it on the example as it is typed', async () => {
  const { page } = browser;
  await page.goto(`${app.url}/portal/sign-in`);
  await page.getByLabel('Email or username').fill(alice.username);
  await page.getByLabel('Password').fill(alice.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
  await page.getByRole('link', { name: 'Webhooks' }).click();
  await page.getByRole('button', { name: 'Add your first endpoint' }).click();
  await page.getByLabel('Endpoint URL').fill(endpointUrl());
  await page.getByLabel('order.created').check();

  const filter = page.getByLabel('Payload filter (optional)');
  const field = page.locator('.filter-field');
  const verdict = page.getByTestId('filter-try');
  // A field of order.created's data, picked from its schema, starts a condition equal to the example's value.
  await page
    .getByRole('group', { name: "Fields of the chosen events' data" })
    .getByRole('button', { name: /^Add a condition on total\b/ })
    .click();
  expect(JSON.parse(await filter.inputValue())).toEqual({ total: { $eq: 25 } });
  await verdict.getByText('The example of order.created matches').waitFor();

  await filter.fill('{ "total": { "$gte": 100 } }');
  await verdict.getByText('The example of order.created does not match').waitFor();
  expect(tries.at(-1)).toEqual({ filter: { total: { $gte: 100 } }, type: 'order.created' });
  await filter.fill('{ "total": { "$gte": 10 }, "status": "pending" }');
  await verdict.getByText('The example of order.created matches').waitFor();
  await shoot(page, 'webhooks-filter');

  // Not JSON: said at the field, and the server is not asked.
  const asked = tries.length;
  await filter.fill('{ "total": ');
  await field
    .locator('.field-error')
    .getByText(/^Not valid JSON/)
    .waitFor();
  await page.getByRole('button', { name: 'Add endpoint' }).click();
  await field
    .locator('.field-error')
    .getByText(/^Not valid JSON/)
    .waitFor();
  expect(tries.length).toBe(asked);
  expect(await savedEndpoint()).toBeUndefined();

  // A field no type has: the server's refusal, with its place, at the field, on trying and on saving.
  // While typing it is the form's own check (the server's, shared) that says so: the server is not
  // asked, so the browser logs no failed request.
  const refusal = 'The filter cannot be applied at filter.totl: order.created has no field totl';
  const triedBefore = tries.length;
  await filter.fill('{ "totl": { "$gte": 10 } }');
  await field.locator('.field-error').getByText(refusal).waitFor();
  expect(await filter.getAttribute('aria-invalid')).toBe('true');
  expect(tries.length).toBe(triedBefore);
  await page.getByRole('button', { name: 'Add endpoint' }).click();
  await page.getByText('Please correct the fields marked below.').waitFor();
  await field.locator('.field-error').getByText(refusal).waitFor();
  await shoot(page, 'webhooks-filter-refused');
  expect(await savedEndpoint()).toBeUndefined();

  await filter.fill('{ "total": { "$gte": 10 } }');
  await verdict.getByText('The example of order.created matches').waitFor();
  await page.getByRole('button', { name: 'Add endpoint' }).click();
  await page.getByTestId('new-secret').waitFor();
  expect((await savedEndpoint())?.filter).toEqual({ total: { $gte: 10 } });
  expect(browser.errors).toEqual([]);
}, 120_000);

it("shows the endpoint's filter and changes it", async () => {
  const { page } = browser;
  await page.getByRole('link', { name: 'Open the endpoint' }).click();
  const shown = page.getByTestId('endpoint-filter');
  await shown.getByText('"$gte": 10').waitFor();
  await page.getByRole('button', { name: 'Edit' }).click();
  const filter = page.getByLabel('Payload filter (optional)');
  expect(JSON.parse(await filter.inputValue())).toEqual({ total: { $gte: 10 } });
  await filter.fill('{ "status": "paid" }');
  await page.getByTestId('filter-try').getByText('The example of order.created does not match').waitFor();
  await page.getByRole('button', { name: 'Save' }).click();
  await shown.getByText('"status": "paid"').waitFor();
  expect((await savedEndpoint())?.filter).toEqual({ status: 'paid' });
  await shoot(page, 'endpoint-filter');

  // Emptied, the filter is cleared: every event of the endpoint's types again.
  await page.getByRole('button', { name: 'Edit' }).click();
  await filter.fill('');
  await page.getByRole('button', { name: 'Save' }).click();
  await shown.getByText('None: every event of its types').waitFor();
  expect((await savedEndpoint())?.filter).toBeNull();
  expect(browser.errors).toEqual([]);
}, 90_000);

it('shows the filter on the admin panel’s subscription page and lets an administrator change it', async () => {
  const { page } = browser;
  await adminSession(app);
  await logIn(page, app.url, FIRST_ADMIN);
  await openPluginPage(page, app.url, '/webhooks', 'Webhooks');
  await page.getByTestId('subscription-row').filter({ hasText: endpointUrl() }).click();
  await page.getByRole('heading', { name: endpointUrl(), level: 1 }).waitFor();
  const shown = page.getByTestId('subscription-filter');
  await shown.getByText('None: every event of its types is delivered').waitFor();

  await page.getByRole('button', { name: 'Edit filter' }).click();
  const dialog = page.getByRole('dialog');
  const filter = dialog.locator('textarea[name="filter"]');
  await filter.fill('{ "total": { "$gte": 100 } }');
  await dialog.getByTestId('filter-try').getByText('The example of order.created does not match').waitFor();
  await filter.fill('{ "nope": 1 }');
  await dialog.getByText('The filter cannot be applied at filter.nope: order.created has no field nope').waitFor();
  await dialog.getByRole('button', { name: 'Save' }).click();
  await dialog.getByText('The filter cannot be applied at filter.nope: order.created has no field nope').waitFor();
  await screenshot(page, 'webhooks-subscription-filter-refused');
  await filter.fill('{ "total": { "$gte": 10 } }');
  await dialog.getByTestId('filter-try').getByText('The example of order.created matches').waitFor();
  await dialog.getByRole('button', { name: 'Save' }).click();
  await dialog.waitFor({ state: 'hidden' });
  await shown.getByText('"$gte": 10').waitFor();
  expect((await savedEndpoint())?.filter).toEqual({ total: { $gte: 10 } });
  await screenshot(page, 'webhooks-subscription-filter');
}, 90_000);
