import type { Core } from '@strapi/strapi';
import { UIDS } from '../../../constants';
import { registerDatabaseModels, type DatabaseModel } from '../../../db';

/**
 * The delivery engine's own tables: a delivery (one event for one subscription, across its
 * attempts) and each attempt. They are database models of the plugin, not content types: no
 * document id, locale, publication date, author columns or their indexes and foreign keys, which
 * every write of a content type pays for and which the engine never reads. Strapi creates them
 * and keeps them in step with these declarations at boot, as it does its own tables.
 *
 * Upgrading from the release that kept them as content types: the table names are the same, so
 * Strapi's schema sync keeps every row and only drops the columns, indexes and foreign keys
 * these declarations no longer have (tests/api/webhooks/upgrade.test.ts boots on such a
 * database).
 *
 * Each index serves one query of the engine:
 * - `uuid` (unique): a delivery by its id (API, retry, the worker's due check, batched updates);
 * - `subscription_id, id`: a subscription's deliveries, newest first (API, admin);
 * - `subscription_id, status, id`: the same filtered by status, and cancelling a subscription's pending work;
 * - `status, next_attempt_at`: pending work overdue or left at boot (recovery, the sweep);
 * - attempts `delivery_uuid, attempt`: a delivery's attempts in order.
 */

export const deliveryTables: DatabaseModel[] = [
  {
    uid: UIDS.webhookDelivery,
    singularName: 'webhook-delivery',
    tableName: 'api_suite_webhook_deliveries',
    attributes: {
      id: { type: 'increments' },
      uuid: { type: 'string' },
      subscription_id: { type: 'integer' },
      event_id: { type: 'string' },
      event_type: { type: 'string' },
      payload: { type: 'json' },
      status: { type: 'string' },
      attempts: { type: 'integer' },
      next_attempt_at: { type: 'datetime' },
      response_status: { type: 'integer' },
      delivered_at: { type: 'datetime' },
      created_at: { type: 'datetime' },
      updated_at: { type: 'datetime' },
    },
    indexes: [
      { name: 'api_suite_webhook_deliveries_uuid', columns: ['uuid'], type: 'unique' },
      { name: 'api_suite_webhook_deliveries_subscription', columns: ['subscription_id', 'id'] },
      { name: 'api_suite_webhook_deliveries_subscription_status', columns: ['subscription_id', 'status', 'id'] },
      { name: 'api_suite_webhook_deliveries_due', columns: ['status', 'next_attempt_at'] },
    ],
  },
  {
    uid: UIDS.webhookAttempt,
    singularName: 'webhook-attempt',
    tableName: 'api_suite_webhook_attempts',
    attributes: {
      id: { type: 'increments' },
      delivery_uuid: { type: 'string' },
      attempt: { type: 'integer' },
      at: { type: 'datetime' },
      status_code: { type: 'integer' },
      duration_ms: { type: 'integer' },
      error: { type: 'text' },
      response_body: { type: 'text' },
      created_at: { type: 'datetime' },
      updated_at: { type: 'datetime' },
    },
    indexes: [{ name: 'api_suite_webhook_attempts_delivery', columns: ['delivery_uuid', 'attempt'] }],
  },
];

/** Declare the tables to Strapi's database layer (in register: it creates and syncs them before any bootstrap). */
export function registerDeliveryTables(strapi: Core.Strapi): void {
  registerDatabaseModels(strapi, deliveryTables);
}
