import { z } from 'zod';
import { defineEvent } from '../../webhooks/events/registry';
import { ORDER_STATUSES } from '../content-types';

/** Order events (docs/commerce.md#order-events): to the buyer's own subscriptions and the administrators'. */
const dateTime = z.iso.datetime();

export const orderEventData = z.strictObject({
  id: z.string().meta({ description: "The order's id." }),
  status: z.enum(ORDER_STATUSES),
  total: z.number().min(0).meta({ description: "The order's total, in the shop's currency." }),
  created_at: dateTime.nullable().meta({ description: 'When the order was placed.' }),
  paid_at: dateTime.optional().meta({ description: 'When it was paid; present once paid.' }),
  payment_id: z.string().optional().meta({ description: "The payment provider's id; present once paid." }),
});
export type OrderEventData = z.infer<typeof orderEventData>;

const order: OrderEventData = {
  id: 'c0a8012e-7d1f-4f5e-9a3b-2e4d6f8a1b3c',
  status: 'pending',
  total: 25,
  created_at: '2026-01-01T12:00:00.000Z',
};

const define = (name: string, description: string, example: OrderEventData) =>
  defineEvent({ name, description, schema: orderEventData, example, audience: 'named', owner: 'commerce' });

export const COMMERCE_EVENTS = [
  define('order.created', 'An order was placed (checkout started).', order),
  define('order.updated', 'An order changed status or total.', { ...order, status: 'cancelled' }),
  define('order.paid', 'Payment for an order succeeded.', {
    ...order,
    status: 'paid',
    paid_at: '2026-01-01T12:03:00.000Z',
    payment_id: 'pi_3Qx2k1LmNoPqRsTu0AbCdEfG',
  }),
];

declare module '../../webhooks/events/registry' {
  interface EventPayloads {
    'order.created': OrderEventData;
    'order.updated': OrderEventData;
    'order.paid': OrderEventData;
  }
}
