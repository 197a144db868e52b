import { planOf, recurringPrice } from './catalog';
import { found, invalid, mixedIntervals, noSuch } from './errors';
import { changedFields, type EventCause } from './events';
import type { Params } from './form';
import { amountOf, createInvoice, licensedTotal, markPaid, subscriptionOfInvoice, usageOf, type LineSpec } from './invoices';
import { route, type Route } from './route';
import { addInterval, listOf, newId, now, type StubContext } from './store';
import type { StubEvent, StubPrice, StubSubscription, StubSubscriptionItem } from './types';

/** Subscriptions: made by Checkout, changed through the API, and moved through their life by the test controls. */

/** Prorations waiting for the next invoice (`proration_behavior=create_prorations`). */
const pendingProrations = new WeakMap<StubSubscription, LineSpec[]>();

const isMetered = (price: StubPrice) => price.recurring?.usage_type === 'metered';

function newItem(subscription: string, price: StubPrice, quantity: number | undefined, start: number): StubSubscriptionItem {
  const item: StubSubscriptionItem = {
    id: newId('si_', 14),
    object: 'subscription_item',
    billing_thresholds: null,
    created: now(),
    current_period_end: addInterval(start, price.recurring?.interval ?? 'month', price.recurring?.interval_count ?? 1),
    current_period_start: start,
    current_trial: null,
    discounts: [],
    metadata: {},
    plan: planOf(price),
    price: structuredClone(price),
    subscription,
    tax_rates: [],
  };
  if (!isMetered(price)) item.quantity = quantity ?? 1;
  return item;
}

/** What Checkout's `subscription_data` sets on the subscription it makes. */
export interface SubscriptionOptions {
  /** Days of free trial; null for none. */
  trialDays: number | null;
  billingMode: 'classic' | 'flexible';
}

const intervalOf = (price: StubPrice) => `${price.recurring?.interval}/${price.recurring?.interval_count}`;
const mixesIntervals = (prices: StubPrice[]) => new Set(prices.map(intervalOf)).size > 1;

/**
 * A subscription as Checkout makes it: one item per line, its first invoice paid. With a trial it
 * is `trialing` until `trial_end`, its items' period is the trial, and the first invoice is for 0.
 */
export function createSubscription(
  ctx: StubContext,
  customer: string,
  lines: Array<{ price: StubPrice; quantity?: number }>,
  metadata: Record<string, string>,
  description: string | null,
  options: SubscriptionOptions = { trialDays: null, billingMode: 'flexible' }
) {
  const id = newId('sub_');
  const start = now();
  const trialEnd = options.trialDays === null ? null : start + options.trialDays * 86400;
  const items = lines.map((line) => newItem(id, line.price, line.quantity, start));
  if (trialEnd !== null) for (const item of items) item.current_period_end = trialEnd;
  const subscription: StubSubscription = {
    id,
    object: 'subscription',
    application: null,
    application_fee_percent: null,
    automatic_tax: { disabled_reason: null, enabled: false, liability: null },
    billing_cycle_anchor: start,
    billing_cycle_anchor_config: null,
    billing_mode: { flexible: null, type: options.billingMode, updated_at: start },
    billing_thresholds: null,
    cancel_at: null,
    cancel_at_period_end: false,
    canceled_at: null,
    cancellation_details: { comment: null, feedback: null, feedback_option: null, reason: null },
    collection_method: 'charge_automatically',
    created: start,
    currency: lines[0].price.currency,
    customer,
    customer_account: null,
    days_until_due: null,
    default_payment_method: newId('pm_'),
    default_source: null,
    description,
    discounts: [],
    ended_at: null,
    invoice_settings: { account_tax_ids: null, custom_fields: null, description: null, footer: null, issuer: { type: 'self' } },
    items: { object: 'list', data: items, has_more: false, url: `/v1/subscription_items?subscription=${id}` },
    latest_invoice: null,
    livemode: false,
    metadata,
    next_pending_invoice_item_invoice: null,
    on_behalf_of: null,
    pause_collection: null,
    payment_settings: { payment_method_options: null, payment_method_types: null, save_default_payment_method: 'off' },
    pending_invoice_item_interval: null,
    pending_setup_intent: null,
    pending_update: null,
    schedule: null,
    start_date: start,
    status: trialEnd === null ? 'active' : 'trialing',
    test_clock: null,
    transfer_data: null,
    trial_end: trialEnd,
    trial_settings: { end_behavior: { billing_cycle_anchor: null, missing_payment_method: 'create_invoice' } },
    trial_start: trialEnd === null ? null : start,
  };
  ctx.store.subscriptions.set(id, subscription);
  const licensed = items.filter((item) => !isMetered(item.price));
  const invoice = createInvoice(ctx, subscription, {
    reason: 'subscription_create',
    paid: true,
    lines: licensed.map((item) => ({
      item,
      quantity: item.quantity ?? 1,
      amount: trialEnd === null ? amountOf(item.price, item.quantity ?? 1) : 0,
      start,
      end: item.current_period_end,
    })),
    periodStart: start,
    periodEnd: start,
  });
  return { subscription, invoice };
}

function subscriptionOf(ctx: StubContext, id: string): StubSubscription {
  const subscription = ctx.store.subscriptions.get(id);
  if (!subscription) throw new Error(`The Stripe stub has no subscription ${id}`);
  return subscription;
}

/** The end of the current period: the items share it. */
const periodOf = (subscription: StubSubscription) => ({
  start: subscription.items.data[0]?.current_period_start ?? subscription.start_date,
  end: subscription.items.data[0]?.current_period_end ?? subscription.start_date,
});

/** Close the current period: metered usage billed for it, licensed items for the next, the periods moved on. */
function cycle(ctx: StubContext, subscription: StubSubscription, paid: boolean) {
  const { start, end } = periodOf(subscription);
  const lines: LineSpec[] = [];
  for (const item of subscription.items.data) {
    const nextEnd = addInterval(end, item.price.recurring?.interval ?? 'month', item.price.recurring?.interval_count ?? 1);
    if (isMetered(item.price)) {
      const usage = usageOf(ctx, subscription, item, start, end);
      lines.push({ item, quantity: usage, amount: amountOf(item.price, usage), start, end });
    } else {
      lines.push({ item, quantity: item.quantity ?? 1, amount: amountOf(item.price, item.quantity ?? 1), start: end, end: nextEnd });
    }
    item.current_period_start = end;
    item.current_period_end = nextEnd;
  }
  lines.push(...(pendingProrations.get(subscription) ?? []));
  pendingProrations.delete(subscription);
  return createInvoice(ctx, subscription, { reason: 'subscription_cycle', paid, lines, periodStart: start, periodEnd: end });
}

function openInvoiceOf(ctx: StubContext, subscription: StubSubscription) {
  return [...ctx.store.invoices.values()]
    .reverse()
    .find((invoice) => invoice.status === 'open' && subscriptionOfInvoice(invoice) === subscription.id);
}

/** Canceled now: `customer.subscription.deleted`. */
function endNow(ctx: StubContext, subscription: StubSubscription, cause?: EventCause): StubEvent[] {
  const at = now();
  subscription.status = 'canceled';
  subscription.canceled_at ??= at;
  subscription.ended_at = at;
  return [ctx.events.emit('customer.subscription.deleted', subscription, undefined, cause)];
}

/** The test controls: each changes a subscription as Stripe would, and answers the events it queued. */
export const lifecycle = {
  failPayment(ctx: StubContext, id: string): StubEvent[] {
    const subscription = subscriptionOf(ctx, id);
    if (subscription.status === 'canceled') throw new Error(`Subscription ${id} is canceled`);
    const before = structuredClone(subscription);
    const open = openInvoiceOf(ctx, subscription);
    const invoice = open ?? cycle(ctx, subscription, false);
    if (open) {
      open.attempt_count += 1;
      open.next_payment_attempt = now() + 3 * 86400;
    }
    subscription.status = 'past_due';
    const events = [ctx.events.emit('invoice.payment_failed', invoice)];
    const previous = changedFields(before, subscription);
    if (Object.keys(previous).length > 0) events.push(ctx.events.emit('customer.subscription.updated', subscription, previous));
    return events;
  },

  payInvoice(ctx: StubContext, id: string): StubEvent[] {
    const subscription = subscriptionOf(ctx, id);
    const invoice = openInvoiceOf(ctx, subscription);
    if (!invoice) throw new Error(`Subscription ${id} has no open invoice`);
    const before = structuredClone(subscription);
    markPaid(invoice);
    if (subscription.status === 'past_due' || subscription.status === 'unpaid') subscription.status = 'active';
    const events = [ctx.events.emit('invoice.paid', invoice)];
    const previous = changedFields(before, subscription);
    if (Object.keys(previous).length > 0) events.push(ctx.events.emit('customer.subscription.updated', subscription, previous));
    return events;
  },

  /**
   * The trial ends now: the subscription is active, every item starts a period of its own interval,
   * and the first real invoice is paid (or, with cancel_at_period_end, the subscription ends).
   */
  endTrial(ctx: StubContext, id: string): StubEvent[] {
    const subscription = subscriptionOf(ctx, id);
    if (subscription.status !== 'trialing') throw new Error(`Subscription ${id} is ${subscription.status}, not trialing`);
    if (subscription.cancel_at !== null) return endNow(ctx, subscription);
    const before = structuredClone(subscription);
    const at = now();
    subscription.status = 'active';
    subscription.trial_end = at;
    subscription.billing_cycle_anchor = at;
    const lines: LineSpec[] = [];
    for (const item of subscription.items.data) {
      item.current_period_start = at;
      item.current_period_end = addInterval(at, item.price.recurring?.interval ?? 'month', item.price.recurring?.interval_count ?? 1);
      if (!isMetered(item.price))
        lines.push({
          item,
          quantity: item.quantity ?? 1,
          amount: amountOf(item.price, item.quantity ?? 1),
          start: at,
          end: item.current_period_end,
        });
    }
    const invoice = createInvoice(ctx, subscription, { reason: 'subscription_cycle', paid: true, lines, periodStart: at, periodEnd: at });
    return [
      ctx.events.emit('customer.subscription.updated', subscription, changedFields(before, subscription)),
      ctx.events.emit('invoice.paid', invoice),
    ];
  },

  renew(ctx: StubContext, id: string): StubEvent[] {
    const subscription = subscriptionOf(ctx, id);
    if (subscription.status === 'canceled') throw new Error(`Subscription ${id} is canceled`);
    if (subscription.status === 'trialing') throw new Error(`Subscription ${id} is trialing: end the trial with endTrial()`);
    // Items of different intervals renew at different times: this stub renews subscriptions whose items share one period.
    if (mixesIntervals(subscription.items.data.map((item) => item.price)))
      throw new Error(`Subscription ${id} mixes intervals; the Stripe stub renews only subscriptions whose items share one interval`);
    const { end } = periodOf(subscription);
    if (subscription.cancel_at !== null && subscription.cancel_at <= end) return endNow(ctx, subscription);
    const before = structuredClone(subscription);
    const invoice = cycle(ctx, subscription, true);
    return [
      ctx.events.emit('customer.subscription.updated', subscription, changedFields(before, subscription)),
      ctx.events.emit('invoice.paid', invoice),
    ];
  },

  endSubscription(ctx: StubContext, id: string): StubEvent[] {
    const subscription = subscriptionOf(ctx, id);
    if (subscription.status === 'canceled') throw new Error(`Subscription ${id} is already canceled`);
    return endNow(ctx, subscription);
  },
};

/** Apply `items[n]` as Stripe does: `id` names an item of this subscription, `deleted` removes it, `price` and `quantity` change it. */
function applyItems(ctx: StubContext, subscription: StubSubscription, params: Params): StubSubscriptionItem[] {
  const items = [...subscription.items.data];
  const { start } = periodOf(subscription);
  for (const [index, entry] of params.list('items').entries()) {
    entry.only('id', 'price', 'quantity', 'deleted', 'metadata');
    const id = entry.string('id');
    let item = id ? items.find((candidate) => candidate.id === id) : undefined;
    if (id && !item) {
      const elsewhere = [...ctx.store.subscriptions.values()].some((other) => other.items.data.some((candidate) => candidate.id === id));
      if (elsewhere) throw invalid(`The subscription item ${id} does not belong to the subscription ${subscription.id}.`, entry.path('id'));
      throw noSuch('subscription_item', id, entry.path('id'));
    }
    if (entry.bool('deleted')) {
      if (!item) throw invalid('A subscription item to delete needs its id.', entry.path('id'), 'parameter_missing');
      items.splice(items.indexOf(item), 1);
      continue;
    }
    const priceId = entry.string('price');
    if (!item && !priceId) throw invalid(`Missing required param: ${entry.path('price')}.`, entry.path('price'), 'parameter_missing');
    const price = priceId ? recurringPrice(ctx, priceId, entry.path('price')) : (item as StubSubscriptionItem).price;
    const quantity = entry.int('quantity', { min: 0 });
    if (quantity !== undefined && isMetered(price)) {
      throw invalid(
        `Quantity should not be specified where usage_type is \`metered\`. Remove quantity from \`items[${index}]\``,
        entry.path('quantity')
      );
    }
    if (price.currency !== subscription.currency)
      throw invalid(
        `The price ${price.id} is in ${price.currency}; this subscription bills in ${subscription.currency}.`,
        entry.path('price')
      );
    const metadata = entry.metadata('metadata', item?.metadata ?? {});
    if (!item) {
      const sameInterval = items.length === 0 || intervalOf(items[0].price) === intervalOf(price);
      if (subscription.status === 'trialing' || sameInterval) {
        item = newItem(subscription.id, price, quantity, start);
        item.current_period_end = periodOf(subscription).end;
      } else {
        // An item of another interval (flexible billing mode only, checked below) starts a period of its own now.
        item = newItem(subscription.id, price, quantity, now());
      }
      items.push(item);
    } else {
      const replaced = { ...item, price: structuredClone(price), plan: planOf(price) };
      if (isMetered(price)) delete replaced.quantity;
      else replaced.quantity = quantity ?? item.quantity ?? 1;
      items[items.indexOf(item)] = replaced;
      item = replaced;
    }
    if (metadata) item.metadata = metadata;
  }
  if (items.length === 0) throw invalid('A subscription must have at least one item. To cancel it, use the cancel endpoint.', 'items');
  const prices = items.map((item) => item.price);
  if (new Set(prices.map((price) => price.id)).size < prices.length)
    throw invalid('Cannot add multiple subscription items with the same price.', 'items');
  // Mixed intervals need flexible billing mode (Stripe's mixed-interval subscriptions); classic refuses them.
  if (mixesIntervals(prices) && subscription.billing_mode.type !== 'flexible') throw mixedIntervals('items');
  return items;
}

function updateSubscription(ctx: StubContext, id: string, params: Params, cause: EventCause): StubSubscription {
  const subscription = found(ctx.store.subscriptions.get(id), 'subscription', id);
  if (subscription.status === 'canceled') {
    if (params.keys().some((key) => key !== 'metadata' && key !== 'cancellation_details' && key !== 'expand')) {
      throw invalid('A canceled subscription can only update its cancellation_details and metadata.');
    }
  }
  params.only('items', 'proration_behavior', 'cancel_at_period_end', 'metadata', 'description', 'cancellation_details');
  const behavior = params.oneOf('proration_behavior', ['create_prorations', 'none', 'always_invoice'] as const) ?? 'create_prorations';
  const cancelAtPeriodEnd = params.bool('cancel_at_period_end');
  const metadata = params.metadata('metadata', subscription.metadata);
  const details = params.object('cancellation_details')?.only('comment', 'feedback');
  const items = params.has('items') ? applyItems(ctx, subscription, params) : subscription.items.data;

  const before = structuredClone(subscription);
  const oldLicensed = licensedTotal(subscription);
  subscription.items = { ...subscription.items, data: items };
  if (metadata) subscription.metadata = metadata;
  if (params.has('description')) subscription.description = params.string('description') || null;
  if (details)
    subscription.cancellation_details = {
      ...subscription.cancellation_details,
      comment: details.string('comment') ?? null,
      feedback: null,
      feedback_option: null,
      reason: 'cancellation_requested',
    };
  if (cancelAtPeriodEnd !== undefined) {
    subscription.cancel_at_period_end = cancelAtPeriodEnd;
    subscription.cancel_at = cancelAtPeriodEnd ? periodOf(subscription).end : null;
    subscription.canceled_at = cancelAtPeriodEnd ? now() : null;
  }

  const { start, end } = periodOf(subscription);
  const change = Math.round(((licensedTotal(subscription) - oldLicensed) * Math.max(0, end - now())) / Math.max(1, end - start));
  const prorationLine: LineSpec | null =
    change !== 0 && items[0] ? { item: items[0], quantity: 1, amount: change, start: now(), end, proration: true } : null;
  let invoice = null;
  if (prorationLine && behavior === 'create_prorations')
    pendingProrations.set(subscription, [...(pendingProrations.get(subscription) ?? []), prorationLine]);
  if (prorationLine && behavior === 'always_invoice') {
    invoice = createInvoice(ctx, subscription, {
      reason: 'subscription_update',
      paid: true,
      lines: [prorationLine],
      periodStart: now(),
      periodEnd: now(),
    });
  }

  const previous = changedFields(before, subscription);
  if (Object.keys(previous).length > 0) ctx.events.emit('customer.subscription.updated', subscription, previous, cause);
  if (invoice) ctx.events.emit('invoice.paid', invoice, undefined, cause);
  return subscription;
}

function cancelSubscription(ctx: StubContext, id: string, params: Params, cause: EventCause): StubSubscription {
  const subscription = found(ctx.store.subscriptions.get(id), 'subscription', id);
  params.only('invoice_now', 'prorate', 'cancellation_details');
  params.bool('invoice_now');
  params.bool('prorate');
  if (subscription.status === 'canceled') throw invalid(`The subscription ${id} is already canceled.`, 'id');
  const details = params.object('cancellation_details')?.only('comment', 'feedback');
  subscription.cancellation_details = {
    comment: details?.string('comment') ?? null,
    feedback: null,
    feedback_option: null,
    reason: 'cancellation_requested',
  };
  endNow(ctx, subscription, cause);
  return subscription;
}

export const subscriptionRoutes: Route[] = [
  route(
    'GET',
    '/v1/subscriptions/:id',
    ({ ctx, ids, params }) => (params.only(), found(ctx.store.subscriptions.get(ids[0]), 'subscription', ids[0]))
  ),
  route('POST', '/v1/subscriptions/:id', ({ ctx, ids, params, cause }) => updateSubscription(ctx, ids[0], params, cause)),
  route('DELETE', '/v1/subscriptions/:id', ({ ctx, ids, params, cause }) => cancelSubscription(ctx, ids[0], params, cause)),
  route('GET', '/v1/subscriptions', ({ ctx, params }) => {
    params.only('customer', 'status', 'price', 'limit', 'starting_after', 'ending_before');
    const customer = params.string('customer');
    const status = params.string('status');
    const price = params.string('price');
    const subscriptions = [...ctx.store.subscriptions.values()].filter(
      (subscription) =>
        (!customer || subscription.customer === customer) &&
        (status === 'all' || (status ? subscription.status === status : subscription.status !== 'canceled')) &&
        (!price || subscription.items.data.some((item) => item.price.id === price))
    );
    return listOf(subscriptions, params, '/v1/subscriptions');
  }),
];
