import { editable, internal } from '../../plugin-options';

/**
 * Webhook subscriptions, the event types they may name and the topic index publishing matches on
 * (docs/webhooks.md); deliveries and attempts are the engine's own tables (`tables.ts`). Every
 * record is addressed by a UUID of its own (`uuid`), which is what the API calls `id`. The engine
 * reads and writes these tables straight through knex in batches, so references between them are
 * plain columns rather than relations, with an index for every query the engine makes.
 */
export default {
  'webhook-subscription': {
    schema: {
      kind: 'collectionType',
      collectionName: 'api_suite_webhook_subscriptions',
      info: {
        singularName: 'webhook-subscription',
        pluralName: 'webhook-subscriptions',
        displayName: 'Webhook subscription',
        description: 'An endpoint that receives signed events; the secret is stored encrypted',
      },
      options: { draftAndPublish: false },
      pluginOptions: editable('webhooks'),
      attributes: {
        uuid: { type: 'string', unique: true, configurable: false },
        consumer_id: { type: 'string', required: true, configurable: false },
        endpoint_url: { type: 'string', required: true, maxLength: 2048 },
        description: { type: 'text', default: '' },
        events: { type: 'json', required: true },
        is_active: { type: 'boolean', default: true },
        headers: { type: 'json' },
        timeout_seconds: { type: 'integer', default: 10, min: 1, max: 30 },
        // Deliveries per second at most; empty = as fast as the endpoint answers.
        rate_limit: { type: 'integer', min: 1, max: 1000 },
        // A payload filter in Strapi's filter syntax (docs/webhooks.md#payload-filters); empty = every event of its types.
        filter: { type: 'json' },
        last_delivery_at: { type: 'datetime' },
        failure_count: { type: 'integer', default: 0, min: 0 },
        disabled_at: { type: 'datetime' },
        // AES-256-GCM sealed ("v1:iv:tag:ciphertext"); never sent by any API.
        secret: { type: 'text', private: true, configurable: false },
        secret_old: { type: 'text', private: true, configurable: false },
        secret_rotated_at: { type: 'datetime' },
      },
      indexes: [
        { name: 'api_suite_webhook_subscriptions_uuid', columns: ['uuid'], type: 'unique' },
        { name: 'api_suite_webhook_subscriptions_consumer', columns: ['consumer_id', 'id'] },
      ],
    },
  },
  // One row per (subscription, event name): publishing finds the subscribers of a type through
  // this index instead of reading every subscription's `events` JSON.
  'webhook-topic': {
    schema: {
      kind: 'collectionType',
      collectionName: 'api_suite_webhook_topics',
      info: { singularName: 'webhook-topic', pluralName: 'webhook-topics', displayName: 'Webhook topic' },
      options: { draftAndPublish: false },
      pluginOptions: internal('webhooks'),
      attributes: {
        subscription_id: { type: 'integer', required: true },
        event_type: { type: 'string', required: true },
      },
      indexes: [
        { name: 'api_suite_webhook_topics_type', columns: ['event_type', 'subscription_id'] },
        { name: 'api_suite_webhook_topics_subscription', columns: ['subscription_id'] },
      ],
    },
  },
  'webhook-event-type': {
    schema: {
      kind: 'collectionType',
      collectionName: 'api_suite_webhook_event_types',
      info: {
        singularName: 'webhook-event-type',
        pluralName: 'webhook-event-types',
        displayName: 'Webhook event type',
        description: 'Only active event types can be subscribed to',
      },
      options: { draftAndPublish: false },
      pluginOptions: editable('webhooks'),
      attributes: {
        name: { type: 'string', required: true, unique: true, regex: '^[a-z][a-z0-9_]*(\\.[a-z][a-z0-9_]*)+$' },
        description: { type: 'text' },
        example_payload: { type: 'json' },
        is_active: { type: 'boolean', default: true },
      },
    },
  },
};
