import { startApp, type TestApp } from '../helpers/app';
import { assertAdminBuilt } from '../helpers/admin-build';
import {
  closeBrowserTest,
  FIRST_ADMIN,
  launchBrowser,
  openPluginPage,
  registerFirstAdmin,
  screenshot,
  UI_TIMEOUT_MS,
  waitForCount,
  type TestBrowser,
} from '../helpers/browser';
import { registerUser, type TestUser } from '../helpers/users';
import { eventually } from '../helpers/wait';

/**
 * The API access page in a real browser: plans created and edited (server messages under the
 * fields), a key issued for a user on a plan and shown once with a copy button, the live usage
 * chart following the key's requests, the key revoked; a key that follows its owner, the owner
 * granted a plan and the grant taken back, and that key's usage as the owner's pool.
 */
let app: TestApp;
let browser: TestBrowser;
let alice: TestUser;
let issuedKey = '';

beforeAll(async () => {
  assertAdminBuilt();
  app = await startApp({ serveAdminPanel: true });
  alice = await registerUser(app, { plan: 'enterprise' });
  browser = await launchBrowser(app.url);
  // Signed in as the site's owner, registered through the /admin form as a new site's first visitor would.
  await registerFirstAdmin(browser.page, app.url);
}, 180_000);

afterAll(() => closeBrowserTest(browser, app));

// The browser tests' one check of the registration form itself; the others only use it to sign in.
it("registers a new site's first visitor of /admin as its super admin, signed in", async () => {
  expect(new URL(browser.page.url()).pathname).not.toMatch(/^\/admin\/auth/);
  const login = await app.request().post('/admin/login').send({ email: FIRST_ADMIN.email, password: FIRST_ADMIN.password });
  expect(login.status).toBe(200);
  const me = await app
    .request()
    .get('/admin/users/me')
    .set('Authorization', `Bearer ${login.body.data.token as string}`);
  expect(me.status).toBe(200);
  expect(me.body.data).toMatchObject({ firstname: FIRST_ADMIN.firstname, lastname: FIRST_ADMIN.lastname, email: FIRST_ADMIN.email });
  expect(me.body.data.roles.map((role: { code: string }) => role.code)).toEqual(['strapi-super-admin']);
  // A second registration is refused: the form is for the first admin only.
  const again = await app
    .request()
    .post('/admin/register-admin')
    .send({ firstname: 'Second', lastname: 'Visitor', email: 'second@example.test', password: 'Second-password-1' });
  expect([again.status, again.body.error?.message]).toEqual([400, 'You cannot register a new super admin']);
});

it("creates and edits a plan, with the server's messages under the fields", async () => {
  const { page } = browser;
  await openPluginPage(page, app.url, '/access?tab=plans', 'API access');
  await waitForCount(page.getByTestId('plan-row'), 3);
  await page.getByRole('button', { name: 'New plan' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.locator('input[name="name"]').fill('starter');
  await dialog.locator('input[name="requests_per_month"]').fill('5000');
  await dialog.locator('input[name="requests_per_minute"]').fill('0');
  await dialog.locator('textarea[name="endpoints"]').fill('@public\nGET nowhere');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await dialog.getByText('must be at least 1').waitFor();
  await dialog.getByText(/each entry must be @public, @private/).waitFor();
  await screenshot(page, 'access-plan-errors');

  await dialog.locator('input[name="requests_per_minute"]').fill('20');
  await dialog.locator('textarea[name="endpoints"]').fill('@public\nGET /api/v1/scrapers*');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await dialog.waitFor({ state: 'hidden' });
  const row = page.getByTestId('plan-row').filter({ hasText: 'starter' });
  // Each entry on its own line; the group with the patterns it stands for.
  await row.getByText('@public', { exact: true }).waitFor();
  await row.getByText('GET /api/v1/articles*', { exact: true }).waitFor();
  await row.getByText('GET /api/v1/scrapers*', { exact: true }).waitFor();
  // Prices in the shop currency, as on the Sales page.
  await page.getByTestId('plan-row').filter({ hasText: 'pro' }).getByText(/€/).waitFor();

  await row.getByText('Hard limit').waitFor();

  await row.getByRole('button', { name: 'Edit' }).click();
  await dialog.locator('input[name="requests_per_month"]').fill('-1');
  await dialog.locator('input[name="overage_unit_amount"]').fill('50');
  // A yearly price and a trial: refused while the plan costs nothing a month, the server's message under the field.
  await dialog.locator('input[name="price_yearly"]').fill('90');
  await dialog.locator('input[name="trial_days"]').fill('14');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await dialog.getByText('needs a monthly price above 0 (a plan is sold yearly as well as monthly, not instead)').waitFor();
  await dialog.locator('input[name="price_monthly"]').fill('9');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await dialog.waitFor({ state: 'hidden' });
  await row.getByText('Unlimited').waitFor();
  // Overage is priced in minor units per 1,000 requests: 50 is €0.50.
  await row.getByText('€0.50 per 1,000').waitFor();
  await row.getByTestId('plan-price').getByText('€90.00 a year').waitFor();
  await row.getByTestId('plan-price').getByText('14 days free trial').waitFor();
  await screenshot(page, 'access-plans');
  const plans = await app.request().get('/api/v1/plans');
  expect(plans.body.data.find((plan: { name: string }) => plan.name === 'starter')).toMatchObject({
    requests_per_month: -1,
    requests_per_minute: 20,
  });
  const stored = await app.strapi.db.query('plugin::api-suite.plan').findOne({ where: { name: 'starter' } });
  expect(stored.overage_unit_amount).toBe(50);
  expect(stored.trial_days).toBe(14);
  expect([Number(stored.price_monthly), Number(stored.price_yearly)]).toEqual([9, 90]);
}, 120_000);

it('issues a key for a user on a plan and shows it once, with a copy button', async () => {
  const { page } = browser;
  await openPluginPage(page, app.url, '/access?tab=keys', 'API access');
  await page.getByText(/No API keys yet/).waitFor();
  await page.getByRole('button', { name: 'Issue a key' }).first().click();
  const dialog = page.getByRole('dialog');
  const owner = dialog.getByRole('combobox', { name: /User/ });
  await owner.click();
  await owner.fill(alice.username);
  await page.getByRole('option', { name: new RegExp(alice.username) }).click();
  await dialog.getByRole('combobox', { name: 'Plan' }).click();
  await page.getByRole('option', { name: 'pro' }).click();
  await dialog.locator('input[name="name"]').fill('Alice CI');
  await dialog.getByRole('button', { name: 'Issue key' }).click();

  const shown = page.getByTestId('issued-key');
  await shown.waitFor();
  issuedKey = await shown.inputValue();
  expect(issuedKey).toMatch(/^sk_[A-Za-z0-9]{48}$/);
  await page
    .getByRole('dialog')
    .getByText(/nobody can see it again/)
    .waitFor();
  await page.getByRole('button', { name: 'Copy' }).click();
  await page.getByText('Key copied to the clipboard').waitFor();
  expect(await page.evaluate('navigator.clipboard.readText()')).toBe(issuedKey);
  await screenshot(page, 'access-key-once');

  await page.getByRole('button', { name: 'I have copied it' }).click();
  await page.getByRole('dialog').waitFor({ state: 'detached' });
  const row = page.getByTestId('key-row').filter({ hasText: 'Alice CI' });
  await row.getByText(`${issuedKey.slice(0, 8)}…`).waitFor();
  // Its own plan, chosen at issue; the owner's plan and why beside the owner.
  await row.getByTestId('key-plan').getByText('pro', { exact: true }).waitFor();
  await row.getByTestId('key-plan-source').getByText("Key's own plan").waitFor();
  await row.getByTestId('owner-plan').getByText('On enterprise (granted)').waitFor();
  // Gone for good: not in the page, and not after a reload either.
  expect(await page.content()).not.toContain(issuedKey);
  await page.reload();
  await row.waitFor();
  expect(await page.content()).not.toContain(issuedKey);
  await screenshot(page, 'access-keys');

  const answer = await app.request().get('/api/v1/articles').set('X-API-Key', issuedKey);
  expect(answer.status).toBe(200);
}, 120_000);

it("draws the last hour of usage and follows the key's requests live", async () => {
  const { page } = browser;
  await openPluginPage(page, app.url, '/access?tab=usage', 'API access');
  const chart = page.getByTestId('usage-chart');
  await chart.waitFor();
  await page.getByTestId('usage-live').getByText('Live').waitFor();
  const before = Number(await chart.getAttribute('data-total'));
  for (let i = 0; i < 4; i += 1) expect((await app.request().get('/api/v1/articles').set('X-API-Key', issuedKey)).status).toBe(200);
  // The stream sends a new figure every 5 s: wait for one that counts the four requests.
  await eventually(
    async () => (Number(await chart.getAttribute('data-total')) >= before + 4 ? true : undefined),
    UI_TIMEOUT_MS,
    'the chart counting the 4 requests'
  );
  // The previous test's request may be recorded after `before` was read, so the
  // total can be one more than before + 4; the figure beside the chart must say
  // the same as the chart, whichever it is.
  const total = Number(await chart.getAttribute('data-total'));
  expect(total).toBeGreaterThanOrEqual(before + 4);
  await page.getByTestId('usage-total').getByText(total.toLocaleString('en-US'), { exact: true }).waitFor();
  await waitForCount(chart.locator('rect'), 60, { atLeast: true });
  await screenshot(page, 'access-usage');
}, 90_000);

it("sets a key's own limits, and shows which key replaced a rerolled one", async () => {
  const { page } = browser;
  await openPluginPage(page, app.url, '/access?tab=keys', 'API access');
  const row = page.getByTestId('key-row').filter({ hasText: 'Alice CI' });
  await row.getByRole('button', { name: 'Limits' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.locator('input[name="requests_per_minute"]').fill('0');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await dialog.getByText('must be at least 1').waitFor();
  await dialog.locator('input[name="requests_per_minute"]').fill('5');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await dialog.waitFor({ state: 'hidden' });
  await row.getByText("Own limits: 5 a minute, plan's a month").waitFor();
  const limited = await app.request().get('/api/v1/articles').set('X-API-Key', issuedKey);
  expect(limited.headers['x-ratelimit-limit']).toBe('5');

  // Rerolled through the API with a grace period: the old key says which key replaced it and until when it works.
  const keyId = (await app.strapi.db.query('plugin::api-suite.api-key').findOne({ where: { name: 'Alice CI' }, select: ['id'] }))
    .id as number;
  const rerolled = await app
    .request()
    .post(`/api/v1/keys/${keyId}/reroll`)
    .set('Authorization', `Bearer ${alice.jwt}`)
    .send({ grace_seconds: 3600 });
  expect(rerolled.status).toBe(201);
  await page.reload();
  const old = page.getByTestId('key-row').filter({ hasText: `${issuedKey.slice(0, 8)}…` });
  await old.getByText(`Replaced by ${rerolled.body.data.key_prefix}…`).waitFor();
  await old.getByText(/^Works until /).waitFor();
  await screenshot(page, 'access-keys-rerolled');
}, 90_000);

it('revokes the key', async () => {
  const { page } = browser;
  await openPluginPage(page, app.url, '/access?tab=keys', 'API access');
  const row = page.getByTestId('key-row').filter({ hasText: `${issuedKey.slice(0, 8)}…` });
  await row.getByRole('button', { name: 'Revoke' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Confirm' }).click();
  await row.getByText('Revoked').waitFor();
  const refused = await app.request().get('/api/v1/articles').set('X-API-Key', issuedKey);
  expect(refused.status).toBe(403);
  expect(refused.body.error.code).toBe('key_revoked');
}, 90_000);

it('issues a key that follows its owner, grants the owner a plan and takes it back', async () => {
  const { page } = browser;
  await openPluginPage(page, app.url, '/access?tab=keys', 'API access');
  await page.getByRole('button', { name: 'Issue a key' }).first().click();
  const dialog = page.getByRole('dialog');
  const owner = dialog.getByRole('combobox', { name: /User/ });
  await owner.click();
  await owner.fill(alice.username);
  await page.getByRole('option', { name: new RegExp(alice.username) }).click();
  // The plan is left at "Owner's plan": the key follows alice wherever her plan goes.
  await dialog.getByRole('combobox', { name: 'Plan' }).getByText("Owner's plan").waitFor();
  await dialog.locator('input[name="name"]').fill('Alice follows');
  await dialog.getByRole('button', { name: 'Issue key' }).click();
  await page.getByTestId('issued-key').waitFor();
  await page.getByRole('button', { name: 'I have copied it' }).click();
  await page.getByRole('dialog').waitFor({ state: 'detached' });

  const row = page.getByTestId('key-row').filter({ hasText: 'Alice follows' });
  await row.getByTestId('key-plan').getByText('enterprise', { exact: true }).waitFor();
  await row.getByTestId('key-plan-source').getByText("Follows the owner's plan").waitFor();
  await row.getByTestId('owner-plan').getByText('On enterprise (granted)').waitFor();
  await screenshot(page, 'access-keys-plans');

  await row.getByRole('button', { name: 'Plan…' }).click();
  const grant = page.getByRole('dialog');
  await grant.getByTestId('grant-current').getByText(`${alice.username} is on enterprise now (granted).`).waitFor();
  await grant.getByRole('combobox', { name: 'Granted plan' }).click();
  await page.getByRole('option', { name: 'pro', exact: true }).click();
  await screenshot(page, 'access-grant-plan');
  await grant.getByRole('button', { name: 'Save' }).click();
  await grant.waitFor({ state: 'detached' });
  await row.getByTestId('key-plan').getByText('pro', { exact: true }).waitFor();
  await row.getByTestId('owner-plan').getByText('On pro (granted)').waitFor();
  const usage = await app.request().get('/api/v1/usage').set('Authorization', `Bearer ${alice.jwt}`);
  expect(usage.body.data.plan).toMatchObject({ name: 'pro', own_limits: false });

  // Taking the grant back puts alice on the default plan, and the key with her.
  await row.getByRole('button', { name: 'Plan…' }).click();
  await page.getByRole('dialog').getByRole('combobox', { name: 'Granted plan' }).click();
  await page.getByRole('option', { name: 'No grant (subscription or default plan)' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Save' }).click();
  await page.getByRole('dialog').waitFor({ state: 'detached' });
  await row.getByTestId('owner-plan').getByText('On free (default plan)').waitFor();
  await row.getByTestId('key-plan').getByText('free', { exact: true }).waitFor();
  await screenshot(page, 'access-keys-grant-cleared');

  // Usage of that key is the owner's pool on her plan.
  await openPluginPage(page, app.url, '/access?tab=usage', 'API access');
  await page.getByRole('combobox', { name: 'Key' }).click();
  await page.getByRole('option', { name: /Alice follows/ }).click();
  await page.getByTestId('usage-plan').getByText("The owner's pool on free, shared by all their keys").waitFor();
  await page
    .getByTestId('usage-month')
    .getByText(/ of 1,000$/)
    .waitFor();
  await screenshot(page, 'access-usage-key');
}, 120_000);
