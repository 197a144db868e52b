import type { Core } from '@strapi/strapi';
import { UIDS } from '../../../constants';
import { registerDatabaseModels, type DatabaseModel } from '../../../db';

/**
 * The purge's own record, one row (`name` = `retention`): when the last purge started and finished,
 * which says at boot whether one is due, and, without Redis, the lease that lets one instance purge
 * at a time (`holder`, `lease_until`). A plugin database model: nobody edits it by hand.
 */
export const retentionTables: DatabaseModel[] = [
  {
    uid: UIDS.retentionState,
    singularName: 'retention-state',
    tableName: 'api_suite_retention_state',
    attributes: {
      id: { type: 'increments' },
      name: { type: 'string' },
      holder: { type: 'string' },
      lease_until: { type: 'datetime' },
      last_started_at: { type: 'datetime' },
      last_finished_at: { type: 'datetime' },
    },
    indexes: [{ name: 'api_suite_retention_state_name', columns: ['name'], type: 'unique' }],
  },
];

export function registerRetentionTables(strapi: Core.Strapi): void {
  registerDatabaseModels(strapi, retentionTables);
}
