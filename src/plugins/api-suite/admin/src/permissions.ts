import { PLUGIN_ID } from './pluginId';

/**
 * The admin permissions the plugin's server registers (Settings → Roles → Plugins → API Suite).
 * Every page needs its `read` action; its buttons that change something need `manage`.
 */
export const PERMISSIONS = {
  webhooks: {
    read: [{ action: `plugin::${PLUGIN_ID}.webhooks.read`, subject: null }],
    manage: [{ action: `plugin::${PLUGIN_ID}.webhooks.manage`, subject: null }],
  },
  scrapers: {
    read: [{ action: `plugin::${PLUGIN_ID}.scrapers.read`, subject: null }],
    manage: [{ action: `plugin::${PLUGIN_ID}.scrapers.manage`, subject: null }],
  },
  access: {
    read: [{ action: `plugin::${PLUGIN_ID}.access.read`, subject: null }],
    manage: [{ action: `plugin::${PLUGIN_ID}.access.manage`, subject: null }],
  },
  // Read only: orders change through checkout, Stripe and the content manager, not this page.
  sales: {
    read: [{ action: `plugin::${PLUGIN_ID}.sales.read`, subject: null }],
    manage: [],
  },
} as const;

export type Feature = keyof typeof PERMISSIONS;

/** Whoever may read any page sees the plugin in the menu. */
export const MENU_PERMISSIONS = Object.values(PERMISSIONS).flatMap((feature) => [...feature.read]);
