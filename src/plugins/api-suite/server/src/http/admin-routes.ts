import type { FeatureRoute } from '../features/types';
import { PLUGIN_ID } from '../constants';
import { validate, type RouteInput } from './input';

/**
 * The plugin's admin-panel permissions, as the admin's permission system names them. Reads and
 * writes are separate actions so a site can let editors look without letting them change.
 */
export const ADMIN_PERMISSIONS = {
  webhooksRead: `plugin::${PLUGIN_ID}.webhooks.read`,
  webhooksManage: `plugin::${PLUGIN_ID}.webhooks.manage`,
  scrapersRead: `plugin::${PLUGIN_ID}.scrapers.read`,
  scrapersManage: `plugin::${PLUGIN_ID}.scrapers.manage`,
  accessRead: `plugin::${PLUGIN_ID}.access.read`,
  accessManage: `plugin::${PLUGIN_ID}.access.manage`,
  salesRead: `plugin::${PLUGIN_ID}.sales.read`,
  // No page of the plugin changes orders; this lets a role change them in the Content Manager.
  salesManage: `plugin::${PLUGIN_ID}.sales.manage`,
} as const;

export type AdminPermission = (typeof ADMIN_PERMISSIONS)[keyof typeof ADMIN_PERMISSIONS];

type Method = FeatureRoute['method'];

/**
 * The route-config middlewares of every admin-panel route: refusals in Strapi's own error body
 * (the admin's fetch client reads it), then the route's `input` parsed for its handler. Policies
 * run before route middlewares, so a refused session or permission keeps Strapi's answer.
 */
export function adminMiddlewares(input?: RouteInput): NonNullable<FeatureRoute['config']>['middlewares'] {
  return [`plugin::${PLUGIN_ID}.strapi-errors`, ...(input ? [validate(input)] : [])];
}

/**
 * An admin-panel route (reached at /api-suite/<path> with the admin session's JWT) open to
 * admin users holding every one of `actions`, taking `input` (see `validate`).
 */
export function adminRoute(method: Method, path: string, handler: string, actions: AdminPermission[], input?: RouteInput): FeatureRoute {
  return {
    method,
    path,
    handler,
    config: {
      policies: ['admin::isAuthenticatedAdmin', { name: 'admin::hasPermissions', config: { actions } }],
      middlewares: adminMiddlewares(input),
    },
  };
}
