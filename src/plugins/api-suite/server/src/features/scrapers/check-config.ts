import type { Core } from '@strapi/strapi';
import { getConfig } from '../../utils';
import { fromJson } from '../../db';
import { checkEndpoint } from '../webhooks/subscriptions/create';
import type { ScraperSelectors } from './validation';
import type { ChangeDetectionSetting } from './content-hash';
import type { ScraperRow } from './services/scrapers';
import { InvalidError } from '../../errors';

/**
 * What the body's schema cannot know: a proxy pool must be one the site configured, the start URL
 * must be an address this server may fetch, and a change detection key must be a field the items
 * have (with `current`, the scraper being changed, for the fields a PATCH leaves as they are).
 * Shared by the API and the admin panel.
 */
export async function checkScraperConfig(
  strapi: Core.Strapi,
  body: { proxy_pool?: string | null; url?: string; selectors?: ScraperSelectors | null; change_detection?: ChangeDetectionSetting | null },
  current?: ScraperRow
): Promise<void> {
  checkChangeKey(
    body.selectors !== undefined ? body.selectors : fromJson<ScraperSelectors | null>(current?.selectors, null),
    body.change_detection !== undefined ? body.change_detection : fromJson<ChangeDetectionSetting | null>(current?.change_detection, null)
  );
  if (body.proxy_pool) {
    const pools = proxyPoolNames(strapi);
    if (!pools.includes(body.proxy_pool)) {
      const known = pools.length === 0 ? 'no proxy pool is configured' : `configured pools: ${pools.join(', ')}`;
      throw new InvalidError('validation_error', `proxy_pool: must name a configured proxy pool (${known})`, [
        { field: 'proxy_pool', message: `must name a configured proxy pool (${known})` },
      ]);
    }
  }
  await checkEndpoint(strapi, body.url);
}

/** A key no item has would leave every item keyless: refused rather than silently comparing nothing. */
function checkChangeKey(selectors: ScraperSelectors | null, setting: ChangeDetectionSetting | null): void {
  const key = setting?.key;
  if (key === undefined) return;
  const fields = selectors ? Object.keys(selectors.fields) : ['url', 'title'];
  if (fields.includes(key)) return;
  const message = `must be one of the items' fields (${fields.join(', ')})`;
  throw new InvalidError('validation_error', `change_detection.key: ${message}`, [{ field: 'change_detection.key', message }]);
}

export function proxyPoolNames(strapi: Core.Strapi): string[] {
  return Object.keys(getConfig(strapi).scrapers.proxyPools);
}
