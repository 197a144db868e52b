import { randomUUID } from 'node:crypto';
import type { Core } from '@strapi/strapi';
import { ADMINISTRATOR_ROLE, UIDS } from '../../../constants';

/**
 * Who is calling, in the contract's terms: every users-permissions user is a consumer with a
 * stable `consumer_id` UUID, and members of the `administrator` role are administrators.
 */
const consumersService = ({ strapi }: { strapi: Core.Strapi }) => ({
  /** Create the administrator role when it does not exist. An editor assigns it in the admin panel. */
  async ensureAdministratorRole(): Promise<void> {
    const existing = await strapi.db.query(UIDS.role).findOne({ where: { type: ADMINISTRATOR_ROLE.type } });
    if (existing) return;
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

  async isAdministrator(userId: number): Promise<boolean> {
    const user = await strapi.db.query(UIDS.user).findOne({ where: { id: userId }, select: ['id'], populate: { role: { select: ['type'] } } });
    return user?.role?.type === ADMINISTRATOR_ROLE.type;
  },
});

export type ConsumersService = ReturnType<typeof consumersService>;
export default consumersService;
