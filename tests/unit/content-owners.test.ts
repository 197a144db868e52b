import type { Core } from '@strapi/strapi';
import { createOwners, OWNER_KEPT_MS } from '../../src/plugins/api-suite/server/src/features/access/content-api/owners';

/**
 * The content API's key path keeps a key's owner and their role's ability together (no users
 * query per request) until an edit clears them, or at most OWNER_KEPT_MS; on an injected clock.
 */
function fakeStrapi() {
  const reads = { users: 0, roles: 0 };
  const users = new Map<number, { id: number; role: { id: number } | null }>([[7, { id: 7, role: { id: 2 } }]]);
  const permissions = new Map<number, string[]>([[2, ['api::page.page.find']]]);
  const strapi = {
    plugin: () => ({
      service: (name: string) =>
        name === 'user'
          ? {
              fetchAuthenticatedUser: async (id: number) => {
                reads.users += 1;
                const user = users.get(id);
                return user ? { ...user } : null;
              },
            }
          : {
              findRolePermissions: async (roleId: number) => {
                reads.roles += 1;
                return (permissions.get(roleId) ?? []).map((action) => ({ action }));
              },
              findPublicPermissions: async () => [],
            },
    }),
    contentAPI: {
      permissions: {
        engine: {
          generateAbility: async (list: Array<{ action: string }>) => ({
            can: (action: string) => list.some((entry) => entry.action === action),
          }),
        },
      },
    },
  } as unknown as Core.Strapi;
  return { strapi, reads, users, permissions };
}

it('reads an owner and their role once, again after an edit clears them, and at most OWNER_KEPT_MS later', async () => {
  let now = 1_000_000;
  const { strapi, reads, users, permissions } = fakeStrapi();
  const owners = createOwners(strapi, { now: () => now });

  const first = await owners.of(7);
  expect(first?.ability.can('api::page.page.find')).toBe(true);
  await owners.of(7);
  await owners.of(7);
  expect(reads).toEqual({ users: 1, roles: 1 });

  // The role loses the permission: an edit clears the cache (here, or by a message from another instance).
  permissions.set(2, []);
  owners.forget();
  expect((await owners.of(7))?.ability.can('api::page.page.find')).toBe(false);
  expect(reads).toEqual({ users: 2, roles: 2 });

  // A missed message is bounded: what is kept is read again once OWNER_KEPT_MS is over.
  permissions.set(2, ['api::page.page.find']);
  now += OWNER_KEPT_MS - 1;
  expect((await owners.of(7))?.ability.can('api::page.page.find')).toBe(false);
  now += 1;
  expect((await owners.of(7))?.ability.can('api::page.page.find')).toBe(true);

  // A deleted user's key finds no owner.
  users.delete(7);
  owners.forget();
  expect(await owners.of(7)).toBeNull();
});

it('reads afresh on every request while the instance cannot hear invalidations', async () => {
  let trusted = false;
  const { strapi, reads } = fakeStrapi();
  const owners = createOwners(strapi, { now: () => 0, trusted: () => trusted });
  await owners.of(7);
  await owners.of(7);
  expect(reads).toEqual({ users: 2, roles: 2 });
  // Heard again: what was last read is kept.
  trusted = true;
  await owners.of(7);
  await owners.of(7);
  expect(reads).toEqual({ users: 2, roles: 2 });
});

it("gives each request its own copy of the owner: one request's changes to it are not the next one's", async () => {
  const { strapi } = fakeStrapi();
  const owners = createOwners(strapi, { now: () => 0 });
  const one = await owners.of(7);
  (one?.user as Record<string, unknown>).scratch = 'mine';
  expect((await owners.of(7))?.user).not.toHaveProperty('scratch');
});
