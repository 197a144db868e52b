import { z } from 'zod';
import { fieldProblems, type FieldProblem } from '../../../http/errors';
import { billingStatus } from '../../billing/validation/responses';
import { ORDER_STATUSES } from '../../commerce/content-types';
import { runStatus } from '../../scrapers/validation/responses';

/**
 * The `data` of every event the plugin publishes, one zod schema per event. It is the one
 * description of a payload: the functions that build payloads return these types (so a builder
 * that drifts does not compile), an administrator's publish is checked against them, and the
 * event catalog's JSON Schemas (`GET /api/webhooks/event-types`) are generated from them.
 */

const dateTime = z.iso.datetime();
const at = (description: string) => dateTime.nullable().meta({ description });

export const orderEventData = z.strictObject({
  id: z.string().meta({ description: "The order's id." }),
  status: z.enum(ORDER_STATUSES),
  total: z.number().min(0).meta({ description: "The order's total, in the shop's currency." }),
  created_at: at('When the order was placed.'),
  paid_at: dateTime.optional().meta({ description: 'When it was paid; present once paid.' }),
  payment_id: z.string().optional().meta({ description: "The payment provider's id; present once paid." }),
});
export type OrderEventData = z.infer<typeof orderEventData>;

/** The site's articles (their status values are the site's own). */
export const articleEventData = z.strictObject({
  id: z.string().meta({ description: "The article's UUID." }),
  title: z.string().nullable(),
  slug: z.string().nullable(),
  status: z.string().nullable().meta({ description: "The article's status, such as draft, published or archived." }),
  createdAt: at('When the article was created.'),
  updatedAt: at('When it last changed.'),
});
export type ArticleEventData = z.infer<typeof articleEventData>;

export const productEventData = z.strictObject({
  id: z.string().meta({ description: "The product's document id." }),
  name: z.string().nullable(),
  slug: z.string().nullable(),
  price: z.number().nullable(),
  stock: z.int().nullable().meta({ description: 'Units in stock.' }),
  published: z.boolean(),
  deleted: z.boolean().meta({ description: 'True on the event of its deletion.' }),
});
export type ProductEventData = z.infer<typeof productEventData>;

export const runEventData = z.strictObject({
  run_id: z.int().min(1),
  scraper_id: z.int().min(1),
  status: runStatus,
  started_at: at('When the run started.'),
  finished_at: at('When it ended.'),
  items_collected: z.int().min(0),
  error: z.string().nullable().meta({ description: 'Why a failed run failed.' }),
});
export type RunEventData = z.infer<typeof runEventData>;

export const resultsChangedEventData = z.strictObject({
  run_id: z.int().min(1),
  scraper_id: z.int().min(1),
  new: z.int().min(0).meta({ description: 'Items whose key the previous completed run did not have.' }),
  changed: z.int().min(0).meta({ description: "Items whose content differs from the previous completed run's." }),
  removed: z.int().min(0).meta({ description: 'Keys of the previous completed run this run did not find.' }),
});
export type ResultsChangedEventData = z.infer<typeof resultsChangedEventData>;

export const billingSubscriptionEventData = z.strictObject({
  consumer_id: z.uuid(),
  subscription_id: z.string().meta({ description: "The Stripe subscription's id." }),
  plan_id: z.int().min(1).nullable().meta({ description: 'The plan bought (null if it has since been deleted).' }),
  status: billingStatus,
  current_period_end: at('When the paid period ends.'),
  cancel_at_period_end: z.boolean(),
  grace_until: at('While past due: when the keys fall back to the default plan.'),
});
export type BillingSubscriptionEventData = z.infer<typeof billingSubscriptionEventData>;

export const billingPaymentFailedEventData = billingSubscriptionEventData.extend({
  invoice_id: z.string().meta({ description: 'The Stripe invoice that was not paid.' }),
  amount_due: z.int().min(0).meta({ description: "In the currency's minor units." }),
  currency: z.string().meta({ description: 'ISO 4217, lower case.' }),
});
export type BillingPaymentFailedEventData = z.infer<typeof billingPaymentFailedEventData>;

export const testEventData = z.strictObject({ subscription_id: z.uuid(), message: z.string() });
export type TestEventData = z.infer<typeof testEventData>;

/** Each published event's data schema, by event name. */
export const EVENT_DATA = {
  'order.created': orderEventData,
  'order.updated': orderEventData,
  'order.paid': orderEventData,
  'article.created': articleEventData,
  'article.updated': articleEventData,
  'article.published': articleEventData,
  'article.deleted': articleEventData,
  'product.created': productEventData,
  'product.updated': productEventData,
  'run.started': runEventData,
  'run.completed': runEventData,
  'run.failed': runEventData,
  'run.stopped': runEventData,
  'results.created': runEventData,
  'results.changed': resultsChangedEventData,
  'billing.subscription.created': billingSubscriptionEventData,
  'billing.subscription.updated': billingSubscriptionEventData,
  'billing.subscription.canceled': billingSubscriptionEventData,
  'billing.payment_failed': billingPaymentFailedEventData,
  'webhook.test': testEventData,
} as const;

export type EventName = keyof typeof EVENT_DATA;
export type EventData<T extends EventName> = z.infer<(typeof EVENT_DATA)[T]>;

/** The JSON Schema (draft 2020-12) of an event's data, as the server writes it. */
export function eventDataJsonSchema(name: EventName): Record<string, unknown> {
  const schema = z.toJSONSchema(EVENT_DATA[name], { target: 'draft-2020-12', io: 'output' }) as Record<string, unknown>;
  return { ...schema, title: `${name} data` };
}

/**
 * The problems of a payload against its event's schema, each with its field path under
 * `prefix` (empty when it conforms, or when the name has no schema).
 */
export function payloadProblems(name: string, payload: unknown, prefix: string): FieldProblem[] {
  if (!isEventName(name)) return [];
  const result = EVENT_DATA[name].safeParse(payload);
  return result.success ? [] : fieldProblems(result.error, prefix);
}

export function isEventName(name: string): name is EventName {
  return Object.prototype.hasOwnProperty.call(EVENT_DATA, name);
}
