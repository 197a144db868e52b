import type { Core } from '@strapi/strapi';
import { getService } from '../../../utils';
import { roleAbilities, type Ability } from './abilities';

/**
 * How long an owner and their role's ability are kept at most: an edit of a user, a role or a
 * permission clears them on every instance at once (over Redis, as a revoked key), so this only
 * bounds what a missed message could leave.
 */
export const OWNER_KEPT_MS = 60_000;

export interface OwnerUser extends Record<string, unknown> {
  id: number;
  role?: { id: number } | null;
}

export interface Owner {
  user: OwnerUser;
  ability: Ability;
}

interface UsersService {
  fetchAuthenticatedUser(id: number): Promise<OwnerUser | null>;
}

export interface OwnersOptions {
  now?: () => number;
  /** Whether the cache may be believed now (not while the instance cannot hear invalidations): when not, everything is read afresh. */
  trusted?: () => boolean;
}

/**
 * The owner behind a key (a users-permissions user with their role) and what that role may do,
 * kept together: the content API's key path would otherwise read the user on every request, one
 * query more than Strapi's own API tokens cost, and rebuild the role's ability as it expires. An
 * edit of a user, a role or a permission forgets everything (`forget`), here at once and on every
 * other instance through the keys service's invalidation channel, as a revoked key is; while an
 * instance cannot hear that channel, it reads them afresh on every request.
 */
export function createOwners(strapi: Core.Strapi, { now = Date.now, trusted = () => true }: OwnersOptions = {}) {
  const abilities = roleAbilities(strapi, now, trusted);
  const kept = new Map<number, { owner: Promise<Owner | null>; until: number }>();
  const users = () => strapi.plugin('users-permissions').service('user') as UsersService;

  const load = async (userId: number): Promise<Owner | null> => {
    const user = await users().fetchAuthenticatedUser(userId);
    if (!user) return null;
    return { user, ability: await abilities.ofRole(user.role?.id) };
  };

  return {
    publicAbility: () => abilities.publicAbility(),
    /** The owner `userId` and their role's ability; null when the user is gone. */
    async of(userId: number): Promise<Owner | null> {
      const at = now();
      let hit = kept.get(userId);
      if (!hit || hit.until <= at || !trusted()) {
        if (kept.size > 10_000) kept.clear();
        hit = { owner: load(userId), until: at + OWNER_KEPT_MS };
        kept.set(userId, hit);
        const mine = hit;
        mine.owner.catch(() => {
          if (kept.get(userId) === mine) kept.delete(userId);
        });
      }
      const owner = await hit.owner;
      // A copy per request: what a request's handlers do to ctx.state.user stays theirs.
      return owner && { user: { ...owner.user }, ability: owner.ability };
    },
    /** A user, role or permission changed here: read them again. */
    forget(): void {
      kept.clear();
      abilities.forget();
    },
  };
}

export type Owners = ReturnType<typeof createOwners>;

const perStrapi = new WeakMap<Core.Strapi, Owners>();

/** This app's owners cache (one per Strapi instance). */
export function ownersOf(strapi: Core.Strapi): Owners {
  let owners = perStrapi.get(strapi);
  if (!owners) perStrapi.set(strapi, (owners = createOwners(strapi, { trusted: () => getService(strapi, 'keys').cacheTrusted() })));
  return owners;
}
