import { z } from 'zod';
import { MAX_ID, pageLimit, pageNumber } from '../../../http/validation';
import { ORDER_STATUSES } from '../content-types';
import { CartEmptyError } from '../errors';

/** Bodies and queries of the commerce routes (docs/commerce.md), validated at the edge. */
export const MAX_QUANTITY = 1000;
export const MAX_LINES = 100;

const PRODUCT_ID = 'must be a product id (a positive whole number)';
const QUANTITY = `must be a whole number from 1 to ${MAX_QUANTITY}`;

const item = z
  .object({
    product_id: z.number({ error: PRODUCT_ID }).int(PRODUCT_ID).min(1, PRODUCT_ID).max(MAX_ID, PRODUCT_ID),
    quantity: z.number({ error: QUANTITY }).int(QUANTITY).min(1, QUANTITY).max(MAX_QUANTITY, QUANTITY),
  })
  .strict();

const addressValue = z.union([z.string().max(1000), z.number(), z.null()]);
const shippingAddress = z.union(
  [
    z.string().trim().min(1, 'must not be empty').max(1000, 'must be at most 1000 characters'),
    z
      .record(z.string().regex(/^[A-Za-z0-9_ -]{1,100}$/, 'field names are letters, digits, spaces, _ and -'), addressValue)
      .refine((value) => Object.keys(value).length <= 20, 'must have at most 20 fields'),
  ],
  { error: 'must be an address: text, or an object of text fields' }
);

export const checkoutBody = z
  .object({
    items: z.array(item, { error: 'must be an array of { product_id, quantity }' }).max(MAX_LINES, `must have at most ${MAX_LINES} lines`),
    shipping_address: shippingAddress.nullable().optional(),
    payment_method: z.literal('card', { error: 'only card is accepted' }).optional(),
  })
  .strict();

export type CheckoutInput = z.infer<typeof checkoutBody>;

/**
 * The checkout body. An empty or missing cart is its own 400 ("Cart is empty"); everything else
 * wrong is a 400 naming each bad field (docs/commerce.md#checkout).
 */
export function parseCheckout(body: unknown): CheckoutInput {
  const items = typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as { items?: unknown }).items : undefined;
  if (items === undefined || items === null || (Array.isArray(items) && items.length === 0)) {
    throw new CartEmptyError();
  }
  return checkoutBody.parse(body);
}

export const REPORT_PERIODS = { day: 1, week: 7, month: 30 } as const;
export type ReportPeriod = keyof typeof REPORT_PERIODS;

/** `period`: day, week or month; anything else (or nothing) is a week. */
export function parsePeriod(value: unknown): ReportPeriod {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(REPORT_PERIODS, value) ? (value as ReportPeriod) : 'week';
}

/** The admin panel's list of orders: newest first, a page at a time, optionally of one status. */
export const adminOrdersQuery = z.object({
  page: pageNumber,
  limit: pageLimit,
  status: z.enum(ORDER_STATUSES, { error: `must be one of ${ORDER_STATUSES.join(', ')}` }).optional(),
});
export type AdminOrdersQuery = z.infer<typeof adminOrdersQuery>;
