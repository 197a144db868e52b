import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { startStripeStub, type StripeStub, type StubEvent } from '../helpers/stripe-stub';

/**
 * The Stripe stub, driven by the official SDK as the app drives it: a whole Billing flow, each step
 * checked against what Stripe answers (shapes, errors, events and their signatures).
 */
let stub: StripeStub;
let stripe: Stripe;
let hooks: { url: string; received: Array<{ body: string; signature: string }>; close(): Promise<void> };

const SECRET = 'whsec_stub_unit';

/** A local endpoint that records what it receives, as a webhook receiver would. */
async function startHooks(): Promise<typeof hooks> {
  const received: Array<{ body: string; signature: string }> = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ body: Buffer.concat(chunks).toString('utf8'), signature: String(req.headers['stripe-signature']) });
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/stripe`, received, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** The SDK's error for a refused call. */
async function refusal(call: Promise<unknown>): Promise<Stripe.errors.StripeError> {
  try {
    await call;
  } catch (error) {
    if (error instanceof Stripe.errors.StripeError) return error;
    throw error;
  }
  throw new Error('Stripe accepted a call it should refuse');
}

/** A request the SDK's types would not let us make: sent as Stripe receives it. */
async function raw(
  method: string,
  path: string,
  form?: string
): Promise<{ status: number; body: { error?: { code?: string; param?: string; type: string } } }> {
  const response = await fetch(`http://127.0.0.1:${stub.port}${path}`, {
    method,
    headers: { authorization: 'Bearer sk_test_x', 'content-type': 'application/x-www-form-urlencoded' },
    body: form,
  });
  return { status: response.status, body: (await response.json()) as { error?: { code?: string; param?: string; type: string } } };
}

const types = (events: StubEvent[]) => events.map((event) => event.type);

beforeAll(async () => {
  stub = await startStripeStub();
  hooks = await startHooks();
  stripe = new Stripe('sk_test_x', { host: stub.host, port: stub.port, protocol: 'http', maxNetworkRetries: 0 });
});

afterAll(async () => {
  await Promise.all([stub?.close(), hooks?.close()]);
});

let meter: Stripe.Billing.Meter;
let product: Stripe.Product;
let flat: Stripe.Price;
let metered: Stripe.Price;
let customer: Stripe.Customer;
let subscription: Stripe.Subscription;

describe('catalog', () => {
  it('creates a meter, once per active event name', async () => {
    meter = await stripe.billing.meters.create({
      display_name: 'API requests',
      event_name: 'api_requests',
      default_aggregation: { formula: 'sum' },
    });
    expect(meter).toMatchObject({
      id: expect.stringMatching(/^mtr_/),
      object: 'billing.meter',
      status: 'active',
      customer_mapping: { event_payload_key: 'stripe_customer_id', type: 'by_id' },
      value_settings: { event_payload_key: 'value' },
      livemode: false,
    });
    const again = await refusal(
      stripe.billing.meters.create({ display_name: 'Again', event_name: 'api_requests', default_aggregation: { formula: 'sum' } })
    );
    expect(again).toMatchObject({ statusCode: 400, code: 'resource_already_exists', param: 'event_name' });
    const listed = await stripe.billing.meters.list({ status: 'active' });
    expect(listed.data.map((entry) => entry.id)).toEqual([meter.id]);
  });

  it('creates flat and metered prices with lookup keys, as Stripe checks them', async () => {
    product = await stripe.products.create({ name: 'Pro', metadata: { plan_id: '3' } });
    expect(product).toMatchObject({ id: expect.stringMatching(/^prod_/), object: 'product', active: true, metadata: { plan_id: '3' } });
    expect(await stripe.products.update(product.id, { name: 'Pro plan' })).toMatchObject({ name: 'Pro plan' });
    expect(await refusal(stripe.products.retrieve('prod_missing'))).toMatchObject({ statusCode: 404, code: 'resource_missing' });

    flat = await stripe.prices.create({
      currency: 'eur',
      unit_amount: 1900,
      product: product.id,
      recurring: { interval: 'month' },
      lookup_key: 'pro_flat',
    });
    expect(flat).toMatchObject({
      object: 'price',
      type: 'recurring',
      unit_amount: 1900,
      lookup_key: 'pro_flat',
      recurring: { interval: 'month', usage_type: 'licensed', meter: null },
    });
    metered = await stripe.prices.create({
      currency: 'eur',
      unit_amount_decimal: Stripe.Decimal.from('0.4'),
      product: product.id,
      recurring: { interval: 'month', usage_type: 'metered', meter: meter.id },
      lookup_key: 'pro_metered',
    });
    expect(metered.unit_amount).toBeNull();
    expect(String(metered.unit_amount_decimal)).toBe('0.4');

    const noMeter = await refusal(
      stripe.prices.create({
        currency: 'eur',
        unit_amount: 1,
        product: product.id,
        recurring: { interval: 'month', usage_type: 'metered' },
      })
    );
    expect(noMeter).toMatchObject({ statusCode: 400, param: 'recurring[meter]' });
    const noProduct = await refusal(stripe.prices.create({ currency: 'eur', unit_amount: 1, product: 'prod_missing' }));
    expect(noProduct).toMatchObject({ statusCode: 400, code: 'resource_missing', param: 'product' });
    const badInterval = await raw('POST', '/v1/prices', `currency=eur&unit_amount=1&product=${product.id}&recurring[interval]=fortnight`);
    expect(badInterval).toMatchObject({ status: 400, body: { error: { type: 'invalid_request_error', param: 'recurring[interval]' } } });
    const unknown = await raw(
      'POST',
      '/v1/prices',
      `currency=eur&unit_amount=1&product=${product.id}&recurring[interval]=month&recurring[aggregate_usage]=sum`
    );
    expect(unknown.body.error).toMatchObject({ code: 'parameter_unknown', param: 'recurring[aggregate_usage]' });
  });

  it('keeps a lookup key on one price: a second one is refused unless it transfers the key', async () => {
    const duplicate = await refusal(
      stripe.prices.create({
        currency: 'eur',
        unit_amount: 2900,
        product: product.id,
        recurring: { interval: 'month' },
        lookup_key: 'pro_flat',
      })
    );
    expect(duplicate).toMatchObject({ statusCode: 400, param: 'lookup_key' });
    expect(duplicate.message).toContain(flat.id);

    const old = flat;
    flat = await stripe.prices.create({
      currency: 'eur',
      unit_amount: 2900,
      product: product.id,
      recurring: { interval: 'month' },
      lookup_key: 'pro_flat',
      transfer_lookup_key: true,
    });
    expect(flat.lookup_key).toBe('pro_flat');
    expect((await stripe.prices.retrieve(old.id)).lookup_key).toBeNull();
    expect(await stripe.prices.update(old.id, { active: false })).toMatchObject({ active: false });
    const amount = await raw('POST', `/v1/prices/${flat.id}`, 'unit_amount=100');
    expect(amount).toMatchObject({ status: 400, body: { error: { code: 'parameter_unknown', param: 'unit_amount' } } });
  });

  it('lists prices by lookup keys, as the SDK encodes them and with []', async () => {
    const listed = await stripe.prices.list({ lookup_keys: ['pro_flat', 'pro_metered'], active: true });
    expect(listed).toMatchObject({ object: 'list', has_more: false, url: '/v1/prices' });
    expect(listed.data.map((price) => price.id).sort()).toEqual([flat.id, metered.id].sort());
    expect(stub.requests.at(-1)?.query).toMatchObject({ 'lookup_keys[0]': 'pro_flat', 'lookup_keys[1]': 'pro_metered', active: 'true' });
    const brackets = await fetch(`http://127.0.0.1:${stub.port}/v1/prices?lookup_keys[]=pro_metered&lookup_keys[]=nothing`, {
      headers: { authorization: 'Bearer sk_test_x' },
    });
    expect(((await brackets.json()) as { data: Array<{ id: string }> }).data.map((price) => price.id)).toEqual([metered.id]);
    expect((await stripe.prices.list({ product: product.id, limit: 2 })).has_more).toBe(true);
  });
});

describe('customers', () => {
  it('creates a customer and finds it by metadata', async () => {
    customer = await stripe.customers.create({ email: 'alice@example.test', name: 'Alice', metadata: { consumer_id: 'abc' } });
    expect(customer).toMatchObject({
      id: expect.stringMatching(/^cus_/),
      object: 'customer',
      email: 'alice@example.test',
      metadata: { consumer_id: 'abc' },
    });
    await stripe.customers.create({ email: 'bob@example.test', metadata: { consumer_id: 'other' } });
    const found = await stripe.customers.search({ query: "metadata['consumer_id']:'abc'" });
    expect(found).toMatchObject({ object: 'search_result', has_more: false, next_page: null, url: '/v1/customers/search' });
    expect(found.data.map((entry) => entry.id)).toEqual([customer.id]);
    expect(await refusal(stripe.customers.create({ email: 'not-an-email' }))).toMatchObject({ statusCode: 400, param: 'email' });
  });
});

describe('subscription-mode Checkout', () => {
  const base = () => ({
    mode: 'subscription' as const,
    success_url: 'http://localhost/ok?session_id={CHECKOUT_SESSION_ID}',
    cancel_url: 'http://localhost/cancel',
  });
  let session: Stripe.Checkout.Session;

  it('refuses a quantity on a metered line and requires it on a licensed one', async () => {
    const quantity = await refusal(
      stripe.checkout.sessions.create({
        ...base(),
        customer: customer.id,
        line_items: [
          { price: flat.id, quantity: 1 },
          { price: metered.id, quantity: 1 },
        ],
      })
    );
    expect(quantity).toMatchObject({ statusCode: 400, param: 'line_items[1][quantity]' });
    expect(quantity.message).toBe('Quantity should not be specified where usage_type is `metered`. Remove quantity from `line_items[1]`');
    const none = await refusal(stripe.checkout.sessions.create({ ...base(), customer: customer.id, line_items: [{ price: flat.id }] }));
    expect(none).toMatchObject({ statusCode: 400, param: 'line_items[0][quantity]' });
    const stranger = await refusal(
      stripe.checkout.sessions.create({ ...base(), customer: 'cus_nobody', line_items: [{ price: flat.id, quantity: 1 }] })
    );
    expect(stranger).toMatchObject({ statusCode: 400, code: 'resource_missing', param: 'customer' });
    const noSuccess = await refusal(
      stripe.checkout.sessions.create({ mode: 'subscription', customer: customer.id, line_items: [{ price: flat.id, quantity: 1 }] })
    );
    expect(noSuccess).toMatchObject({ statusCode: 400, code: 'parameter_missing', param: 'success_url' });
  });

  it('opens a session with no subscription until it is completed', async () => {
    session = await stripe.checkout.sessions.create({
      ...base(),
      customer: customer.id,
      client_reference_id: 'abc',
      metadata: { plan_id: '3' },
      subscription_data: { metadata: { plan_id: '3', consumer_id: 'abc' } },
      line_items: [{ price: flat.id, quantity: 1 }, { price: metered.id }],
    });
    expect(session).toMatchObject({
      mode: 'subscription',
      status: 'open',
      payment_status: 'unpaid',
      subscription: null,
      customer: customer.id,
      amount_total: 2900,
      currency: 'eur',
    });
    expect(session.url).toBe(`http://127.0.0.1:${stub.port}/pay/${session.id}`);
  });

  it('completes: the subscription and its paid first invoice, then checkout.session.completed', async () => {
    const events = stub.completeCheckout(session.id);
    expect(types(events)).toEqual(['customer.subscription.created', 'invoice.paid', 'checkout.session.completed']);
    expect(stub.pending).toEqual(events);

    subscription = await stripe.subscriptions.retrieve(String(stub.sessions.get(session.id)?.subscription));
    expect(subscription).toMatchObject({
      id: expect.stringMatching(/^sub_/),
      object: 'subscription',
      customer: customer.id,
      status: 'active',
      currency: 'eur',
      cancel_at_period_end: false,
      metadata: { plan_id: '3', consumer_id: 'abc' },
      latest_invoice: expect.stringMatching(/^in_/),
      livemode: false,
    });
    const [licensed, usage] = subscription.items.data;
    expect(licensed).toMatchObject({
      id: expect.stringMatching(/^si_/),
      object: 'subscription_item',
      quantity: 1,
      subscription: subscription.id,
      price: { id: flat.id, unit_amount: 2900 },
    });
    expect(usage).toMatchObject({ price: { id: metered.id, recurring: { usage_type: 'metered', meter: meter.id } } });
    expect(usage.quantity).toBeUndefined();
    expect(licensed.current_period_end - licensed.current_period_start).toBeGreaterThanOrEqual(28 * 86400);

    const invoice = await stripe.invoices.retrieve(String(subscription.latest_invoice));
    expect(invoice).toMatchObject({ status: 'paid', amount_paid: 2900, billing_reason: 'subscription_create', customer: customer.id });
    expect(invoice.parent?.subscription_details?.subscription).toBe(subscription.id);

    const completed = await stripe.checkout.sessions.retrieve(session.id, { expand: ['subscription'] });
    expect(completed).toMatchObject({ status: 'complete', payment_status: 'paid' });
    expect((completed.subscription as Stripe.Subscription).id).toBe(subscription.id);
  });

  it('delivers the events signed as Stripe signs them, in order, with snapshots of the objects', async () => {
    stub.webhookTarget = { url: hooks.url, secret: SECRET };
    expect(await stub.flush()).toEqual([200, 200, 200]);
    expect(stub.pending).toEqual([]);
    const events: Stripe.Event[] = hooks.received.map((entry) => Stripe.webhooks.constructEvent(entry.body, entry.signature, SECRET));
    expect(events.map((event) => event.type)).toEqual(['customer.subscription.created', 'invoice.paid', 'checkout.session.completed']);
    for (const event of events) {
      expect(event).toMatchObject({
        id: expect.stringMatching(/^evt_/),
        object: 'event',
        api_version: '2026-10-28.endive',
        livemode: false,
        pending_webhooks: 1,
      });
    }
    const [created, paid, done] = events;
    if (created.type !== 'customer.subscription.created' || paid.type !== 'invoice.paid' || done.type !== 'checkout.session.completed')
      throw new Error('unexpected events');
    const snapshot: Stripe.Subscription = created.data.object;
    expect(snapshot.items.data[0].current_period_end).toBe(subscription.items.data[0].current_period_end);
    expect(paid.data.object.parent?.subscription_details?.subscription).toBe(subscription.id);
    expect(done.data.object.subscription).toBe(subscription.id);
    expect(() => Stripe.webhooks.constructEvent(hooks.received[0].body, hooks.received[0].signature, 'whsec_other')).toThrow(
      Stripe.errors.StripeSignatureVerificationError
    );

    // The same event again, and events out of order, for the app's idempotency.
    expect(await stub.post([stub.events[2], stub.events[0], stub.events[0]])).toEqual([200, 200, 200]);
    expect(hooks.received.slice(-3).map((entry) => (JSON.parse(entry.body) as { id: string }).id)).toEqual([
      stub.events[2].id,
      stub.events[0].id,
      stub.events[0].id,
    ]);
  });
});

describe('subscription changes', () => {
  let bigger: Stripe.Price;

  it('changes items with prorations and reports the change with previous_attributes', async () => {
    bigger = await stripe.prices.create({ currency: 'eur', unit_amount: 4900, product: product.id, recurring: { interval: 'month' } });
    const [licensed, usage] = subscription.items.data;
    const before = stub.events.length;
    const updated = await stripe.subscriptions.update(subscription.id, {
      items: [
        { id: licensed.id, price: bigger.id, quantity: 1 },
        { id: usage.id, price: metered.id },
      ],
      proration_behavior: 'always_invoice',
      metadata: { plan_id: '4' },
    });
    expect(updated.items.data.map((item) => [item.id, item.price.id])).toEqual([
      [licensed.id, bigger.id],
      [usage.id, metered.id],
    ]);
    expect(updated.metadata).toEqual({ plan_id: '4', consumer_id: 'abc' });
    const events = stub.events.slice(before);
    expect(types(events)).toEqual(['customer.subscription.updated', 'invoice.paid']);
    expect(events[0].data.previous_attributes).toMatchObject({
      metadata: { plan_id: '3', consumer_id: 'abc' },
      items: { data: [{ price: { id: flat.id } }, { price: { id: metered.id } }] },
    });
    expect(events[0].request.idempotency_key).toEqual(expect.any(String));
    const proration = events[1].data.object as Stripe.Invoice;
    expect(proration).toMatchObject({ billing_reason: 'subscription_update', status: 'paid' });
    expect(proration.amount_paid).toBeGreaterThan(1900);
    expect(proration.amount_paid).toBeLessThanOrEqual(2000);
  });

  it('refuses what Stripe refuses', async () => {
    const [licensed, usage] = (await stripe.subscriptions.retrieve(subscription.id)).items.data;
    const quantity = await refusal(stripe.subscriptions.update(subscription.id, { items: [{ id: usage.id, quantity: 3 }] }));
    expect(quantity).toMatchObject({ statusCode: 400, param: 'items[0][quantity]' });
    const stranger = await refusal(stripe.subscriptions.update(subscription.id, { items: [{ id: 'si_nobody', price: flat.id }] }));
    expect(stranger).toMatchObject({ statusCode: 400, param: 'items[0][id]' });
    const behaviour = await raw('POST', `/v1/subscriptions/${subscription.id}`, 'proration_behavior=sometimes');
    expect(behaviour).toMatchObject({ status: 400, body: { error: { param: 'proration_behavior' } } });
    const twice = await refusal(stripe.subscriptions.update(subscription.id, { items: [{ id: licensed.id, price: metered.id }] }));
    expect(twice).toMatchObject({ statusCode: 400, param: 'items' });
    expect(await refusal(stripe.subscriptions.retrieve('sub_nobody'))).toMatchObject({ statusCode: 404, code: 'resource_missing' });
  });

  it('cancels at period end and back', async () => {
    const cancelling = await stripe.subscriptions.update(subscription.id, { cancel_at_period_end: true });
    expect(cancelling).toMatchObject({ cancel_at_period_end: true, cancel_at: cancelling.items.data[0].current_period_end });
    expect(stub.events.at(-1)?.data.previous_attributes).toMatchObject({ cancel_at_period_end: false, cancel_at: null });
    const kept = await stripe.subscriptions.update(subscription.id, { cancel_at_period_end: false });
    expect(kept).toMatchObject({ cancel_at_period_end: false, cancel_at: null });
  });

  it('opens the customer portal', async () => {
    const portal = await stripe.billingPortal.sessions.create({ customer: customer.id, return_url: 'http://localhost/account' });
    expect(portal).toMatchObject({
      id: expect.stringMatching(/^bps_/),
      object: 'billing_portal.session',
      customer: customer.id,
      return_url: 'http://localhost/account',
      livemode: false,
    });
    const page = await fetch(portal.url);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('http://localhost/account');
    expect(await refusal(stripe.billingPortal.sessions.create({ customer: 'cus_nobody' }))).toMatchObject({
      statusCode: 400,
      param: 'customer',
    });
  });
});

describe('meter events', () => {
  it('counts an identifier once and checks the payload', async () => {
    const event = await stripe.billing.meterEvents.create({
      event_name: 'api_requests',
      payload: { stripe_customer_id: customer.id, value: '3' },
      identifier: 'report-1',
    });
    expect(event).toMatchObject({
      object: 'billing.meter_event',
      event_name: 'api_requests',
      identifier: 'report-1',
      payload: { value: '3' },
      livemode: false,
    });
    const again = await refusal(
      stripe.billing.meterEvents.create({
        event_name: 'api_requests',
        payload: { stripe_customer_id: customer.id, value: '3' },
        identifier: 'report-1',
      })
    );
    expect(again).toMatchObject({ statusCode: 400, type: 'StripeInvalidRequestError', code: 'resource_already_exists' });
    expect(again.message).toContain('report-1');
    await stripe.billing.meterEvents.create({ event_name: 'api_requests', payload: { stripe_customer_id: customer.id, value: '2' } });
    expect(stub.meterTotal(customer.id)).toBe(5);
    expect(stub.store.meterEvents).toHaveLength(2);

    const stranger = await refusal(
      stripe.billing.meterEvents.create({ event_name: 'api_requests', payload: { stripe_customer_id: 'cus_nobody', value: '1' } })
    );
    expect(stranger).toMatchObject({ statusCode: 400, param: 'payload[stripe_customer_id]' });
    const words = await refusal(
      stripe.billing.meterEvents.create({ event_name: 'api_requests', payload: { stripe_customer_id: customer.id, value: 'three' } })
    );
    expect(words).toMatchObject({ statusCode: 400, param: 'payload[value]' });
    const old = await refusal(
      stripe.billing.meterEvents.create({
        event_name: 'api_requests',
        payload: { stripe_customer_id: customer.id, value: '1' },
        timestamp: Math.floor(Date.now() / 1000) - 40 * 86400,
      })
    );
    expect(old).toMatchObject({ statusCode: 400, param: 'timestamp' });
    const noMeter = await refusal(
      stripe.billing.meterEvents.create({ event_name: 'nothing', payload: { stripe_customer_id: customer.id, value: '1' } })
    );
    expect(noMeter).toMatchObject({ statusCode: 400, param: 'event_name' });
    expect(stub.meterTotal(customer.id)).toBe(5);
  });
});

describe("the subscription's life", () => {
  it("fails a renewal: an open invoice with the period's usage, the subscription past_due", async () => {
    const before = stub.store.subscriptions.get(subscription.id)?.items.data[0].current_period_end;
    const events = stub.failPayment(subscription.id);
    expect(types(events)).toEqual(['invoice.payment_failed', 'customer.subscription.updated']);
    const invoice = events[0].data.object as Stripe.Invoice;
    // 4900 for the next month, and 5 requests at 0.4 cents.
    expect(invoice).toMatchObject({
      status: 'open',
      attempt_count: 1,
      amount_due: 4902,
      amount_paid: 0,
      billing_reason: 'subscription_cycle',
    });
    expect(invoice.lines.data.map((line) => line.amount).sort((a, b) => a - b)).toEqual([2, 4900]);
    expect(stub.store.subscriptions.get(subscription.id)).toMatchObject({ status: 'past_due', latest_invoice: invoice.id });
    expect(stub.store.subscriptions.get(subscription.id)?.items.data[0].current_period_start).toBe(before);
    expect(events[1].data.previous_attributes).toMatchObject({ status: 'active' });
  });

  it('pays the open invoice: active again', () => {
    const events = stub.payInvoice(subscription.id);
    expect(types(events)).toEqual(['invoice.paid', 'customer.subscription.updated']);
    expect(events[0].data.object).toMatchObject({ status: 'paid', amount_paid: 4902, amount_remaining: 0 });
    expect(stub.store.subscriptions.get(subscription.id)?.status).toBe('active');
    expect(() => stub.payInvoice(subscription.id)).toThrow('no open invoice');
  });

  it('renews: the periods move on a month and the next invoice is paid', () => {
    const item = () => stub.store.subscriptions.get(subscription.id)?.items.data[0];
    const start = item()?.current_period_end;
    const events = stub.renew(subscription.id);
    expect(types(events)).toEqual(['customer.subscription.updated', 'invoice.paid']);
    expect(item()?.current_period_start).toBe(start);
    expect(new Date((item()?.current_period_end ?? 0) * 1000).getUTCMonth()).toBe((new Date((start ?? 0) * 1000).getUTCMonth() + 1) % 12);
    expect(events[1].data.object).toMatchObject({ status: 'paid', amount_paid: 4900 });
  });

  it('ends: canceled, ended_at set, customer.subscription.deleted', () => {
    const events = stub.endSubscription(subscription.id);
    expect(types(events)).toEqual(['customer.subscription.deleted']);
    expect(events[0].data.object).toMatchObject({ id: subscription.id, status: 'canceled', ended_at: expect.any(Number) });
    expect(() => stub.endSubscription(subscription.id)).toThrow('already canceled');
  });

  it('cancels through the API as well', async () => {
    const session = await stripe.checkout.sessions.create({
      mode: 'subscription',
      customer_email: 'carol@example.test',
      success_url: 'http://localhost/ok',
      line_items: [{ price: flat.id, quantity: 2 }],
    });
    stub.completeCheckout(session.id);
    const id = String(stub.sessions.get(session.id)?.subscription);
    expect(stub.store.customers.get(String(stub.sessions.get(session.id)?.customer))?.email).toBe('carol@example.test');
    const canceled = await stripe.subscriptions.cancel(id);
    expect(canceled).toMatchObject({ status: 'canceled', canceled_at: expect.any(Number) });
    expect(stub.events.at(-1)).toMatchObject({ type: 'customer.subscription.deleted', data: { object: { id } } });
    expect(await refusal(stripe.subscriptions.update(id, { proration_behavior: 'none' }))).toMatchObject({ statusCode: 400 });
  });
});

describe('the stub itself', () => {
  it('answers the first result again for an idempotency key, and refuses the key with other parameters', async () => {
    const first = await stripe.customers.create({ email: 'dave@example.test' }, { idempotencyKey: 'customer-dave' });
    const second = await stripe.customers.create({ email: 'dave@example.test' }, { idempotencyKey: 'customer-dave' });
    expect(second.id).toBe(first.id);
    const other = await refusal(stripe.customers.create({ email: 'erin@example.test' }, { idempotencyKey: 'customer-dave' }));
    expect(other).toMatchObject({ statusCode: 400, type: 'StripeIdempotencyError' });
  });

  it('is down while `down` is set', async () => {
    stub.down = 503;
    const refused = await refusal(stripe.prices.list({ lookup_keys: ['pro_flat'] }));
    expect(refused).toMatchObject({ statusCode: 503, message: 'stub is down' });
    stub.down = null;
    expect((await stripe.prices.list({ lookup_keys: ['pro_flat'] })).data).toHaveLength(1);
  });

  it('serves a "Pay" page that completes the session, delivers its events and redirects to the success URL', async () => {
    const session = await stripe.checkout.sessions.create({
      mode: 'subscription',
      customer: customer.id,
      success_url: 'http://localhost/ok?session_id={CHECKOUT_SESSION_ID}',
      line_items: [{ price: flat.id, quantity: 1 }],
    });
    const page = await fetch(String(session.url));
    expect(await page.text()).toContain(`<form method="post" action="/pay/${session.id}"><button type="submit">Pay</button></form>`);
    stub.pending.splice(0);
    const delivered = hooks.received.length;
    const paid = await fetch(String(session.url), { method: 'POST', redirect: 'manual' });
    expect(paid.status).toBe(303);
    expect(paid.headers.get('location')).toBe(`http://localhost/ok?session_id=${session.id}`);
    expect(hooks.received.slice(delivered).map((entry) => (JSON.parse(entry.body) as { type: string }).type)).toEqual([
      'customer.subscription.created',
      'invoice.paid',
      'checkout.session.completed',
    ]);
    expect(stub.pending).toEqual([]);
  });

  it('still answers payment-mode sessions as before', async () => {
    const session = await stripe.checkout.sessions.create({
      mode: 'payment',
      allowed_payment_method_types: ['card'],
      line_items: [{ quantity: 2, price_data: { currency: 'usd', unit_amount: 1250, product_data: { name: 'Mug' } } }],
      metadata: { order_id: '42' },
      success_url: 'http://localhost:3000/ok',
    });
    expect(session).toMatchObject({
      mode: 'payment',
      amount_total: 2500,
      currency: 'usd',
      payment_method_types: ['card'],
      metadata: { order_id: '42' },
    });
    expect(stub.requests.at(-1)?.form).toMatchObject({ 'line_items[0][price_data][unit_amount]': '1250' });
    expect(types(stub.completeCheckout(session.id))).toEqual(['checkout.session.completed']);
    expect(stub.sessions.get(session.id)).toMatchObject({
      status: 'complete',
      payment_status: 'paid',
      payment_intent: expect.stringMatching(/^pi_/),
    });
  });
});

describe('yearly prices, mixed intervals and trials', () => {
  const base = () => ({
    mode: 'subscription' as const,
    success_url: 'http://localhost/ok?session_id={CHECKOUT_SESSION_ID}',
  });
  const MIXED = 'Currency and interval fields must match across all plans on this subscription. Found mismatch in interval field.';
  let yearly: Stripe.Price;
  let buyer: Stripe.Customer;

  beforeAll(async () => {
    yearly = await stripe.prices.create({ currency: 'eur', unit_amount: 19000, product: product.id, recurring: { interval: 'year' } });
    buyer = await stripe.customers.create({ email: 'yearly@example.test' });
  });

  it('refuses one Checkout Session mixing a yearly and a monthly price, in any billing mode, as Stripe answers it', async () => {
    for (const type of ['classic', 'flexible'] as const) {
      const mixed = await refusal(
        stripe.checkout.sessions.create({
          ...base(),
          customer: buyer.id,
          line_items: [{ price: yearly.id, quantity: 1 }, { price: metered.id }],
          subscription_data: { billing_mode: { type } },
        })
      );
      expect(mixed).toMatchObject({ statusCode: 400, type: 'StripeInvalidRequestError', param: 'line_items', message: MIXED });
    }
    const body = await raw(
      'POST',
      '/v1/checkout/sessions',
      `mode=subscription&success_url=http://localhost/ok&line_items[0][price]=${yearly.id}&line_items[0][quantity]=1&line_items[1][price]=${metered.id}`
    );
    expect(body).toEqual({ status: 400, body: { error: { type: 'invalid_request_error', message: MIXED, param: 'line_items' } } });
  });

  it('takes a trial of 1 to 730 days: the subscription trialing, its first invoice for nothing, then active when it ends', async () => {
    for (const days of [0, 731]) {
      const refused = await refusal(
        stripe.checkout.sessions.create({
          ...base(),
          customer: buyer.id,
          line_items: [{ price: yearly.id, quantity: 1 }],
          subscription_data: { trial_period_days: days },
        })
      );
      expect(refused).toMatchObject({ statusCode: 400, param: 'subscription_data[trial_period_days]' });
    }
    const session = await stripe.checkout.sessions.create({
      ...base(),
      customer: buyer.id,
      line_items: [{ price: yearly.id, quantity: 1 }],
      subscription_data: { trial_period_days: 14 },
    });
    expect(session.amount_total).toBe(0);
    stub.completeCheckout(session.id);
    const trialing = await stripe.subscriptions.retrieve(String(stub.sessions.get(session.id)?.subscription));
    expect(trialing).toMatchObject({ status: 'trialing', billing_mode: { type: 'flexible' } });
    expect(Number(trialing.trial_end) - Number(trialing.trial_start)).toBe(14 * 86400);
    expect(trialing.items.data[0].current_period_end).toBe(trialing.trial_end);
    expect(await stripe.invoices.retrieve(String(trialing.latest_invoice))).toMatchObject({ status: 'paid', amount_paid: 0 });

    const events = stub.endTrial(trialing.id);
    expect(types(events)).toEqual(['customer.subscription.updated', 'invoice.paid']);
    expect(events[0].data.previous_attributes).toMatchObject({ status: 'trialing' });
    const active = await stripe.subscriptions.retrieve(trialing.id);
    expect(active.status).toBe('active');
    const [item] = active.items.data;
    expect(item.current_period_end - item.current_period_start).toBeGreaterThanOrEqual(365 * 86400);
    expect((events[1].data.object as Stripe.Invoice).amount_paid).toBe(19000);
    stub.pending.splice(0);
  });

  it('adds a monthly item to a yearly subscription in flexible billing mode only, with its own period', async () => {
    const make = async (type: 'classic' | 'flexible') => {
      const session = await stripe.checkout.sessions.create({
        ...base(),
        customer: buyer.id,
        line_items: [{ price: yearly.id, quantity: 1 }],
        subscription_data: { billing_mode: { type } },
      });
      stub.completeCheckout(session.id);
      stub.pending.splice(0);
      return String(stub.sessions.get(session.id)?.subscription);
    };
    const classic = await make('classic');
    const refused = await refusal(stripe.subscriptions.update(classic, { items: [{ price: metered.id }], proration_behavior: 'none' }));
    expect(refused).toMatchObject({ statusCode: 400, param: 'items', message: MIXED });
    expect((await stripe.subscriptions.retrieve(classic)).items.data).toHaveLength(1);

    const flexible = await make('flexible');
    const updated = await stripe.subscriptions.update(flexible, { items: [{ price: metered.id }], proration_behavior: 'none' });
    const [flatItem, usageItem] = updated.items.data;
    expect([flatItem.price.recurring?.interval, usageItem.price.recurring?.interval]).toEqual(['year', 'month']);
    expect(usageItem.current_period_end - usageItem.current_period_start).toBeLessThanOrEqual(31 * 86400);
    expect(flatItem.current_period_end - flatItem.current_period_start).toBeGreaterThanOrEqual(365 * 86400);
    expect(() => stub.renew(flexible)).toThrow(/mixes intervals/);
    stub.pending.splice(0);
  });
});
