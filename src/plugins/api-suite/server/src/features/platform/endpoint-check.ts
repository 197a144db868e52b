import type { Core } from '@strapi/strapi';
import { EndpointNotAllowedError } from '../../outbound';
import { getService } from '../../utils';
import { EndpointRefusedError } from './errors';

/**
 * 422 endpoint_not_allowed for an address the outbound guard forbids (OUTBOUND_ALLOW_PRIVATE):
 * a webhook endpoint or a scraper's start URL, checked when saved. A name that does not resolve
 * yet is accepted; deliveries and runs will say.
 */
export async function checkEndpoint(strapi: Core.Strapi, url: string | undefined): Promise<void> {
  if (url === undefined) return;
  try {
    await getService(strapi, 'platform').outbound().assertAllowed(url);
  } catch (error) {
    if (error instanceof EndpointNotAllowedError) {
      throw new EndpointRefusedError(new URL(url).host);
    }
  }
}
