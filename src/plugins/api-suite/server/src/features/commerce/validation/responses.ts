import { z } from 'zod';
import { ORDER_STATUSES } from '../content-types';
import { REPORT_PERIODS, type ReportPeriod } from '.';

/** What the commerce routes answer (`/api/checkout`, `/api/webhook/stripe`, `/api/reports/sales`, and the admin's `/api-suite/sales/*`): the one description behind the services' types and the admin's. */

const dateTime = z.iso.datetime();
export const reportPeriod = z.enum(Object.keys(REPORT_PERIODS) as [ReportPeriod, ...ReportPeriod[]]);

/** The sales of one period: orders sold, their revenue and mean, in the shop's currency. */
export const salesFigures = z.object({
  count: z.int().min(0),
  revenue: z.number().min(0),
  avgOrder: z.number().min(0),
  period: reportPeriod,
});
export type SalesFigures = z.infer<typeof salesFigures>;

/** Admin panel: `GET /api-suite/sales/report`, the figures for the day, the week and the month in one answer. */
export const salesReport = z.object({
  currency: z.string().meta({ description: "The shop's currency (lowercase ISO 4217), which every total is in." }),
  periods: z.object({ day: salesFigures, week: salesFigures, month: salesFigures }),
});
export type SalesReport = z.infer<typeof salesReport>;

/** Admin panel: an order as `GET /api-suite/sales/orders` lists it: its own id (the UUID), figures, buyer and dates. */
export const orderListing = z.object({
  id: z.string(),
  document_id: z.string().meta({ description: 'Where the content manager opens it.' }),
  status: z.enum(ORDER_STATUSES),
  total: z.number(),
  currency: z.string().nullable(),
  items: z.int().min(0).meta({ description: 'Units ordered, all lines together.' }),
  buyer: z.object({ id: z.int(), username: z.string(), email: z.string() }).nullable(),
  created_at: dateTime.nullable(),
  paid_at: dateTime.nullable(),
  payment_id: z.string().nullable(),
});
export type OrderListing = z.infer<typeof orderListing>;

/** `POST /api/checkout`: the order placed, and the Stripe Checkout page where the buyer pays for it. */
export const checkoutResult = z.object({
  orderId: z.uuid().meta({ description: "The order's id (a UUID, not its row id)." }),
  paymentUrl: z.string().meta({ description: 'The Stripe Checkout Session to send the buyer to.' }),
  total: z.number().min(0).meta({ description: "Σ price × quantity, in the shop's currency." }),
});
export type CheckoutResultAnswer = z.infer<typeof checkoutResult>;
export const checkoutResponse = z.object({ data: checkoutResult });

/** `POST /api/webhook/stripe`: every verified event, applied, repeated or ignored, is acknowledged. */
export const stripeWebhookReceived = z.object({ received: z.literal(true) });

/** The refusals of checkout and the sales report: one message per problem. */
export const errorList = z.object({ errors: z.array(z.object({ message: z.string() })).min(1) });

/** The Stripe webhook's refusals: `{ error: "<message>" }`. */
export const errorMessage = z.object({ error: z.string() });

/** A consumer's orders as the account export (`GET /api/v1/account/export`) shows them. */
export const accountOrder = z.object({
  id: z.string().meta({ description: "The order's id (a UUID)." }),
  status: z.enum(ORDER_STATUSES),
  total: z.number().min(0),
  currency: z.string().nullable(),
  items: z.array(
    z.object({
      product_id: z.int().min(1),
      quantity: z.int().min(1),
      price: z.number().min(0).meta({ description: 'The unit price at checkout.' }),
      name: z.string().meta({ description: 'The product name at checkout.' }),
    })
  ),
  shipping_address: z.unknown().meta({ description: 'As given at checkout: text, an object of text fields, or null.' }),
  payment_method: z.string().nullable(),
  payment_id: z.string().nullable(),
  created_at: dateTime.nullable(),
  paid_at: dateTime.nullable(),
});
export type AccountOrder = z.infer<typeof accountOrder>;
