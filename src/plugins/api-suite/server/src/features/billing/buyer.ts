import type { Core } from '@strapi/strapi';
import type { Context } from 'koa';
import { consumerOf } from '../../http/consumer';
import { getService } from '../../utils';
import { BillingNotConfiguredError } from './errors';
import type { Buyer } from './services/account';

/**
 * Every billing route answers 503 `billing_not_configured` while Stripe is not configured or not
 * provisioned yet (the reason is logged, not shown), whatever the caller and the body.
 */
export function ensureBillingReady(strapi: Core.Strapi): void {
  const status = getService(strapi, 'billing-catalog').status();
  if (!status.ready) throw new BillingNotConfiguredError();
}

/**
 * The consumer buying, once billing is known to be ready (503 before the shared key's 403). The
 * routes that take a plan load it so (routes/inputs.ts), before their body is read.
 */
export function buyerOf(strapi: Core.Strapi, ctx: Context): Buyer {
  ensureBillingReady(strapi);
  const { userId, consumerId } = consumerOf(ctx);
  return { userId, consumerId };
}
