import type { Core } from '@strapi/strapi';
import { ApiError } from '../../../http/errors';
import { getConfig } from '../../../utils';
import { checkEndpoint } from '../../webhooks/services/create-subscription';

/**
 * What the body's schema cannot know: a proxy pool must be one the site configured, and the start
 * URL must be an address this server may fetch. Shared by the API and the admin panel.
 */
export async function checkScraperConfig(strapi: Core.Strapi, body: { proxy_pool?: string | null; url?: string }): Promise<void> {
  if (body.proxy_pool) {
    const pools = proxyPoolNames(strapi);
    if (!pools.includes(body.proxy_pool)) {
      const known = pools.length === 0 ? 'no proxy pool is configured' : `configured pools: ${pools.join(', ')}`;
      throw new ApiError(400, 'validation_error', `proxy_pool: must name a configured proxy pool (${known})`, [
        { field: 'proxy_pool', message: `must name a configured proxy pool (${known})` },
      ]);
    }
  }
  await checkEndpoint(strapi, body.url);
}

export function proxyPoolNames(strapi: Core.Strapi): string[] {
  return Object.keys(getConfig(strapi).scrapers.proxyPools);
}
