import type { Core } from '@strapi/strapi';
import { getConfig } from '../../utils';
import { fromJson } from '../../db';
import { checkEndpoint } from '../platform/endpoint-check';
import type { ScraperSelectors } from './validation';
import type { ChangeDetectionSetting } from './content-hash';
import type { ScraperRow } from './services/scrapers';
import { InvalidChangeKeyError, TargetNotAllowedError, UnknownProxyPoolError } from './errors';
import type { ScraperTargetSetting } from './validation/requests';
import { itemFieldsOf, resolveTarget } from './target/check';

/**
 * What the body's schema cannot know: a proxy pool must be one the site configured, the start URL
 * must be an address this server may fetch, and a change detection key must be a field the items
 * have (with `current`, the scraper being changed, for the fields a PATCH leaves as they are).
 * Shared by the API and the admin panel.
 */
export async function checkScraperConfig(
  strapi: Core.Strapi,
  body: {
    proxy_pool?: string | null;
    url?: string;
    selectors?: ScraperSelectors | null;
    change_detection?: ChangeDetectionSetting | null;
    target?: ScraperTargetSetting | null;
  },
  current?: ScraperRow
): Promise<void> {
  const selectors = body.selectors !== undefined ? body.selectors : fromJson<ScraperSelectors | null>(current?.selectors, null);
  checkChangeKey(
    selectors,
    body.change_detection !== undefined ? body.change_detection : fromJson<ChangeDetectionSetting | null>(current?.change_detection, null)
  );
  // Against the site's schema and the items' fields as they will be (new selectors too): 422 invalid_target.
  const target = body.target !== undefined ? body.target : fromJson<ScraperTargetSetting | null>(current?.target, null);
  if (target) resolveTarget(strapi, target, itemFieldsOf(selectors));
  if (body.proxy_pool) {
    const pools = proxyPoolNames(strapi);
    if (!pools.includes(body.proxy_pool)) throw new UnknownProxyPoolError(pools);
  }
  await checkEndpoint(strapi, body.url);
}

/** A key no item has would leave every item keyless: refused rather than silently comparing nothing. */
function checkChangeKey(selectors: ScraperSelectors | null, setting: ChangeDetectionSetting | null): void {
  const key = setting?.key;
  if (key === undefined) return;
  const fields = selectors ? Object.keys(selectors.fields) : ['url', 'title'];
  if (fields.includes(key)) return;
  throw new InvalidChangeKeyError(fields);
}

/**
 * Writing into the site's content is the site's staff's to decide: a body naming `target` (null
 * included) from anyone but an administrator is refused before anything else is looked at, and
 * so is any change to a scraper that has one (`current`): its start URL and selectors decide what
 * is written into the site, so a consumer who owns it may run or delete it, not change it.
 */
export function checkTargetAllowed(body: { target?: unknown }, caller: { isAdmin: boolean }, current?: ScraperRow): void {
  if (caller.isAdmin) return;
  if (body.target !== undefined)
    throw new TargetNotAllowedError("Only administrators may set a scraper's target (the site's content it writes into)");
  if (current && fromJson<unknown>(current.target, null) !== null)
    throw new TargetNotAllowedError(
      "This scraper writes into the site's content: only administrators may change it (you may still run or delete it)"
    );
}

export function proxyPoolNames(strapi: Core.Strapi): string[] {
  return Object.keys(getConfig(strapi).scrapers.proxyPools);
}
