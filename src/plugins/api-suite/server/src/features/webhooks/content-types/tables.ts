import type { Core } from '@strapi/strapi';
import { UIDS } from '../../../constants';
import { dialectOf, registerDatabaseModels, type DatabaseModel } from '../../../db';

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
 * - attempts `delivery_uuid, attempt`: a delivery's attempts in order;
 * - `id` of pending and retrying deliveries only (a partial index, created by `ensurePendingIndex`
 *   since Strapi's declarations have no WHERE): work left at boot or overdue (recovery, the
 *   sweep). It holds only the deliveries still to be sent, so settling one removes it rather than
 *   adding an entry, and it stays as small as the backlog however many deliveries are kept. It
 *   replaces the earlier `status, next_attempt_at` index, which Strapi drops on upgrade.
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
      /** The publish's W3C traceparent, while tracing is on (docs/operations.md#traces). */
      trace_context: { type: 'string' },
    },
    indexes: [
      { name: 'api_suite_webhook_deliveries_uuid', columns: ['uuid'], type: 'unique' },
      { name: 'api_suite_webhook_deliveries_subscription', columns: ['subscription_id', 'id'] },
      { name: 'api_suite_webhook_deliveries_subscription_status', columns: ['subscription_id', 'status', 'id'] },
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

/** The condition of work still to be sent, written as the partial index's predicate so the planners match the two. */
export const UNSENT_CONDITION = "status IN ('pending', 'retrying')";
const PENDING_INDEX = 'api_suite_webhook_deliveries_pending';

/** Create the partial index of unsent deliveries if it is missing (bootstrap: after Strapi has synced the tables). */
export async function ensurePendingIndex(strapi: Core.Strapi): Promise<void> {
  const table = deliveryTables[0].tableName;
  const client = dialectOf(strapi);
  if (client === 'postgres' || client === 'sqlite') {
    await strapi.db.connection.raw(`CREATE INDEX IF NOT EXISTS "${PENDING_INDEX}" ON "${table}" ("id") WHERE ${UNSENT_CONDITION}`);
    return;
  }
  // MySQL and MariaDB have no partial indexes: status and id, created once.
  await strapi.db.connection
    .raw(`CREATE INDEX \`${PENDING_INDEX}\` ON \`${table}\` (\`status\`, \`id\`)`)
    .catch((error: { code?: string }) => {
      if (error.code !== 'ER_DUP_KEYNAME') throw error;
    });
}
