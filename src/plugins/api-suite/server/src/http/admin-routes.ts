import type { FeatureRoute } from '../features/types';
import { PLUGIN_ID } from '../constants';
import { adminPermission } from '../../../shared/permissions';
import { validate, type RouteInput } from './input';
import { fromContract, routerPath, type RouteContract } from '../contract/route';

/** The plugin's admin-panel permissions by name, as its admin routes check them (listed in shared/permissions.ts). */
export const ADMIN_PERMISSIONS = {
  webhooksRead: adminPermission('webhooks.read'),
  webhooksManage: adminPermission('webhooks.manage'),
  scrapersRead: adminPermission('scrapers.read'),
  scrapersManage: adminPermission('scrapers.manage'),
  accessRead: adminPermission('access.read'),
  accessManage: adminPermission('access.manage'),
  salesRead: adminPermission('sales.read'),
  salesManage: adminPermission('sales.manage'),
} as const;

export type AdminPermission = (typeof ADMIN_PERMISSIONS)[keyof typeof ADMIN_PERMISSIONS];

type Method = FeatureRoute['method'];

/** Where the admin panel's contracts are written to be: the plugin's admin routes are served at /api-suite. */
const ADMIN_MOUNT = `/${PLUGIN_ID}`;

/**
 * The route-config middlewares of every admin-panel route: refusals in Strapi's own error body
 * (the admin's fetch client reads it), then the route's `input` parsed for its handler. Policies
 * run before route middlewares, so a refused session or permission keeps Strapi's answer.
 */
function adminMiddlewares(input?: RouteInput): NonNullable<FeatureRoute['config']>['middlewares'] {
  return [`plugin::${PLUGIN_ID}.strapi-errors`, ...(input ? [validate(input)] : [])];
}

/**
 * An admin-panel route (reached at /api-suite/<path> with the admin session's JWT), mounted from
 * its contract (contract/route.ts), open to admin users holding every one of `actions` (or, with
 * `{ any }`, one of them), taking `input` (see `validate`).
 */
export function adminRoute(
  contract: RouteContract,
  handler: string,
  actions: AdminPermission[] | { any: AdminPermission[] },
  input?: RouteInput
): FeatureRoute {
  return fromContract(
    {
      method: contract.method.toUpperCase() as Method,
      path: routerPath(contract, ADMIN_MOUNT),
      handler,
      config: {
        policies: [
          'admin::isAuthenticatedAdmin',
          Array.isArray(actions)
            ? { name: 'admin::hasPermissions', config: { actions } }
            : { name: `plugin::${PLUGIN_ID}.has-any-permission`, config: { actions: actions.any } },
        ],
        middlewares: adminMiddlewares(input),
      },
    },
    contract
  );
}
