import type { Core } from '@strapi/strapi';
import type { Context } from 'koa';
import { ADMINISTRATOR_ROLE, UIDS } from '../../../constants';
import type { Knex } from '../../../db';
import { getConfig } from '../../../utils';
import type { RoleLink } from './consumers';

/**
 * The site's two audiences (docs/content-api.md#drafts): staff, who may see drafts and receive
 * the events about them, and everyone else, who see what the published content API shows.
 *
 * Staff are Strapi's API tokens (the site's own credentials), members of the plugin's
 * `administrator` role, and members of the users-permissions roles the site names in
 * `content.draftReaders` (a preview frontend). A consumer's API key or OAuth token is its owner:
 * staff only when the owner is.
 */

/** How long the staff roles are kept: a role named or renamed reaches every instance within this. */
const ROLES_TTL_MS = 1_000;
const STAFF_REQUEST = Symbol('api-suite.staff-request');
/** Strapi's admin-issued API tokens (`content-api-token` since 5.54, `api-token` before). */
const TOKEN_STRATEGIES = new Set(['content-api-token', 'api-token']);

const staffService = ({ strapi }: { strapi: Core.Strapi }) => {
  let roles: { ids: number[]; until: number } | undefined;

  /**
   * Reads go through the caller's transaction when there is one. A document-service call may run
   * inside one (the content changes open it around the change, for the outbox), and on SQLite that
   * transaction holds the only connection: a read beside it would wait for it for ever.
   */
  const read = async <T>(query: (knex: Knex) => PromiseLike<T>): Promise<T> =>
    strapi.db.inTransaction()
      ? ((await strapi.db.transaction(async ({ trx }) => await query(trx as unknown as Knex))) as T)
      : await query(strapi.db.connection as unknown as Knex);

  const link = () => {
    const users = strapi.db.metadata.get(UIDS.user);
    const join = (users.attributes.role as unknown as { joinTable: RoleLink }).joinTable;
    return { users: users.tableName, name: join.name, user: join.joinColumn.name, role: join.inverseJoinColumn.name };
  };

  const service = {
    /** The ids of the roles whose members are staff. */
    async staffRoleIds(): Promise<number[]> {
      if (roles && roles.until > Date.now()) return roles.ids;
      const named = new Set(getConfig(strapi).content.draftReaders.map((name) => name.toLowerCase()));
      const table = strapi.db.metadata.get(UIDS.role).tableName;
      const rows = (await read((knex) => knex(table).select('id', 'type', 'name'))) as Array<{
        id: number;
        type: string | null;
        name: string | null;
      }>;
      const ids = rows
        .filter(
          (row) =>
            row.type === ADMINISTRATOR_ROLE.type ||
            named.has(String(row.type ?? '').toLowerCase()) ||
            named.has(String(row.name ?? '').toLowerCase())
        )
        .map((row) => Number(row.id));
      roles = { ids, until: Date.now() + ROLES_TTL_MS };
      return ids;
    },

    /** Whether a users-permissions user is staff (their role is the administrator role or a draft reader's). */
    async isStaffUser(userId: number): Promise<boolean> {
      const ids = await service.staffRoleIds();
      if (ids.length === 0) return false;
      const { name, user, role } = link();
      const row = (await read((knex) => knex(name).where(user, userId).whereIn(role, ids).first(role))) as unknown;
      return row !== undefined;
    },

    /** Whether the user behind a consumer id is staff (a subscription's owner). */
    async isStaffConsumer(consumerId: string): Promise<boolean> {
      const ids = await service.staffRoleIds();
      if (ids.length === 0) return false;
      const { users, name, user, role } = link();
      const row = (await read((knex) =>
        knex(`${users} as u`)
          .join(`${name} as l`, `l.${user}`, 'u.id')
          .where('u.consumer_id', consumerId)
          .whereIn(`l.${role}`, ids)
          .first('u.id')
      )) as unknown;
      return row !== undefined;
    },

    /** The consumer ids of every staff user: the audience of events about drafts. */
    async staffConsumerIds(): Promise<string[]> {
      const ids = await service.staffRoleIds();
      if (ids.length === 0) return [];
      const { users, name, user, role } = link();
      const rows = (await read((knex) =>
        knex(`${users} as u`)
          .join(`${name} as l`, `l.${user}`, 'u.id')
          .whereIn(`l.${role}`, ids)
          .whereNotNull('u.consumer_id')
          .select('u.consumer_id as consumer_id')
      )) as Array<{ consumer_id: string }>;
      return [...new Set(rows.map((row) => row.consumer_id))].sort();
    },

    /**
     * Whether the caller of a content-API request is staff, decided once per request however many
     * document-service calls answering it make. Anonymous callers are not.
     */
    isStaffRequest(ctx: Context): Promise<boolean> {
      const state = ctx.state as Record<symbol, Promise<boolean> | undefined>;
      state[STAFF_REQUEST] ??= decide(ctx);
      return state[STAFF_REQUEST];
    },
  };

  const decide = async (ctx: Context): Promise<boolean> => {
    const auth = ctx.state.auth as { strategy?: { name?: string }; credentials?: unknown } | undefined;
    if (!auth?.credentials) return false;
    if (TOKEN_STRATEGIES.has(auth.strategy?.name ?? '')) return true;
    const user = (ctx.state.user ?? auth.credentials) as { id?: unknown } | undefined;
    return typeof user?.id === 'number' ? service.isStaffUser(user.id) : false;
  };

  return service;
};

export type StaffService = ReturnType<typeof staffService>;
export default staffService;
