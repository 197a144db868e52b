import type { Core } from '@strapi/strapi';
import { governedTypes, standingGrants, type Grant, type GovernedTypes } from './rules';

/**
 * Puts the rule of `rules.ts` into force in Strapi's admin, at the three places a permission lives:
 *
 * 1. When it is read to decide (every request): the admin's permission service is extended so a
 *    user's permissions (`findUserPermissions`, which both the user's ability for every
 *    Content Manager check and `GET /admin/users/me/permissions`, from which the admin panel
 *    builds its menu, are made of) and an admin token's (`engine.generateTokenAbility`) leave out
 *    the grants on plugin records that lack the feature's permission. This does not depend on
 *    what is stored, so a role edited later cannot reopen the plugin's records.
 * 2. When a role is saved (Settings → Roles): the admin's `willValidateUpdatePermissions` hook
 *    drops such grants, so what the role screen shows after saving is what the role can do.
 * 3. What is already stored, at every boot: Strapi creates its Author and Editor roles (with every
 *    Content Manager action on every content type) in the admin's bootstrap, which runs after the
 *    plugins' bootstraps, and then cleans the stored permissions (`cleanPermissionsInDatabase`).
 *    That cleaning is extended to remove the grants that do not stand, on a new database and on
 *    one an earlier release left, idempotently. Strapi's own readers of stored permissions (the
 *    home page's recent-documents widget reads them directly) then find none either.
 *
 * Why not the other places one could hook: the permission engine's hooks see one permission at a
 * time, not the holder's others, so they cannot say "only beside access.manage"; a middleware on
 * `/content-manager/*` would have to know every route that names a type (lists, relations,
 * bulk actions, history, previews, the home page) and leaves the menu showing types that answer
 * 403; removing stored grants alone lets Settings → Roles or the API grant them again.
 *
 * Runs in the plugin's bootstrap, before the admin's own (which calls the extended cleaning).
 */
export function enforceRecordPermissions(strapi: Core.Strapi): void {
  const governed = governedTypes(Object.values(strapi.contentTypes));
  strapi
    .get<ServiceRegistry>('services')
    .extend('admin::permission', (service) => extendPermissionService(strapi, service as PermissionService, governed));
  const roles = strapi.service('admin::role') as unknown as RoleService;
  const hook = roles.hooks.willValidateUpdatePermissions;
  if (hook) hook.register((permissions) => standingGrants(permissions, governed));
  else {
    // An older Strapi (5.30) has no such hook: the role screen's save calls `assignPermissions` directly.
    const assign = roles.assignPermissions.bind(roles);
    roles.assignPermissions = (roleId, permissions) => assign(roleId, standingGrants(permissions, governed));
  }
}

/** Delete the stored grants that do not stand, holder by holder (role or admin token); returns how many. */
export async function removeStoredGrants(strapi: Core.Strapi, governed: GovernedTypes): Promise<number> {
  const rows = (await strapi.db.query('admin::permission').findMany({
    select: ['id', 'action', 'subject'],
    populate: { role: { select: ['id'] }, apiToken: { select: ['id'] } },
  })) as StoredPermission[];
  const byHolder = new Map<string, StoredPermission[]>();
  for (const row of rows) {
    // A permission of neither a role nor a token is an orphan, which Strapi's own cleaning removes.
    const holder = row.role ? `role:${row.role.id}` : row.apiToken ? `token:${row.apiToken.id}` : undefined;
    if (holder) byHolder.set(holder, [...(byHolder.get(holder) ?? []), row]);
  }
  const removed = [...byHolder.values()].flatMap((grants) => {
    const standing = new Set(standingGrants(grants, governed));
    return grants.filter((grant) => !standing.has(grant)).map((grant) => grant.id);
  });
  if (removed.length > 0) await (strapi.service('admin::permission') as unknown as PermissionService).deleteByIds(removed);
  return removed.length;
}

interface StoredPermission extends Grant {
  id: number;
  role?: { id: number } | null;
  apiToken?: { id: number } | null;
}

interface PermissionEngine {
  generateTokenAbility(permissions: Grant[], owner: unknown): Promise<unknown>;
}

/** The parts of the admin's permission service this module uses or extends. */
interface PermissionService {
  findUserPermissions(user: unknown): Promise<Grant[]>;
  cleanPermissionsInDatabase(): Promise<void>;
  deleteByIds(ids: number[]): Promise<void>;
  engine: PermissionEngine;
}

interface RoleService {
  /** Absent in Strapi 5.30.0, present in 5.54.0. */
  hooks: { willValidateUpdatePermissions?: { register(handler: (permissions: Grant[]) => Grant[]): void } };
  assignPermissions(roleId: unknown, permissions: Grant[]): Promise<unknown>;
}

interface ServiceRegistry {
  extend(uid: string, extend: (service: unknown) => unknown): void;
}

function extendPermissionService(strapi: Core.Strapi, service: PermissionService, governed: GovernedTypes): PermissionService {
  const { engine } = service;
  // The engine keeps its own state (hooks other plugins register); only this one method is replaced.
  const extendedEngine: PermissionEngine = Object.create(engine, {
    generateTokenAbility: {
      value: (permissions: Grant[], owner: unknown) => engine.generateTokenAbility(standingGrants(permissions, governed), owner),
    },
  });
  return {
    ...service,
    engine: extendedEngine,
    findUserPermissions: async (user) => standingGrants(await service.findUserPermissions(user), governed),
    async cleanPermissionsInDatabase() {
      await service.cleanPermissionsInDatabase();
      const removed = await removeStoredGrants(strapi, governed);
      if (removed > 0) {
        strapi.log.info(
          `[api-suite] removed ${removed} stored Content Manager permissions on the plugin's records from roles and tokens without the plugin's permission for them`
        );
      }
    },
  };
}
