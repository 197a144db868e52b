/**
 * The plugin's admin-panel permissions (Settings → Roles → Plugins → API Suite), listed once: the
 * server registers them and its admin routes check them, the admin panel's pages ask for them.
 * Reads and writes are separate actions so a site can let editors look without letting them change.
 */
export const ADMIN_ACTIONS = [
  { uid: 'webhooks.read', displayName: 'Read subscriptions, deliveries and event types', subCategory: 'webhooks' },
  { uid: 'webhooks.manage', displayName: 'Test, retry, re-enable and edit event types', subCategory: 'webhooks' },
  { uid: 'scrapers.read', displayName: 'Read scrapers, runs and results', subCategory: 'scrapers' },
  { uid: 'scrapers.manage', displayName: 'Create, edit, delete, run and stop scrapers', subCategory: 'scrapers' },
  { uid: 'access.read', displayName: 'Read plans, keys and usage', subCategory: 'api access' },
  { uid: 'access.manage', displayName: 'Create and edit plans, issue and revoke keys', subCategory: 'api access' },
  { uid: 'sales.read', displayName: 'Read the sales report and orders', subCategory: 'sales' },
  // No page of the plugin changes orders: they are changed in the Content Manager (status), which
  // needs this beside its own permissions.
  { uid: 'sales.manage', displayName: 'Change orders in the Content Manager', subCategory: 'sales' },
] as const;

export type AdminActionUid = (typeof ADMIN_ACTIONS)[number]['uid'];

/** A group of actions: one page of the admin panel, and the feature that registers them. */
export type AdminActionGroup = AdminActionUid extends `${infer Group}.${string}` ? Group : never;

/** The plugin's id, which prefixes its actions' ids (the server's and the admin panel's PLUGIN_ID). */
const PLUGIN_ID = 'api-suite';

/** The id the admin's permission system knows an action by. */
export function adminPermission<Uid extends AdminActionUid>(uid: Uid): `plugin::${typeof PLUGIN_ID}.${Uid}` {
  return `plugin::${PLUGIN_ID}.${uid}`;
}

/** The actions of one group, as its feature registers them. */
export function adminActionsOf(group: AdminActionGroup): Array<(typeof ADMIN_ACTIONS)[number]> {
  return ADMIN_ACTIONS.filter((action) => action.uid.startsWith(`${group}.`));
}
