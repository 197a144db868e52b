import crypto from 'node:crypto';
import { createCustomer } from './customers';
import { found, invalid, missing, mixedIntervals, noSuch, onlyOneOf } from './errors';
import { Params } from './form';
import { route, type Route } from './route';
import { listOf, newId, now, type StubContext } from './store';
import { createSubscription, type SubscriptionOptions } from './subscriptions';
import type { StubEvent, StubPrice, StubSession } from './types';

/** Checkout Sessions in `payment` mode (inline `price_data` or one-time prices) and `subscription` mode (recurring prices). */

interface Line {
  price: StubPrice | null;
  currency: string;
  unitAmount: number;
  quantity?: number;
}

/** What a session's completion needs and the session object does not show. */
const pendingSubscriptions = new WeakMap<
  StubSession,
  { lines: Line[]; metadata: Record<string, string>; description: string | null; options: SubscriptionOptions }
>();

const isMetered = (price: StubPrice | null) => price?.recurring?.usage_type === 'metered';
const unitOf = (price: StubPrice) => Number(price.unit_amount_decimal ?? price.unit_amount ?? 0);

function urlOf(params: Params, key: string): string | null {
  const url = params.string(key, { max: 5000 });
  if (url && !/^https?:\/\/[^\s]+$/.test(url)) throw invalid('Not a valid URL', key, 'url_invalid');
  return url || null;
}

function lineOf(ctx: StubContext, entry: Params, index: number, mode: string): Line {
  entry.only('price', 'price_data', 'quantity');
  if (entry.has('price') && entry.has('price_data')) throw onlyOneOf(entry.path('price'), entry.path('price_data'));
  const quantity = entry.int('quantity', { min: 0, max: 999999 });
  const priceId = entry.string('price');
  if (priceId) {
    const price = ctx.store.prices.get(priceId);
    if (!price) throw noSuch('price', priceId, entry.path('price'));
    if (!price.active) throw invalid(`The price specified is inactive. This field only accepts active prices.`, entry.path('price'));
    if (mode === 'payment' && price.recurring) {
      throw invalid(
        'You specified `payment` mode but passed a recurring price. Either switch to `subscription` mode or use only one-time prices.',
        entry.path('price')
      );
    }
    if (isMetered(price) && quantity !== undefined) {
      throw invalid(
        `Quantity should not be specified where usage_type is \`metered\`. Remove quantity from \`line_items[${index}]\``,
        entry.path('quantity')
      );
    }
    if (!isMetered(price) && quantity === undefined)
      throw invalid(`Quantity is required. Add \`quantity\` to \`line_items[${index}]\``, entry.path('quantity'), 'parameter_missing');
    return { price, currency: price.currency, unitAmount: unitOf(price), quantity };
  }
  const data = entry.object('price_data');
  if (!data) throw missing(entry.path('price'));
  if (mode === 'subscription') throw invalid('The Stripe stub supports only line_items[n][price] in subscription mode.', data.prefix);
  data.only('currency', 'unit_amount', 'unit_amount_decimal', 'product', 'product_data', 'tax_behavior');
  const currency = data.required('currency');
  if (!/^[a-zA-Z]{3}$/.test(currency)) throw invalid(`Invalid currency: ${currency}.`, data.path('currency'));
  if (data.has('unit_amount') && data.has('unit_amount_decimal'))
    throw onlyOneOf(data.path('unit_amount'), data.path('unit_amount_decimal'));
  const unitAmount = data.int('unit_amount', { min: 0 }) ?? Number(data.decimal('unit_amount_decimal') ?? NaN);
  if (Number.isNaN(unitAmount)) throw missing(data.path('unit_amount'));
  const product = data.string('product');
  if (product && !ctx.store.products.has(product)) throw noSuch('product', product, data.path('product'));
  if (!product) {
    const productData = data.object('product_data');
    if (!productData) throw missing(data.path('product'));
    productData.only('name', 'description', 'metadata', 'images').required('name');
    productData.metadata();
  }
  data.oneOf('tax_behavior', ['exclusive', 'inclusive', 'unspecified'] as const);
  if (quantity === undefined)
    throw invalid(`Quantity is required. Add \`quantity\` to \`line_items[${index}]\``, entry.path('quantity'), 'parameter_missing');
  return { price: null, currency: currency.toLowerCase(), unitAmount, quantity };
}

function linesOf(ctx: StubContext, params: Params, mode: string): Line[] {
  const lines = params.list('line_items').map((entry, index) => lineOf(ctx, entry, index, mode));
  if (lines.length === 0) throw missing('line_items');
  if (new Set(lines.map((line) => line.currency)).size > 1) throw invalid('All line_items must use the same currency.', 'line_items');
  if (mode === 'subscription') {
    const recurring = lines.filter((line) => line.price?.recurring);
    if (recurring.length === 0)
      throw invalid('You must provide at least one recurring price in `subscription` mode when using prices.', 'line_items');
    if (recurring.length < lines.length)
      throw invalid('The Stripe stub supports only recurring prices in subscription mode.', 'line_items');
    if (new Set(recurring.map((line) => `${line.price?.recurring?.interval}/${line.price?.recurring?.interval_count}`)).size > 1) {
      throw mixedIntervals('line_items');
    }
    if (new Set(recurring.map((line) => line.price?.id)).size < recurring.length)
      throw invalid('You cannot use the same price on more than one line item.', 'line_items');
  }
  return lines;
}

function createSession(ctx: StubContext, params: Params): StubSession {
  params.only(
    'mode',
    'line_items',
    'success_url',
    'cancel_url',
    'client_reference_id',
    'metadata',
    'customer',
    'customer_email',
    'subscription_data',
    'allow_promotion_codes',
    'expires_at',
    'payment_intent_data',
    'allowed_payment_method_types',
    'locale'
  );
  const mode = params.oneOf('mode', ['payment', 'subscription', 'setup'] as const) ?? 'payment';
  if (mode === 'setup') throw invalid('The Stripe stub does not implement mode=setup.', 'mode');
  const successUrl = urlOf(params, 'success_url');
  if (mode === 'subscription' && !successUrl) throw missing('success_url');
  const cancelUrl = urlOf(params, 'cancel_url');
  if (params.has('customer') && params.has('customer_email')) throw onlyOneOf('customer', 'customer_email');
  const customer = params.string('customer') || null;
  if (customer && !ctx.store.customers.has(customer)) throw noSuch('customer', customer, 'customer');
  const email = params.string('customer_email') || null;
  if (email && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email))
    throw invalid(`Invalid email address: ${email}`, 'customer_email', 'email_invalid');
  const lines = linesOf(ctx, params, mode);
  const created = now();
  const expiresAt = params.int('expires_at') ?? created + 86400;
  if (expiresAt < created + 1800 - 10 || expiresAt > created + 86400) {
    throw invalid(
      'The `expires_at` timestamp must be at least 30 minutes and at most 24 hours after the Checkout Session is created.',
      'expires_at'
    );
  }
  const subscriptionData = params.object('subscription_data')?.only('metadata', 'description', 'trial_period_days', 'billing_mode');
  if (subscriptionData && mode !== 'subscription')
    throw invalid('You can only pass `subscription_data` in `subscription` mode.', 'subscription_data');
  // Stripe: at least 1 day, and a trial ends at most 730 days from now.
  const trialDays = subscriptionData?.int('trial_period_days', { min: 1, max: 730 }) ?? null;
  // Subscriptions made by Checkout default to flexible billing mode in this API version.
  const billingMode =
    subscriptionData
      ?.object('billing_mode')
      ?.only('type')
      .oneOf('type', ['classic', 'flexible'] as const, true) ?? 'flexible';
  const intentData = params.object('payment_intent_data')?.only('metadata', 'description');
  if (intentData && mode !== 'payment')
    throw invalid('You can not pass `payment_intent_data` in `subscription` mode.', 'payment_intent_data');
  intentData?.metadata();

  // A trial's first invoice is for nothing.
  const amount =
    trialDays !== null
      ? 0
      : Math.round(lines.reduce((sum, line) => sum + (isMetered(line.price) ? 0 : line.unitAmount * (line.quantity ?? 1)), 0));
  const id = `cs_test_${crypto.randomBytes(12).toString('hex')}`;
  const session: StubSession = {
    id,
    object: 'checkout.session',
    url: `${ctx.base}/pay/${id}`,
    mode,
    status: 'open',
    payment_status: 'unpaid',
    amount_total: amount,
    currency: lines[0].currency,
    metadata: params.metadata() ?? {},
    payment_intent: null,
    success_url: successUrl,
    cancel_url: cancelUrl,
    payment_method_types: params.strings('allowed_payment_method_types'),
    allow_promotion_codes: params.bool('allow_promotion_codes') ?? null,
    amount_subtotal: amount,
    client_reference_id: params.string('client_reference_id', { max: 200 }) || null,
    created,
    customer,
    customer_email: email,
    expires_at: expiresAt,
    invoice: null,
    livemode: false,
    subscription: null,
  };
  if (mode === 'subscription') {
    pendingSubscriptions.set(session, {
      lines,
      metadata: subscriptionData?.metadata() ?? {},
      description: subscriptionData?.string('description') || null,
      options: { trialDays, billingMode },
    });
  }
  ctx.store.sessions.set(id, session);
  return session;
}

/**
 * The customer paid: in subscription mode the subscription and its first invoice are made
 * (`customer.subscription.created`, `invoice.paid`), then `checkout.session.completed`.
 */
export function completeCheckout(ctx: StubContext, sessionId: string): StubEvent[] {
  const session = ctx.store.sessions.get(sessionId);
  if (!session) throw new Error(`The Stripe stub has no Checkout Session ${sessionId}`);
  if (session.status !== 'open') throw new Error(`Checkout Session ${sessionId} is ${session.status}, not open`);
  const events: StubEvent[] = [];
  const pending = pendingSubscriptions.get(session);
  if (pending) {
    const customer =
      session.customer ?? createCustomer(ctx, new Params(session.customer_email ? { email: session.customer_email } : {})).id;
    const lines = pending.lines.map((line) => ({ price: line.price as StubPrice, quantity: line.quantity }));
    const { subscription, invoice } = createSubscription(ctx, customer, lines, pending.metadata, pending.description, pending.options);
    Object.assign(session, { customer, subscription: subscription.id, invoice: invoice.id });
    events.push(ctx.events.emit('customer.subscription.created', subscription), ctx.events.emit('invoice.paid', invoice));
  } else {
    session.payment_intent = newId('pi_');
  }
  session.status = 'complete';
  session.payment_status = 'paid';
  events.push(ctx.events.emit('checkout.session.completed', session));
  return events;
}

export const checkoutRoutes: Route[] = [
  route('POST', '/v1/checkout/sessions', ({ ctx, params }) => createSession(ctx, params)),
  route(
    'GET',
    '/v1/checkout/sessions/:id',
    ({ ctx, ids, params }) => (params.only(), found(ctx.store.sessions.get(ids[0]), 'checkout.session', ids[0]))
  ),
  route('GET', '/v1/checkout/sessions', ({ ctx, params }) => {
    params.only('customer', 'status', 'subscription', 'limit', 'starting_after', 'ending_before');
    const customer = params.string('customer');
    const status = params.string('status');
    if (status && !['open', 'complete', 'expired'].includes(status)) {
      throw invalid(`Invalid status: must be one of complete, expired, or open`, 'status');
    }
    const subscription = params.string('subscription');
    const sessions = [...ctx.store.sessions.values()].filter(
      (session) =>
        (!customer || session.customer === customer) &&
        (!status || session.status === status) &&
        (!subscription || session.subscription === subscription)
    );
    return listOf(sessions, params, '/v1/checkout/sessions');
  }),
  route('POST', '/v1/checkout/sessions/:id/expire', ({ ctx, ids, params }) => {
    params.only();
    const session = found(ctx.store.sessions.get(ids[0]), 'checkout.session', ids[0]);
    if (session.status !== 'open') throw invalid(`Only Checkout Sessions with a status in ["open"] can be expired.`, 'session');
    session.status = 'expired';
    return session;
  }),
];
