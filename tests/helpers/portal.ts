import type { Page } from 'playwright-core';
import { screenshot, UI_TIMEOUT_MS } from './browser';
import { eventually } from './wait';

/** The consumer portal in the browser tests: signing up through its form, and screenshots at desktop and phone widths. */
export const PHONE = { width: 390, height: 844 };
export const DESKTOP = { width: 1440, height: 900 };

export interface PortalUser {
  username: string;
  email: string;
  password: string;
}

export function newPortalUser(name: string): PortalUser {
  const suffix = Math.random().toString(36).slice(2, 8);
  return { username: `${name}_${suffix}`, email: `${name}_${suffix}@example.test`, password: `Pw-${suffix}-portal` };
}

/** Sign up through the portal's form; it lands on the overview. */
export async function signUp(page: Page, appUrl: string, user: PortalUser): Promise<void> {
  await page.goto(`${appUrl}/portal/sign-up`);
  await page.getByLabel('Username').fill(user.username);
  await page.getByLabel('Email', { exact: true }).fill(user.email);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
}

/** The page at 1440 and at 390 px wide (tests/e2e/screenshots/portal-<name>-{1440,390}.png), back at 1440 after. */
export async function shoot(page: Page, name: string): Promise<void> {
  await page.setViewportSize(DESKTOP);
  await screenshot(page, `portal-${name}-1440`);
  await page.setViewportSize(PHONE);
  // Nothing may stick out sideways on a phone.
  const overflow = await page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth');
  if (Number(overflow) > 0) throw new Error(`portal ${name}: the page is ${String(overflow)} px wider than a 390 px screen`);
  // The tabs stay one row (it scrolls within itself) rather than wrapping onto several.
  const rows = await page.evaluate(
    "new Set([...document.querySelectorAll('.tabs .tab')].map((tab) => tab.getBoundingClientRect().top)).size"
  );
  if (Number(rows) > 1) throw new Error(`portal ${name}: the tabs wrap onto ${String(rows)} rows on a 390 px screen`);
  await screenshot(page, `portal-${name}-390`);
  await page.setViewportSize(DESKTOP);
}

/**
 * On the portal's Overview: make `call` (a request counted for the signed-in consumer) and wait
 * until the live usage chart has counted it.
 */
export async function countedInLiveChart(page: Page, call: () => Promise<void>): Promise<void> {
  await page.getByRole('link', { name: 'Overview' }).click();
  const chart = page.getByTestId('usage-chart');
  await chart.waitFor();
  await page.getByTestId('usage-live').getByText('Live').waitFor();
  const before = Number(await chart.getAttribute('data-total'));
  await call();
  await eventually(
    async () => (Number(await chart.getAttribute('data-total')) >= before + 1 ? true : undefined),
    UI_TIMEOUT_MS,
    'the request in the live usage chart'
  );
}
