import type { FeatureRoute } from '../features/types';
import { adminPermission } from '../../../shared/permissions';

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

/**
 * An admin-panel route (reached at /api-suite/<path> with the admin session's JWT) open to
 * admin users holding every one of `actions`.
 */
export function adminRoute(method: Method, path: string, handler: string, actions: AdminPermission[]): FeatureRoute {
  return {
    method,
    path,
    handler,
    config: {
      policies: ['admin::isAuthenticatedAdmin', { name: 'admin::hasPermissions', config: { actions } }],
    },
  };
}
