import type { Core } from '@strapi/strapi';

/** What the content API's authorize step asks of an ability: whether it holds an action. */
export interface Ability {
  can(action: string): boolean;
}

/**
 * How long a role's permissions are kept at most: an edit in Settings → Roles clears them on every
 * instance at once (owners.ts), so this only bounds what a missed message could leave.
 */
const KEPT_MS = 60_000;

interface PermissionService {
  findRolePermissions(roleId: number): Promise<Array<{ action: string }>>;
  findPublicPermissions(): Promise<Array<{ action: string }>>;
}

/**
 * users-permissions' abilities (the content API's permission engine, as its own strategy builds
 * them) for the Public role and for a consumer's role, kept briefly: the key path asks for them on
 * every request.
 */
export function roleAbilities(strapi: Core.Strapi, now: () => number = Date.now, trusted: () => boolean = () => true) {
  const kept = new Map<string, { ability: Promise<Ability>; until: number }>();
  const permissions = () => strapi.plugin('users-permissions').service('permission') as PermissionService;
  const engine = () =>
    (strapi as unknown as { contentAPI: { permissions: { engine: { generateAbility(p: Array<{ action: string }>): Promise<Ability> } } } })
      .contentAPI.permissions.engine;

  const cached = (key: string, load: () => Promise<Array<{ action: string }>>): Promise<Ability> => {
    const hit = kept.get(key);
    if (hit && hit.until > now() && trusted()) return hit.ability;
    const ability = load().then((found) => engine().generateAbility(found.map(({ action }) => ({ action }))));
    const entry = { ability, until: now() + KEPT_MS };
    kept.set(key, entry);
    ability.catch(() => {
      if (kept.get(key) === entry) kept.delete(key);
    });
    return ability;
  };

  return {
    publicAbility: () => cached('public', () => permissions().findPublicPermissions()),
    /** A user without a role holds nothing. */
    ofRole: (roleId: number | undefined): Promise<Ability> =>
      roleId === undefined
        ? Promise.resolve({ can: () => false })
        : cached(`role:${roleId}`, () => permissions().findRolePermissions(roleId)),
    /** Roles or permissions changed here: build the abilities again. */
    forget: (): void => kept.clear(),
  };
}
