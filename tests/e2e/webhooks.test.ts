import path from 'node:path';
import { startApp, type TestApp } from '../helpers/app';
import { assertAdminBuilt } from '../helpers/admin-build';
import {
  closeBrowserTest,
  launchBrowser,
  openPluginPage,
  registerFirstAdmin,
  screenshot,
  SCREENSHOTS_DIR,
  waitForAttribute,
  waitForCount,
  type TestBrowser,
} from '../helpers/browser';
import { UNKNOWN_KEY } from '../helpers/keys';
import { startReceiver, type Receiver } from '../helpers/receiver';
import { registerUser, type TestUser } from '../helpers/users';
import { posts, subscribe, waitForPosts, type CreatedSubscription } from '../helpers/webhooks';

/**
 * The Webhooks page in a real browser: an editor sees every consumer's subscriptions, sends a
 * test to a local receiver and sees the delivery with its attempt, retries it, re-enables a
 * disabled subscription, recovers a failed delivery, and switches an event type off.
 */
let app: TestApp;
let browser: TestBrowser;
let receiver: Receiver;
let alice: TestUser;
let subscription: CreatedSubscription;

beforeAll(async () => {
  assertAdminBuilt();
  receiver = await startReceiver((request) => ({ status: 200, body: `ok ${request.headers['x-webhook-event'] ?? ''}` }));
  app = await startApp({ serveAdminPanel: true });
  alice = await registerUser(app, { plan: 'enterprise' });
  subscription = await subscribe(app, alice, {
    endpoint_url: `${receiver.url}/hooks`,
    events: ['article.created', 'run.completed'],
    description: 'Alice CMS sync',
  });
  // The test event queued at creation: wait for it so the counts below are ours.
  await waitForPosts(receiver, 1);
  browser = await launchBrowser(app.url);
  // Signed in as the site's owner, registered through the /admin form as a new site's first visitor would.
  await registerFirstAdmin(browser.page, app.url);
}, 180_000);

afterAll(() => closeBrowserTest(browser, app, receiver));

it("shows the overview: background jobs and this server's activity, nothing pending", async () => {
  await openPluginPage(browser.page, app.url, '', 'API Suite');
  await browser.page.getByText('Background jobs').waitFor();
  // This server's figures from its metrics, under the settings.
  await browser.page.getByRole('heading', { name: 'Activity on this server' }).waitFor();
  await browser.page.getByText('Webhook delivery attempts').waitFor();
  await browser.page.getByText('0 pending · 0 to be retried').waitFor();
  await screenshot(browser.page, 'overview');
}, 90_000);

it('sends a test to a local receiver and shows the delivery with its attempt', async () => {
  const { page } = browser;
  await openPluginPage(page, app.url, '/webhooks', 'Webhooks');
  const row = page.getByTestId('subscription-row').filter({ hasText: `${receiver.url}/hooks` });
  await row.waitFor();
  await row.getByText(alice.username).waitFor();
  await screenshot(page, 'webhooks-subscriptions');

  await row.click();
  await page.getByRole('heading', { name: `${receiver.url}/hooks`, level: 1 }).waitFor();
  await waitForCount(page.getByTestId('delivery-row'), 1);
  const before = posts(receiver).length;
  await page.getByRole('button', { name: 'Send a test' }).click();
  await waitForPosts(receiver, before + 1);
  await page.getByText(/Test delivered: HTTP 200/).waitFor();
  await waitForCount(page.getByTestId('delivery-row'), 2);

  await page.getByTestId('delivery-row').first().click();
  const dialog = page.getByRole('dialog');
  await dialog.getByText('Delivery of webhook.test').waitFor();
  const attempt = dialog.getByTestId('attempt-row');
  await waitForCount(attempt, 1);
  await attempt.first().getByText('200', { exact: true }).waitFor();
  await attempt.first().getByText('ok webhook.test').waitFor();
  await screenshot(page, 'webhooks-delivery');

  await dialog.getByRole('button', { name: 'Retry now' }).click();
  await waitForCount(dialog.getByTestId('attempt-row'), 2);
  await dialog.getByRole('button', { name: 'Close' }).first().click();
  await dialog.waitFor({ state: 'hidden' });
}, 120_000);

it('re-enables a disabled subscription', async () => {
  const { page } = browser;
  await app.strapi.db
    .connection('api_suite_webhook_subscriptions')
    .where({ uuid: subscription.id })
    .update({ is_active: false, failure_count: 100, disabled_at: new Date() });
  await page.reload();
  await page.getByText('Disabled', { exact: true }).first().waitFor();
  await page.getByRole('button', { name: 'Re-enable' }).click();
  await page.getByText('Active', { exact: true }).first().waitFor();
  await page.getByRole('button', { name: 'Re-enable' }).waitFor({ state: 'detached' });
  await page.getByText('None: as fast as the endpoint answers').waitFor();
  const row = await app.strapi.db.connection('api_suite_webhook_subscriptions').where({ uuid: subscription.id }).first();
  expect(Number(row.failure_count)).toBe(0);
  await screenshot(page, 'webhooks-subscription');
}, 90_000);

it('recovers a failed delivery over a time range once the endpoint is back', async () => {
  const { page } = browser;
  receiver.setReply(() => ({ status: 503, body: 'down for maintenance' }));
  const before = posts(receiver).length;
  await page.getByRole('button', { name: 'Send a test' }).click();
  await page.getByText(/Test not delivered \(503/).waitFor();
  const [failed] = (await waitForPosts(receiver, before + 1)).slice(before);

  receiver.setReply((request) => ({ status: 200, body: `ok ${request.headers['x-webhook-event'] ?? ''}` }));
  await page.getByRole('button', { name: 'Recover failed' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('heading', { name: 'Recover failed deliveries' }).waitFor();
  await screenshot(page, 'webhooks-recover');
  await dialog.getByRole('button', { name: 'Send again' }).click();
  await page.getByText('1 delivery queued again').waitFor();
  const [again] = (await waitForPosts(receiver, before + 2)).slice(before + 1);
  expect(again.headers['webhook-id']).toBe(failed.headers['webhook-id']);
  await page.getByTestId('delivery-row').first().getByText('Succeeded').waitFor();
}, 90_000);

it('switches an event type off and describes it', async () => {
  const { page } = browser;
  await openPluginPage(page, app.url, '/webhooks?tab=event-types', 'Webhooks');
  const row = page.getByTestId('event-type-row').filter({ hasText: 'order.paid' });
  const toggle = row.getByRole('switch', { name: 'order.paid can be subscribed to' });
  expect(await toggle.getAttribute('aria-checked')).toBe('true');
  // Switching off asks first; cancelling leaves the type on.
  await toggle.click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Cancel' }).click();
  expect(await toggle.getAttribute('aria-checked')).toBe('true');
  await toggle.click();
  await page
    .getByRole('alertdialog')
    .getByText(/stop being published/)
    .waitFor();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Confirm' }).click();
  await page.getByText('Event type switched off').waitFor();
  await waitForAttribute(toggle, 'aria-checked', 'false');

  await row.getByRole('button', { name: 'Edit' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.locator('textarea[name="description"]').fill('Paid orders (off until the shop opens)');
  await dialog.locator('textarea[name="example_payload"]').fill('{ "id": "o1", ');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await dialog.getByText(/Not valid JSON/).waitFor();
  // The schema of the type's data is shown, and an example that does not fit it is refused field by field.
  await dialog.getByText('Schema of the data').waitFor();
  expect(await dialog.locator('textarea[name="schema"]').inputValue()).toContain('"additionalProperties": false');
  await dialog.locator('textarea[name="example_payload"]').fill('{ "id": "o1", "status": "paid" }');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await dialog.getByText(/total: Invalid input: expected number/).waitFor();
  await screenshot(page, 'webhooks-event-type-schema');
  await dialog
    .locator('textarea[name="example_payload"]')
    .fill('{ "id": "o1", "status": "paid", "total": 12, "created_at": "2026-11-22T10:00:00.000Z" }');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await dialog.waitFor({ state: 'hidden' });
  await row.getByText('Paid orders (off until the shop opens)').waitFor();
  await screenshot(page, 'webhooks-event-types');

  const refused = await app
    .request()
    .post('/api/webhooks/subscriptions')
    .set('Authorization', `Bearer ${alice.jwt}`)
    .send({ endpoint_url: receiver.url, events: ['order.paid'] });
  expect(refused.status).toBe(422);
}, 90_000);

it('publishes an event by hand, offering only the types the server says may be published so', async () => {
  const { page } = browser;
  await openPluginPage(page, app.url, '/webhooks?tab=event-types', 'Webhooks');
  await page.getByRole('button', { name: 'Publish an event' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('heading', { name: 'Publish an event' }).waitFor();
  // The events the plugin sends to one consumer only are named, with why, and not offered.
  await dialog
    .getByText(
      'Not offered here: quota.threshold, subscription.disabled, subscription.failing. The plugin sends these itself, each only to the one consumer it is about, so they cannot be published by hand.'
    )
    .waitFor();
  await dialog.getByRole('combobox', { name: 'Event type' }).click();
  const options = await page.getByRole('option').allInnerTexts();
  expect(options).toEqual(expect.arrayContaining(['article.created', 'run.completed', 'webhook.test']));
  for (const name of ['quota.threshold', 'subscription.failing', 'subscription.disabled', 'order.paid'])
    expect(options).not.toContain(name);
  await page.getByRole('option', { name: 'article.created', exact: true }).click();
  // The type's example is filled in.
  expect(JSON.parse(await dialog.locator('textarea[name="payload"]').inputValue())).toMatchObject({ id: expect.any(String) });
  await screenshot(page, 'webhooks-publish');
  const before = posts(receiver).length;
  await dialog.getByRole('button', { name: 'Publish' }).click();
  await page.getByText('Published: 1 delivery created').waitFor();
  const [delivered] = (await waitForPosts(receiver, before + 1)).slice(before);
  expect(JSON.parse(delivered.body).type).toBe('article.created');
}, 90_000);

it("counts this server's deliveries and API decisions on the Overview", async () => {
  // A refusal beside the allowed requests the tests above made.
  expect((await app.request().get('/api/v1/articles').set('X-API-Key', UNKNOWN_KEY)).status).toBe(401);
  const { page } = browser;
  await openPluginPage(page, app.url, '', 'API Suite');
  const heading = page.getByRole('heading', { name: 'Activity on this server' });
  await heading.waitFor();
  const panel = heading.locator('..');
  await panel.getByText(/\d+ succeeded/).waitFor();
  await panel.getByText(/\d+ allowed.* · 1 invalid_api_key/).waitFor();
  // The panel alone, for docs/operations.md.
  await page.evaluate('document.fonts.ready');
  await panel.screenshot({ path: path.join(SCREENSHOTS_DIR, 'overview-activity.png'), animations: 'disabled' });
}, 60_000);
