import type { Consumer } from '../../../contract/common';
import { randomUUID } from 'node:crypto';
import type { Core } from '@strapi/strapi';
import { ADMINISTRATOR_ROLE, UIDS } from '../../../constants';
import { toBool } from '../../../db';

/** A consumer as lists show it: the admin response schema's type. */
export type ConsumerSummary = Consumer;

function summary(row: ConsumerSummary): ConsumerSummary {
  return { id: row.id, username: row.username, email: row.email, consumer_id: row.consumer_id };
}

/**
 * Who is calling, in the API's terms: every users-permissions user is a consumer with a
 * stable `consumer_id` UUID, and members of the `administrator` role are administrators.
 */
const consumersService = ({ strapi }: { strapi: Core.Strapi }) => ({
  /** Create the administrator role when it does not exist. An editor assigns it in the admin panel. */
  async ensureAdministratorRole(): Promise<void> {
    const existing = await strapi.db.query(UIDS.role).findOne({ where: { type: ADMINISTRATOR_ROLE.type } });
    if (existing) return;
    // users-permissions creates Public and Authenticated at its own bootstrap only when the role
    // table is empty. On a new site where this plugin boots first (listed before it in
    // config/plugins), the administrator role would make the table non-empty and they would never
    // be created: let users-permissions make its roles first, as it would (a no-op when they exist).
    if ((await strapi.db.query(UIDS.role).count()) === 0) {
      const usersPermissions = strapi.plugin('users-permissions')?.service('users-permissions') as
        { initialize?: () => Promise<unknown> } | undefined;
      if (usersPermissions?.initialize) await usersPermissions.initialize();
    }
    await strapi.db.query(UIDS.role).create({ data: { ...ADMINISTRATOR_ROLE } });
    strapi.log.info('[api-suite] created the users-permissions role "administrator"');
  },

  /** Users created before the plugin was installed get their consumer_id now. */
  async backfillConsumerIds(): Promise<number> {
    const knex = strapi.db.connection;
    const table = strapi.db.metadata.get(UIDS.user).tableName;
    const missing: Array<{ id: number }> = await knex(table).select('id').whereNull('consumer_id');
    for (const { id } of missing) {
      await knex(table).where({ id }).whereNull('consumer_id').update({ consumer_id: randomUUID() });
    }
    return missing.length;
  },

  /** The users behind these consumer ids, for lists that show who owns what. */
  async describe(consumerIds: string[]): Promise<Map<string, ConsumerSummary>> {
    const ids = [...new Set(consumerIds.filter(Boolean))];
    if (ids.length === 0) return new Map();
    const rows = (await strapi.db
      .query(UIDS.user)
      .findMany({ where: { consumer_id: { $in: ids } }, select: ['id', 'username', 'email', 'consumer_id'] })) as ConsumerSummary[];
    return new Map(rows.map((row) => [row.consumer_id, summary(row)]));
  },

  /** The same, by user id. */
  async describeUsers(userIds: number[]): Promise<Map<number, ConsumerSummary>> {
    const ids = [...new Set(userIds)];
    if (ids.length === 0) return new Map();
    const rows = (await strapi.db
      .query(UIDS.user)
      .findMany({ where: { id: { $in: ids } }, select: ['id', 'username', 'email', 'consumer_id'] })) as ConsumerSummary[];
    return new Map(rows.map((row) => [row.id, summary(row)]));
  },

  /** Users whose username or e-mail contains `search` (all when empty), for pickers in the admin panel. */
  async search(search: string, page: number, limit: number): Promise<{ data: ConsumerSummary[]; total: number }> {
    const term = search.trim();
    const where = term === '' ? {} : { $or: [{ username: { $containsi: term } }, { email: { $containsi: term } }] };
    const [rows, total] = await Promise.all([
      strapi.db.query(UIDS.user).findMany({
        where,
        select: ['id', 'username', 'email', 'consumer_id'],
        orderBy: [{ username: 'asc' }, { id: 'asc' }],
        offset: (page - 1) * limit,
        limit,
      }),
      strapi.db.query(UIDS.user).count({ where }),
    ]);
    return { data: (rows as ConsumerSummary[]).map(summary), total };
  },

  async isAdministrator(userId: number): Promise<boolean> {
    return (await this.find(userId))?.isAdmin ?? false;
  },

  /**
   * A user as the access checks need them, in one query (users joined to their role through
   * Strapi's link table) rather than the query engine's two: this runs on every request made
   * with a users-permissions JWT.
   */
  async find(userId: number): Promise<ConsumerRecord | null> {
    const users = strapi.db.metadata.get(UIDS.user);
    const link = (users.attributes.role as unknown as { joinTable: RoleLink }).joinTable;
    const roles = strapi.db.metadata.get(UIDS.role).tableName;
    const row = (await strapi.db
      .connection(`${users.tableName} as u`)
      .leftJoin(`${link.name} as l`, `l.${link.joinColumn.name}`, 'u.id')
      .leftJoin(`${roles} as r`, 'r.id', `l.${link.inverseJoinColumn.name}`)
      .where('u.id', userId)
      .first('u.id as id', 'u.consumer_id as consumer_id', 'u.blocked as blocked', 'r.type as role_type')) as
      { id: number; consumer_id: string | null; blocked: unknown; role_type: string | null } | undefined;
    if (!row) return null;
    return {
      id: row.id,
      consumerId: row.consumer_id ?? null,
      blocked: toBool(row.blocked),
      isAdmin: row.role_type === ADMINISTRATOR_ROLE.type,
    };
  },
});

export interface ConsumerRecord {
  id: number;
  consumerId: string | null;
  blocked: boolean;
  isAdmin: boolean;
}

/** Strapi's link table between users and their role, as its metadata names it. */
export interface RoleLink {
  name: string;
  joinColumn: { name: string };
  inverseJoinColumn: { name: string };
}

export type ConsumersService = ReturnType<typeof consumersService>;
export default consumersService;
