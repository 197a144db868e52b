import type { Core } from '@strapi/strapi';
import { getService } from '../../../utils';

/**
 * `plugin::api-suite.access`: enabled globally in config/middlewares.ts, it guards every route
 * under the configured prefixes (/api/v1 and /api/webhooks by default), the host's included.
 */
export const access = (_config: unknown, { strapi }: { strapi: Core.Strapi }): Core.MiddlewareHandler => {
  return (ctx, next) => getService(strapi, 'access').handle(ctx, next);
};

/**
 * `plugin::api-suite.access-guard`: the same check named on the plugin's own routes, so they
 * stay protected on a site that did not enable the global middleware. A request is only ever
 * checked and counted once, whichever of the two sees it first.
 */
export const accessGuard = (_config: unknown, { strapi }: { strapi: Core.Strapi }): Core.MiddlewareHandler => {
  return (ctx, next) => getService(strapi, 'access').handle(ctx, next, { always: true });
};
