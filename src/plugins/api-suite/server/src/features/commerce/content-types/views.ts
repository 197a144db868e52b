import type { ContentManagerView } from '../../types';

/** Orders in the Content Manager, where editors change their status; Stripe events are not shown. */
export default {
  order: {
    mainField: 'uuid',
    sort: { by: 'date_created', order: 'DESC' },
    list: ['uuid', 'user', 'total', 'status', 'date_created'],
    edit: [
      ['status', 'user'],
      [
        ['total', 4],
        ['currency', 2],
        ['payment_method', 6],
      ],
      ['items'],
      ['shipping_address'],
      ['date_created', 'paid_at'],
      ['payment_id', 'consumer_id'],
    ],
    labels: {
      uuid: 'Order',
      user: 'Buyer',
      total: 'Total ({currency})',
      currency: 'Currency',
      status: 'Status',
      date_created: 'Placed',
      paid_at: 'Paid',
      payment_id: 'Stripe payment',
      payment_method: 'Payment method',
      items: 'Items',
      shipping_address: 'Shipping address',
      consumer_id: 'Former buyer',
    },
    descriptions: {
      status: 'Cancelling a pending or paid order gives its stock back; every change of status is published as order.updated',
      items: 'As bought: product id, quantity, and the price and name the product had then',
      consumer_id:
        "Set when the buyer deleted their account: the order stays for accounting under the buyer's opaque id, without the person",
    },
    readOnlyFields: ['date_created', 'paid_at', 'payment_id', 'currency', 'consumer_id'],
  },
} satisfies Record<string, ContentManagerView>;
