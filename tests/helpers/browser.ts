import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { APP_DIR } from './paths';
import { eventually } from './wait';

/**
 * Debian's chromium driven by playwright-core, headless, for the admin panel's browser tests.
 * Each test file gets a fresh profile directory; requests to anything but 127.0.0.1 are refused,
 * so the admin's own calls home never leave the machine.
 */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  // Nothing outside the machine: every name but 127.0.0.1 resolves to nothing, and any other
  // address goes to a proxy that is not there (loopback bypasses proxies). Done by the browser
  // rather than by Playwright's request routing, which would turn its HTTP cache off and make
  // every page load fetch and compile the admin panel's bundle afresh.
  '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1',
  '--proxy-server=http://127.0.0.1:9',
];
export const SCREENSHOTS_DIR = path.join(APP_DIR, 'tests', 'e2e', 'screenshots');
/** Generous: the machine is shared and the admin bundle is large; every wait is for an element, never a fixed time. */
export const UI_TIMEOUT_MS = 30_000;

export interface TestBrowser {
  context: BrowserContext;
  page: Page;
  /** Every page error and console error, for the test's failure message. */
  errors: string[];
  /** Console warnings that name the plugin ("[API Suite]…"), such as Strapi's deprecation notices. */
  pluginWarnings: string[];
  close(): Promise<void>;
}

export async function launchBrowser(origin: string): Promise<TestBrowser> {
  if (!fs.existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium`);
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'api-suite-e2e-'));
  // launchPersistentContext passes the profile as --user-data-dir (Playwright refuses it in args).
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_FLAGS,
    viewport: { width: 1440, height: 900 },
    locale: 'en-US',
    timezoneId: 'UTC',
  });
  context.setDefaultTimeout(UI_TIMEOUT_MS);
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
  const page = context.pages()[0] ?? (await context.newPage());
  const errors: string[] = [];
  const pluginWarnings: string[] = [];
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    // Refused outside requests (the admin's calls home) and HTTP errors the tests provoke on purpose
    // (validation) are expected; anything else the page logs as an error is kept.
    const text = message.text();
    if (message.type() === 'warning' && text.includes('[API Suite]')) pluginWarnings.push(text);
    if (
      message.type() === 'error' &&
      !/ERR_NAME_NOT_RESOLVED|ERR_PROXY_CONNECTION_FAILED/.test(text) &&
      !text.startsWith('Failed to load resource: the server responded')
    ) {
      errors.push(`console: ${text}`);
    }
  });
  return {
    context,
    page,
    errors,
    pluginWarnings,
    async close() {
      await context.close();
      fs.rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** A full-page screenshot under tests/e2e/screenshots/ (not committed). */
export async function screenshot(page: Page, name: string): Promise<string> {
  fs.mkdirSync(SCREENSHOTS_DIR, { recursive: true });
  const file = path.join(SCREENSHOTS_DIR, `${name}.png`);
  // Let fonts and the last render settle; the picture is for people, the assertions came before.
  await page.evaluate('document.fonts.ready');
  await page.screenshot({ path: file, fullPage: true, animations: 'disabled' });
  return file;
}

export interface AdminCredentials {
  email: string;
  password: string;
}

export const FIRST_ADMIN: AdminCredentials & { firstname: string; lastname: string } = {
  firstname: 'Site',
  lastname: 'Owner',
  email: 'owner@example.test',
  password: 'Owner-password-1',
};

/**
 * Register the site's first admin as its first visitor does: /admin shows the registration form
 * while no admin exists; filling it signs the new admin in.
 */
export async function registerFirstAdmin(page: Page, appUrl: string, admin = FIRST_ADMIN): Promise<void> {
  await page.goto(`${appUrl}/admin`);
  await page.waitForURL(/\/admin\/auth\/register-admin/);
  await page.locator('input[name="firstname"]').fill(admin.firstname);
  await page.locator('input[name="lastname"]').fill(admin.lastname);
  await page.locator('input[name="email"]').fill(admin.email);
  await page.locator('input[name="password"]').fill(admin.password);
  await page.locator('input[name="confirmPassword"]').fill(admin.password);
  await page.getByRole('button', { name: /let's start/i }).click();
  await page.waitForURL((url) => !url.pathname.startsWith('/admin/auth'));
}

/** Sign in through the admin's login form. */
export async function logIn(page: Page, appUrl: string, credentials: AdminCredentials): Promise<void> {
  await page.goto(`${appUrl}/admin/auth/login`);
  await page.locator('input[name="email"]').fill(credentials.email);
  await page.locator('input[name="password"]').fill(credentials.password);
  await page.getByRole('button', { name: /^login$/i }).click();
  await page.waitForURL((url) => !url.pathname.startsWith('/admin/auth'));
}

/** Open one of the plugin's pages and wait for its title. */
export async function openPluginPage(page: Page, appUrl: string, subPath: string, title: string): Promise<void> {
  await page.goto(`${appUrl}/admin/plugins/api-suite${subPath}`);
  await page.getByRole('heading', { name: title, level: 1 }).waitFor();
}

/** Wait until `locator` matches `count` elements (or at least `count` with `atLeast`). */
export async function waitForCount(
  locator: Locator,
  count: number,
  options: { atLeast?: boolean; timeoutMs?: number } = {}
): Promise<void> {
  let found = 0;
  await eventually(
    async () => {
      found = await locator.count();
      return (options.atLeast ? found >= count : found === count) ? true : undefined;
    },
    options.timeoutMs ?? UI_TIMEOUT_MS,
    () => `${options.atLeast ? 'at least ' : ''}${count} of ${locator} (found ${found})`
  );
}

/** Wait until an element's attribute reads `value` (a page that reloads after a change). */
export async function waitForAttribute(locator: Locator, name: string, value: string, timeoutMs = UI_TIMEOUT_MS): Promise<void> {
  await eventually(
    async () => ((await locator.getAttribute(name)) === value ? true : undefined),
    timeoutMs,
    `${locator} having ${name}="${value}"`
  );
}

/**
 * The end of a browser test file: report what the page logged as errors, then close the
 * browser and everything the file started (the app, receivers, sites, stubs), in that order.
 */
export async function closeBrowserTest(
  browser: TestBrowser | undefined,
  ...started: Array<{ close(): Promise<unknown> } | undefined>
): Promise<void> {
  if (browser && browser.errors.length > 0) console.warn(`browser errors:\n${browser.errors.join('\n')}`);
  await browser?.close();
  for (const resource of started) await resource?.close();
}

/**
 * The page's width against the window's, and how far each table is cut off: against the box that
 * clips it (the admin's tables scroll inside a box of their own, so the page alone would not show
 * them cut off) and against the window. Run in the page: the tests are compiled without the DOM's types.
 */
export async function measureWidths(page: Page): Promise<{ scrollWidth: number; innerWidth: number; tables: number[] }> {
  return (await page.evaluate(`({
  scrollWidth: document.documentElement.scrollWidth,
  innerWidth: window.innerWidth,
  tables: Array.from(document.querySelectorAll('table')).map((table) => {
    const box = table.parentElement;
    return Math.max(box ? box.scrollWidth - box.clientWidth : 0, table.getBoundingClientRect().right - window.innerWidth);
  }),
})`)) as { scrollWidth: number; innerWidth: number; tables: number[] };
}
