import fs from 'node:fs';
import { startApp, type TestApp } from '../helpers/app';
import { closeBrowserTest, launchBrowser, type TestBrowser } from '../helpers/browser';
import { newPortalUser, shoot, signUp } from '../helpers/portal';

/**
 * The portal's Account page in a real browser: a consumer downloads everything the site holds
 * about them as one JSON file, then closes their account behind the password and a confirmation
 * (the form's own checks, the server's "not your password" beside the field), and lands on the
 * sign-in page told it is done; their key no longer works.
 */
let app: TestApp;
let browser: TestBrowser;
const dora = newPortalUser('dora');

beforeAll(async () => {
  app = await startApp();
  browser = await launchBrowser(app.url);
}, 120_000);

afterAll(() => closeBrowserTest(browser, app));

it('downloads the export, then deletes the account behind the password and a confirmation', async () => {
  const { page } = browser;
  await signUp(page, app.url, dora);
  const session = JSON.parse((await page.evaluate("localStorage.getItem('api-suite-portal-session')")) as string) as { jwt: string };
  const issued = await app.request().post('/api/v1/keys').set('Authorization', `Bearer ${session.jwt}`).send({ name: 'laptop' });
  expect(issued.status).toBe(201);
  const key = issued.body.data.key as string;

  await page.getByRole('link', { name: 'Account', exact: true }).click();
  await page.getByRole('heading', { name: 'Account', level: 1 }).waitFor();
  await shoot(page, 'account');

  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download my data' }).click()]);
  expect(download.suggestedFilename()).toBe('account-export.json');
  const exported = JSON.parse(fs.readFileSync(await download.path(), 'utf8')) as {
    profile: { username: string; email: string };
    keys: Array<{ name: string; key_prefix: string }>;
  };
  expect(exported.profile).toMatchObject({ username: dora.username, email: dora.email });
  expect(exported.keys).toEqual([expect.objectContaining({ name: 'laptop', key_prefix: key.slice(0, 8) })]);
  expect(JSON.stringify(exported)).not.toContain(key);

  await page.getByRole('button', { name: 'Delete my account…' }).click();
  const form = page.getByRole('form', { name: 'Delete your account' });
  await form.getByRole('button', { name: 'Delete my account' }).click();
  await form.getByText('Enter your password.').waitFor();
  await form.getByText('Tick this to confirm.').waitFor();

  await form.getByLabel('Password').fill(`${dora.password}-not`);
  await form.getByLabel(/I understand that my account/).check();
  await form.getByRole('button', { name: 'Delete my account' }).click();
  await form.getByText('The password is not correct').waitFor();
  await shoot(page, 'account-delete-wrong-password');
  await app.request().get('/api/v1/keys').set('X-API-Key', key).expect(200);

  await form.getByLabel('Password').fill(dora.password);
  await form.getByRole('button', { name: 'Delete my account' }).click();
  await page.getByRole('heading', { name: 'Sign in' }).waitFor();
  await page.getByText('Your account has been deleted. An e-mail confirms it.').waitFor();
  await shoot(page, 'account-deleted');

  const refused = await app.request().get('/api/v1/keys').set('X-API-Key', key);
  expect(refused.status).toBe(401);
  expect(await app.strapi.db.query('plugin::users-permissions.user').count({ where: { email: dora.email } })).toBe(0);
  expect(browser.errors).toEqual([]);
}, 120_000);
