import { editable, internal } from '../../plugin-options';

/**
 * Plans, API keys and usage records. Keys keep only the SHA-256 of the secret and its first
 * eight characters, and a plan only when an administrator issued them on one (otherwise they
 * follow their owner's). Usage records are written in batches straight through knex, so they
 * carry the key's and the consumer's ids as plain columns rather than relations.
 */
export default {
  plan: {
    schema: {
      kind: 'collectionType',
      collectionName: 'api_suite_plans',
      info: {
        singularName: 'plan',
        pluralName: 'plans',
        // "Plan", not "API plan": the Content Manager lists types by name and opens on the first, which
        // should be the site's own content (Article), not one of the plugin's records.
        displayName: 'Plan',
        description: 'Quotas and reachable endpoints sold with API keys',
      },
      options: { draftAndPublish: false },
      pluginOptions: editable('access'),
      attributes: {
        name: { type: 'string', required: true, unique: true, maxLength: 100 },
        requests_per_month: { type: 'integer', required: true, min: -1 },
        requests_per_minute: { type: 'integer', required: true, min: 1 },
        endpoints: { type: 'json', required: true },
        price_monthly: { type: 'decimal', required: true, min: 0 },
        is_default: { type: 'boolean', default: false },
        /** Lowercase ISO 4217; empty: the shop currency (STRIPE_CURRENCY). */
        currency: { type: 'string', maxLength: 3, regex: '^[a-z]{3}$' },
        /** Minor units per 1,000 requests over the monthly quota; empty: a hard limit (429). */
        overage_unit_amount: { type: 'integer', min: 0 },
        /** A yearly price for the same plan, in the same unit as the monthly one; empty: sold monthly only. */
        price_yearly: { type: 'decimal', min: 0 },
        /** Free days before the first payment, on a consumer's first purchase only (0: none). */
        trial_days: { type: 'integer', min: 0, max: 90, default: 0 },
        // Filled by the billing feature when it provisions the plan in Stripe; read-only for editors.
        stripe_product_id: { type: 'string', configurable: false },
        stripe_price_id: { type: 'string', configurable: false },
        stripe_metered_price_id: { type: 'string', configurable: false },
        stripe_yearly_price_id: { type: 'string', configurable: false },
      },
    },
  },
  'api-key': {
    schema: {
      kind: 'collectionType',
      collectionName: 'api_suite_api_keys',
      info: {
        singularName: 'api-key',
        pluralName: 'api-keys',
        displayName: 'API key',
        description: 'Keys are shown once at creation; only their hash is stored',
      },
      options: { draftAndPublish: false },
      // Not in the Content Manager: the hash, prefix and client id are the plugin's alone, so keys are
      // issued, limited and revoked on the API access page, which lists them.
      pluginOptions: internal('access'),
      attributes: {
        name: { type: 'string', maxLength: 100 },
        key_prefix: { type: 'string', required: true, maxLength: 8, configurable: false },
        key_hash: { type: 'string', required: true, unique: true, private: true, configurable: false },
        client_id: { type: 'string', required: true, unique: true, configurable: false },
        scopes: { type: 'json', required: true },
        status: { type: 'enumeration', enum: ['active', 'revoked', 'expired'], default: 'active', required: true },
        expires_at: { type: 'datetime' },
        revoked_at: { type: 'datetime' },
        user: { type: 'relation', relation: 'manyToOne', target: 'plugin::users-permissions.user' },
        plan: { type: 'relation', relation: 'manyToOne', target: 'plugin::api-suite.plan' },
        /** This key's own limits, set by administrators; empty: the plan's. */
        requests_per_minute: { type: 'integer', min: 1 },
        requests_per_month: { type: 'integer', min: -1 },
        /** The id of the key that replaced this one by a reroll (this one expires after its grace period). */
        replaced_by: { type: 'integer', configurable: false },
        /**
         * The key whose own quota pool this one counts in: the first key of its reroll chain, so a
         * reroll carries on the minute and month already used; empty: its own (quota/pools.ts).
         */
        pool_key_id: { type: 'integer', configurable: false, private: true },
      },
      indexes: [
        { name: 'api_suite_api_keys_prefix', columns: ['key_prefix'] },
        { name: 'api_suite_api_keys_hash_unique', columns: ['key_hash'], type: 'unique' },
        { name: 'api_suite_api_keys_client_unique', columns: ['client_id'], type: 'unique' },
      ],
    },
  },
  'usage-record': {
    schema: {
      kind: 'collectionType',
      collectionName: 'api_suite_usage_records',
      info: {
        singularName: 'usage-record',
        pluralName: 'usage-records',
        displayName: 'API usage record',
        description: 'One row per request counted for a consumer',
      },
      options: { draftAndPublish: false },
      pluginOptions: internal('access'),
      attributes: {
        /** Empty for a request made with the consumer's own JWT. */
        api_key_id: { type: 'integer' },
        /** The consumer (a key's owner); cleared when their account is deleted, the record kept for accounting. */
        user_id: { type: 'integer' },
        /** The consumer's opaque id, written when their account is deleted and `user_id` cleared. */
        consumer_id: { type: 'string' },
        endpoint: { type: 'string', required: true },
        method: { type: 'string', required: true, maxLength: 10 },
        status_code: { type: 'integer', required: true },
        response_ms: { type: 'integer', required: true },
        /** Served beyond the plan's monthly quota, to be billed as overage. */
        overage: { type: 'boolean', default: false },
      },
      indexes: [
        { name: 'api_suite_usage_key_created', columns: ['api_key_id', 'created_at'] },
        { name: 'api_suite_usage_user_created', columns: ['user_id', 'created_at'] },
        // Billing's reporter counts a consumer's overage records after the last one reported: a range, not a scan.
        { name: 'api_suite_usage_user_overage', columns: ['user_id', 'overage', 'id'] },
      ],
    },
  },
};
