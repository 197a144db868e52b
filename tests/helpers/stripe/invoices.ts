import { found } from './errors';
import { route, type Route } from './route';
import { listOf, newId, now, type StubContext } from './store';
import type { StubInvoice, StubInvoiceLine, StubPrice, StubSubscription, StubSubscriptionItem } from './types';

/** Invoices: what a subscription's items cost for a period, metered usage included. */

/** A price's amount for `quantity` units, in minor units (a decimal unit amount rounded as Stripe rounds a line). */
export const amountOf = (price: StubPrice, quantity: number): number =>
  Math.round(Number(price.unit_amount_decimal ?? price.unit_amount ?? 0) * quantity);

/** The licensed items' amount for one period: what Stripe charges in advance. */
export const licensedTotal = (subscription: StubSubscription): number =>
  subscription.items.data.reduce(
    (sum, item) => sum + (item.price.recurring?.usage_type === 'metered' ? 0 : amountOf(item.price, item.quantity ?? 1)),
    0
  );

/** A metered item's usage in [start, end): the meter's events for the customer, aggregated by its formula. */
export function usageOf(ctx: StubContext, subscription: StubSubscription, item: StubSubscriptionItem, start: number, end: number): number {
  const meter = item.price.recurring?.meter ? ctx.store.meters.get(item.price.recurring.meter) : undefined;
  if (!meter) return 0;
  const events = ctx.store.meterEvents
    .filter(
      (event) => event.event_name === meter.event_name && event.payload[meter.customer_mapping.event_payload_key] === subscription.customer
    )
    .filter((event) => event.timestamp >= start && event.timestamp < end);
  const values = events.map((event) => Number(event.payload[meter.value_settings.event_payload_key] ?? 0));
  if (meter.default_aggregation.formula === 'count') return events.length;
  if (meter.default_aggregation.formula === 'last') {
    const latest = [...events].sort((a, b) => a.timestamp - b.timestamp).at(-1);
    return latest ? Number(latest.payload[meter.value_settings.event_payload_key] ?? 0) : 0;
  }
  return values.reduce((sum, value) => sum + value, 0);
}

export interface LineSpec {
  item: StubSubscriptionItem;
  quantity: number;
  amount: number;
  start: number;
  end: number;
  proration?: boolean;
}

function lineOf(invoiceId: string, subscription: StubSubscription, spec: LineSpec): StubInvoiceLine {
  const { price } = spec.item;
  return {
    id: newId('il_'),
    object: 'line_item',
    amount: spec.amount,
    currency: subscription.currency,
    description: spec.proration
      ? `Proration for ${price.nickname ?? price.id}`
      : `${Number.isInteger(spec.quantity) ? spec.quantity : spec.quantity.toFixed(4)} × ${price.nickname ?? price.id}`,
    discount_amounts: [],
    discountable: !spec.proration,
    discounts: [],
    invoice: invoiceId,
    livemode: false,
    metadata: {},
    parent: {
      type: 'subscription_item_details',
      invoice_item_details: null,
      subscription_item_details: {
        invoice_item: null,
        proration: spec.proration ?? false,
        proration_details: { credited_items: null },
        subscription: subscription.id,
        subscription_item: spec.item.id,
      },
    },
    period: { start: spec.start, end: spec.end },
    pricing: {
      type: 'price_details',
      price_details: { price: price.id, product: price.product },
      unit_amount_decimal: price.unit_amount_decimal,
    },
    quantity: Number.isInteger(spec.quantity) ? spec.quantity : null,
    quantity_decimal: String(spec.quantity),
    subscription: subscription.id,
    subtotal: spec.amount,
    taxes: [],
  };
}

/** An invoice for `subscription`, paid or left open after one failed attempt. */
export function createInvoice(
  ctx: StubContext,
  subscription: StubSubscription,
  options: { reason: StubInvoice['billing_reason']; paid: boolean; lines: LineSpec[]; periodStart: number; periodEnd: number }
): StubInvoice {
  const customer = found(ctx.store.customers.get(subscription.customer), 'customer', subscription.customer);
  const id = newId('in_');
  const lines = options.lines.map((spec) => lineOf(id, subscription, spec));
  const total = Math.max(
    0,
    lines.reduce((sum, line) => sum + line.amount, 0)
  );
  const created = now();
  const sequence = [...ctx.store.invoices.values()].filter((invoice) => invoice.customer === customer.id).length + 1;
  const invoice: StubInvoice = {
    id,
    object: 'invoice',
    account_country: 'US',
    account_name: 'Stripe stub',
    amount_due: total,
    amount_overpaid: 0,
    amount_paid: options.paid ? total : 0,
    amount_remaining: options.paid ? 0 : total,
    amount_shipping: 0,
    attempt_count: total > 0 ? 1 : 0,
    attempted: total > 0,
    auto_advance: !options.paid,
    billing_reason: options.reason,
    collection_method: 'charge_automatically',
    created,
    currency: subscription.currency,
    customer: customer.id,
    customer_email: customer.email,
    customer_name: customer.name ?? null,
    default_payment_method: null,
    default_source: null,
    description: null,
    discounts: [],
    due_date: null,
    effective_at: created,
    ending_balance: 0,
    footer: null,
    hosted_invoice_url: null,
    invoice_pdf: null,
    lines: { object: 'list', data: lines, has_more: false, url: `/v1/invoices/${id}/lines` },
    livemode: false,
    metadata: {},
    next_payment_attempt: options.paid ? null : created + 3 * 86400,
    number: `${customer.invoice_prefix}-${String(sequence).padStart(4, '0')}`,
    on_behalf_of: null,
    parent: {
      type: 'subscription_details',
      quote_details: null,
      subscription_details: { metadata: { ...subscription.metadata }, subscription: subscription.id },
    },
    period_end: options.periodEnd,
    period_start: options.periodStart,
    post_payment_credit_notes_amount: 0,
    pre_payment_credit_notes_amount: 0,
    receipt_number: null,
    starting_balance: 0,
    statement_descriptor: null,
    status: options.paid ? 'paid' : 'open',
    status_transitions: { finalized_at: created, marked_uncollectible_at: null, paid_at: options.paid ? created : null, voided_at: null },
    subtotal: total,
    subtotal_excluding_tax: total,
    test_clock: null,
    total,
    total_discount_amounts: [],
    total_excluding_tax: total,
    total_taxes: [],
    webhooks_delivered_at: null,
  };
  ctx.store.invoices.set(id, invoice);
  subscription.latest_invoice = id;
  return invoice;
}

/** Mark an open invoice paid now. */
export function markPaid(invoice: StubInvoice): void {
  invoice.status = 'paid';
  invoice.amount_paid = invoice.amount_due;
  invoice.amount_remaining = 0;
  invoice.attempt_count += 1;
  invoice.attempted = true;
  invoice.auto_advance = false;
  invoice.next_payment_attempt = null;
  invoice.status_transitions = { ...invoice.status_transitions, paid_at: now() };
}

export const subscriptionOfInvoice = (invoice: StubInvoice): string => invoice.parent.subscription_details.subscription;

export const invoiceRoutes: Route[] = [
  route('GET', '/v1/invoices/:id', ({ ctx, ids, params }) => (params.only(), found(ctx.store.invoices.get(ids[0]), 'invoice', ids[0]))),
  route('GET', '/v1/invoices', ({ ctx, params }) => {
    params.only('customer', 'subscription', 'status', 'limit', 'starting_after', 'ending_before');
    const customer = params.string('customer');
    const subscription = params.string('subscription');
    const status = params.oneOf('status', ['draft', 'open', 'paid', 'uncollectible', 'void'] as const);
    const invoices = [...ctx.store.invoices.values()].filter(
      (invoice) =>
        (!customer || invoice.customer === customer) &&
        (!subscription || subscriptionOfInvoice(invoice) === subscription) &&
        (!status || invoice.status === status)
    );
    return listOf(invoices, params, '/v1/invoices');
  }),
];
