import type { Core } from '@strapi/strapi';

interface Ability {
  can(action: string, subject?: unknown): boolean;
}

/**
 * Admin routes that serve several pages (the user picker of keys and scrapers): open to admin
 * users holding any one of `actions`, where Strapi's `admin::hasPermissions` needs all of them.
 */
const hasAnyPermission: Core.PolicyHandler<{ actions: string[] }> = (ctx, config) => {
  // Strapi's policy context is the Koa context, whose state the admin authentication filled.
  const ability = (ctx as unknown as { state: { userAbility?: Ability } }).state.userAbility;
  return Boolean(ability && config.actions.some((action) => ability.can(action)));
};

export default hasAnyPermission;
