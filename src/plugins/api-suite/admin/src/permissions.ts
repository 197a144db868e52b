import { adminPermission, type AdminActionUid } from '../../shared/permissions';

/**
 * The admin permissions each page asks for (listed in the plugin's shared/permissions.ts, which the
 * server registers). Every page needs its `read` action; its buttons that change something need `manage`.
 */
export const PERMISSIONS = {
  webhooks: { read: held('webhooks.read'), manage: held('webhooks.manage') },
  scrapers: { read: held('scrapers.read'), manage: held('scrapers.manage') },
  access: { read: held('access.read'), manage: held('access.manage') },
  // Read only: orders change through checkout, Stripe and the content manager, not this page.
  sales: { read: held('sales.read'), manage: [] },
} as const;

export type Feature = keyof typeof PERMISSIONS;

/** Whoever may read any page sees the plugin in the menu. */
export const MENU_PERMISSIONS = Object.values(PERMISSIONS).flatMap((feature) => [...feature.read]);

/** The permission check that needs `uid`, as the admin's RBAC hooks take it. */
function held<Uid extends AdminActionUid>(uid: Uid) {
  return [{ action: adminPermission(uid), subject: null }] as const;
}
