import { createHmac } from 'node:crypto';
import type { Core } from '@strapi/strapi';

/**
 * A trial is given once per e-mail address, not per account (docs/billing.md#trials): closing an
 * account and signing up again with the same address must not bring a second one. The address is
 * kept only as a keyed digest (HMAC-SHA256 with the site's app keys), beside the closed
 * account's customer record, so the site can tell the address again without storing it.
 */
export function trialEmailDigest(strapi: Core.Strapi, email: string): string {
  const keys = (strapi.config.get('server.app.keys') as string[] | undefined) ?? [];
  return createHmac('sha256', `api-suite:trial-email:${keys.join(',')}`)
    .update(email.trim().toLowerCase(), 'utf8')
    .digest('hex');
}
