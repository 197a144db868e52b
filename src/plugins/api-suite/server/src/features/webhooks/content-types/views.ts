import type { ContentManagerView } from '../../types';

/**
 * Subscriptions and event types in the Content Manager. Deliveries, their attempts and the
 * topic index are the engine's and are not shown there (a subscription's page under
 * API Suite → Webhooks shows its deliveries and attempts).
 */
export default {
  'webhook-subscription': {
    mainField: 'endpoint_url',
    sort: { by: 'createdAt', order: 'DESC' },
    list: ['endpoint_url', 'consumer_id', 'is_active', 'failure_count', 'last_delivery_at'],
    edit: [
      ['endpoint_url', 'consumer_id'],
      ['description'],
      ['is_active', 'timeout_seconds'],
      ['rate_limit'],
      ['events'],
      ['headers'],
      ['failure_count', 'last_delivery_at'],
      ['disabled_at', 'secret_rotated_at'],
    ],
    labels: {
      endpoint_url: 'Endpoint URL',
      consumer_id: 'Consumer',
      description: 'Description',
      is_active: 'Active',
      timeout_seconds: 'Timeout (seconds)',
      rate_limit: 'Rate limit (deliveries per second)',
      events: 'Events',
      headers: 'Extra headers',
      failure_count: 'Failures in a row',
      last_delivery_at: 'Last delivery',
      disabled_at: 'Disabled',
      secret_rotated_at: 'Secret rotated',
    },
    descriptions: {
      consumer_id: 'The owner: "user:<id>" for a user, "key:<id>" for a key without one',
      events: 'Event type names, or "*" for every type',
      failure_count: 'After 100 failures in a row the subscription is switched off',
    },
    readOnlyFields: ['failure_count', 'last_delivery_at', 'disabled_at', 'secret_rotated_at'],
  },
  'webhook-event-type': {
    mainField: 'name',
    sort: { by: 'name', order: 'ASC' },
    list: ['name', 'description', 'is_active'],
    edit: [['name', 'is_active'], ['description'], ['example_payload']],
    labels: { name: 'Name', description: 'Description', is_active: 'Can be subscribed to', example_payload: 'Example payload' },
  },
} satisfies Record<string, ContentManagerView>;
