import type { Core } from '@strapi/strapi';
import { UIDS } from '../../../constants';
import { registerDatabaseModels, type DatabaseModel } from '../../../db';
import { usageRollupTable } from '../usage-rollups';

/**
 * The plans administrators grant to consumers: one row per consumer at most. A plugin table, not
 * a content type and not a column of the users-permissions user, so no Content Manager form (the
 * user's included) can hand a consumer a plan: only `PATCH /api/v1/consumers/{userId}` and the
 * admin panel's API access page, which check their own permissions. Beside it, the daily rollups
 * of usage records that the retention purge writes (../usage-rollups.ts).
 */
export const accessTables: DatabaseModel[] = [
  {
    uid: UIDS.consumerPlan,
    singularName: 'consumer-plan',
    tableName: 'api_suite_consumer_plans',
    attributes: {
      id: { type: 'increments' },
      user_id: { type: 'integer' },
      plan_id: { type: 'integer' },
      created_at: { type: 'datetime' },
      updated_at: { type: 'datetime' },
    },
    indexes: [{ name: 'api_suite_consumer_plans_user', columns: ['user_id'], type: 'unique' }],
  },
  /**
   * Quota alerts sent (docs/billing.md#quota-alerts): one row per pool, month, threshold and quota.
   * The unique index is the claim that makes an alert go out once across every instance.
   */
  {
    uid: UIDS.quotaAlert,
    singularName: 'quota-alert',
    tableName: 'api_suite_quota_alerts',
    attributes: {
      id: { type: 'increments' },
      pool: { type: 'string' },
      /** YYYYMM (UTC), as the quota counters name their month. */
      period: { type: 'string' },
      percent: { type: 'integer' },
      quota: { type: 'integer' },
      used: { type: 'integer' },
      user_id: { type: 'integer' },
      plan_id: { type: 'integer' },
      created_at: { type: 'datetime' },
    },
    indexes: [{ name: 'api_suite_quota_alerts_claim', columns: ['pool', 'period', 'percent', 'quota'], type: 'unique' }],
  },
  usageRollupTable,
];

/** Declare the tables to Strapi's database layer (in register: it creates and syncs them before any bootstrap). */
export function registerAccessTables(strapi: Core.Strapi): void {
  registerDatabaseModels(strapi, accessTables);
}
