import { editable, internal } from '../../plugin-options';

/**
 * Orders and the Stripe events already applied to them (docs/commerce.md). An order is
 * addressed by its own UUID (`uuid`), which is what the API, the Stripe metadata and the order
 * events call its id: sequential numbers would tell every buyer how many orders the shop takes.
 * Checkout and the Stripe webhook write orders straight through knex inside their transactions;
 * editors change an order's status in the admin panel, which publishes `order.updated` too.
 */

export const ORDER_STATUSES = ['pending', 'paid', 'shipped', 'delivered', 'cancelled'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

export default {
  order: {
    schema: {
      kind: 'collectionType',
      collectionName: 'api_suite_orders',
      info: {
        singularName: 'order',
        pluralName: 'orders',
        displayName: 'Order',
        description: 'An order placed through checkout: items with the price and name they had then, total, status and payment',
      },
      options: { draftAndPublish: false },
      pluginOptions: editable('sales'),
      attributes: {
        uuid: { type: 'string', unique: true, configurable: false, writable: false },
        user: { type: 'relation', relation: 'manyToOne', target: 'plugin::users-permissions.user' },
        /** The buyer's opaque id, written when their account is deleted: the order stays for accounting without the person. */
        consumer_id: { type: 'string', configurable: false, writable: false },
        // [{ product_id, quantity, price, name }]: price and name as they were at checkout.
        items: { type: 'json', required: true },
        total: { type: 'decimal', required: true, min: 0 },
        currency: { type: 'string', maxLength: 3 },
        shipping_address: { type: 'json' },
        payment_method: { type: 'string', maxLength: 50 },
        status: { type: 'enumeration', enum: [...ORDER_STATUSES], default: 'pending', required: true },
        date_created: { type: 'datetime' },
        payment_id: { type: 'string' },
        paid_at: { type: 'datetime' },
        stripe_session_id: { type: 'string', configurable: false, writable: false },
        // True while the order holds the stock checkout took; cleared, once, when it is given back.
        stock_reserved: { type: 'boolean', default: false, configurable: false, writable: false },
      },
      indexes: [
        { name: 'api_suite_orders_uuid', columns: ['uuid'], type: 'unique' },
        // The sales report: status in (...) and date_created >= since.
        { name: 'api_suite_orders_status_date', columns: ['status', 'date_created'] },
      ],
    },
  },
  // Stripe delivers an event at least once; its id is recorded in the transaction that applies
  // it, and the unique index makes a second delivery (even a concurrent one) a no-op.
  'stripe-event': {
    schema: {
      kind: 'collectionType',
      collectionName: 'api_suite_stripe_events',
      info: { singularName: 'stripe-event', pluralName: 'stripe-events', displayName: 'Stripe event' },
      options: { draftAndPublish: false },
      pluginOptions: internal('sales'),
      attributes: {
        event_id: { type: 'string', required: true },
        event_type: { type: 'string', required: true },
        order_uuid: { type: 'string' },
      },
      indexes: [{ name: 'api_suite_stripe_events_event_id', columns: ['event_id'], type: 'unique' }],
    },
  },
};
