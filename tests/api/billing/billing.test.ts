import { metricsOf, movedBetween } from '../../helpers/metrics';
import type Stripe from 'stripe';
import { startApp, type TestApp } from '../../helpers/app';
import { stripeEnv, STRIPE_WEBHOOK_SECRET } from '../../helpers/commerce';
import { createPlan, issueKey, planId } from '../../helpers/keys';
import { startReceiver, type Receiver } from '../../helpers/receiver';
import { startStripeStub, type StripeStub } from '../../helpers/stripe-stub';
import { grantPlan, registerUser, type TestUser } from '../../helpers/users';
import { eventOf, posts, subscribe, waitForPosts } from '../../helpers/webhooks';
import { eventually, quietFor } from '../../helpers/wait';

/**
 * Self-serve plans with Stripe Billing (docs/billing.md), against the local Stripe stub, which
 * checks what Stripe checks and signs its events as Stripe does: a consumer buys a plan, their
 * keys move to it at once, changes plan, fails a payment, falls back after the grace period,
 * pays again, cancels; the same event twice and events out of order leave Stripe's latest state;
 * requests over the quota on a plan with overage are served, marked and reported once.
 */
let app: TestApp;
let stub: StripeStub;
let receiver: Receiver;
let alice: TestUser;
let bob: TestUser;
let free: number;
let pro: number;
let enterprise: number;
let metered: number;

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

const as = (user: TestUser) => ({ Authorization: `Bearer ${user.jwt}` });
const subscriptionOf = async (user: TestUser) => (await app.request().get('/api/v1/billing/subscription').set(as(user))).body.data;
const keyPlans = async (user: TestUser) =>
  ((await app.request().get('/api/v1/keys').set(as(user))).body.data as Array<{ plan_id: number }>).map((key) => key.plan_id);
const billing = (name: string) => app.strapi.plugin('api-suite').service(name);

/** Buy `plan` as `user` and complete the checkout in the stub; Stripe's events reach the app. */
async function buy(user: TestUser, plan: number): Promise<{ sessionId: string; subscriptionId: string }> {
  const response = await app.request().post('/api/v1/billing/checkout').set(as(user)).send({ plan_id: plan });
  if (response.status !== 200) throw new Error(`checkout failed: ${response.status} ${JSON.stringify(response.body)}`);
  stub.completeCheckout(response.body.data.session_id);
  expect(await stub.flush()).toEqual([200, 200, 200]);
  const session = stub.sessions.get(response.body.data.session_id) as unknown as { subscription: string };
  return { sessionId: response.body.data.session_id, subscriptionId: session.subscription };
}

beforeAll(async () => {
  stub = await startStripeStub();
  receiver = await startReceiver();
  app = await startApp({ env: { ...stripeEnv(stub), STRIPE_CURRENCY: 'eur' } });
  stub.webhookTarget = { url: `${app.url}/api/webhook/stripe`, secret: STRIPE_WEBHOOK_SECRET };
  [free, pro, enterprise] = await Promise.all([planId(app, 'free'), planId(app, 'pro'), planId(app, 'enterprise')]);
  metered = await createPlan(app, {
    name: 'metered',
    requests_per_month: 3,
    requests_per_minute: 100,
    endpoints: ['@public'],
    price_monthly: 10,
    overage_unit_amount: 50,
  });
  alice = await registerUser(app);
  bob = await registerUser(app);
  // Webhooks are beyond the free plan: an administrator lends Alice a plan to subscribe, then takes it back.
  await grantPlan(app, alice, 'enterprise');
  await subscribe(app, alice, {
    endpoint_url: `${receiver.url}/alice`,
    events: ['billing.subscription.created', 'billing.subscription.updated', 'billing.subscription.canceled', 'billing.payment_failed'],
  });
  await grantPlan(app, alice, null);
  // Provisioning runs in the background at boot and again after the plan was created.
  await eventually(
    async () => {
      const plans = await app.request().get('/api/v1/billing/plans');
      return plans.status === 200 &&
        (plans.body.data as Array<{ id: number }>).some((plan) => plan.id === metered) &&
        stub.store.prices.size >= 4
        ? true
        : undefined;
    },
    20_000,
    'billing provisioned'
  );
});

afterAll(async () => {
  await app?.close();
  await Promise.all([stub?.close(), receiver?.close()]);
});

describe('provisioning', () => {
  it('creates one meter, a product per sellable plan, flat prices and a metered price, found by lookup key', () => {
    const meters = [...stub.store.meters.values()];
    expect(meters).toHaveLength(1);
    expect(meters[0]).toMatchObject({ event_name: 'api_requests', default_aggregation: { formula: 'sum' } });
    const prices = [...stub.store.prices.values()].filter((price) => price.active);
    const byKey = Object.fromEntries(prices.map((price) => [price.lookup_key, price]));
    expect(Object.keys(byKey).sort()).toEqual(
      [`api-suite:${enterprise}:flat`, `api-suite:${metered}:flat`, `api-suite:${metered}:metered`, `api-suite:${pro}:flat`].sort()
    );
    expect(byKey[`api-suite:${pro}:flat`]).toMatchObject({
      unit_amount: 4900,
      currency: 'eur',
      recurring: { interval: 'month', usage_type: 'licensed' },
    });
    expect(byKey[`api-suite:${metered}:metered`]).toMatchObject({
      currency: 'eur',
      recurring: { interval: 'month', usage_type: 'metered', meter: meters[0].id },
    });
    expect(Number(byKey[`api-suite:${metered}:metered`].unit_amount_decimal)).toBe(0.05);
    expect(stub.store.products.size).toBe(3);
  });

  it('records the Stripe ids on the plans', async () => {
    const row = await app.strapi.db.query('plugin::api-suite.plan').findOne({ where: { id: metered } });
    expect(row.stripe_product_id).toMatch(/^prod_/);
    expect(row.stripe_price_id).toBe(stub.store.prices.get(row.stripe_price_id)?.id);
    expect(row.stripe_metered_price_id).toMatch(/^price_/);
  });

  it('runs again on every plan change without making anything twice, and moves a changed price', async () => {
    const pricesBefore = stub.store.prices.size;
    await billing('billing-catalog').sync();
    expect(stub.store.prices.size).toBe(pricesBefore);
    await app.strapi.db.query('plugin::api-suite.plan').update({ where: { id: enterprise }, data: { price_monthly: 599 } });
    await eventually(
      async () => ([...stub.store.prices.values()].some((price) => price.active && price.unit_amount === 59900) ? true : undefined),
      10_000,
      'new price'
    );
    await billing('billing-catalog').sync();
    const enterprisePrices = [...stub.store.prices.values()].filter((price) => price.metadata.plan_id === String(enterprise));
    expect(enterprisePrices.map((price) => [price.unit_amount, price.active, price.lookup_key])).toEqual([
      [49900, false, null],
      [59900, true, `api-suite:${enterprise}:flat`],
    ]);
  });
});

describe('GET /api/v1/billing/plans', () => {
  it('lists the sellable plans and the default plan, with currency and overage, without a credential', async () => {
    const response = await app.request().get('/api/v1/billing/plans');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      data: [
        {
          id: free,
          name: 'free',
          price_monthly: 0,
          currency: 'eur',
          requests_per_month: 1000,
          requests_per_minute: 10,
          overage_unit_amount: null,
          price_yearly: null,
          trial_days: 0,
          endpoints: ['GET /api/v1/articles*'],
        },
        {
          id: metered,
          name: 'metered',
          price_monthly: 10,
          currency: 'eur',
          requests_per_month: 3,
          requests_per_minute: 100,
          overage_unit_amount: 50,
          price_yearly: null,
          trial_days: 0,
          endpoints: ['GET /api/v1/articles*'],
        },
        expect.objectContaining({ id: pro, name: 'pro', price_monthly: 49, overage_unit_amount: null }),
        expect.objectContaining({ id: enterprise, name: 'enterprise', price_monthly: 599 }),
      ],
    });
  });
});

describe('buying a plan', () => {
  let subscriptionId: string;

  it('needs a credential', async () => {
    const response = await app.request().post('/api/v1/billing/checkout').send({ plan_id: pro });
    expect(response.status).toBe(401);
    expect(response.body.error.code).toBe('api_key_required');
  });

  it('refuses the default plan, a free plan, an unknown plan and a bad body with 400', async () => {
    for (const [body, code] of [
      [{ plan_id: free }, 'invalid_plan'],
      [{ plan_id: 99999 }, 'invalid_plan'],
      [{ plan_id: 'pro' }, 'validation_error'],
      [{ plan_id: pro, extra: 1 }, 'validation_error'],
    ] as const) {
      const response = await app.request().post('/api/v1/billing/checkout').set(as(alice)).send(body);
      expect(response.status).toBe(400);
      expect(response.body.error.code).toBe(code);
    }
  });

  it('answers a subscription-mode Checkout Session with the flat price and the metered one without quantity', async () => {
    const response = await app.request().post('/api/v1/billing/checkout').set(as(bob)).send({ plan_id: metered });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      data: { session_id: expect.stringMatching(/^cs_test_/), url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/pay\/cs_test_/) },
    });
    const request = stub.requests.filter((entry) => entry.method === 'POST' && entry.path === '/v1/checkout/sessions').at(-1);
    const plan = await app.strapi.db.query('plugin::api-suite.plan').findOne({ where: { id: metered } });
    expect(request?.form).toMatchObject({
      mode: 'subscription',
      'line_items[0][price]': plan.stripe_price_id,
      'line_items[0][quantity]': '1',
      'line_items[1][price]': plan.stripe_metered_price_id,
      client_reference_id: bob.consumer_id,
      'metadata[plan_id]': String(metered),
    });
    expect(request?.form['line_items[1][quantity]']).toBeUndefined();
    expect(request?.form.success_url).toMatch(/\/portal\?checkout=success&session_id=\{CHECKOUT_SESSION_ID\}$/);
    const customer = stub.store.customers.get(request?.form.customer as string);
    expect(customer?.metadata).toEqual({ consumer_id: bob.consumer_id });
  });

  it('creates one Stripe customer per consumer, even for concurrent first requests', async () => {
    const carol = await registerUser(app);
    const answers = await Promise.all(
      [1, 2, 3].map(() => app.request().post('/api/v1/billing/checkout').set(as(carol)).send({ plan_id: pro }))
    );
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200]);
    const customers = [...stub.store.customers.values()].filter((customer) => customer.metadata.consumer_id === carol.consumer_id);
    expect(customers).toHaveLength(1);
  });

  it('moves every key of the consumer to the bought plan once Stripe reports the payment, and new keys too', async () => {
    await issueKey(app, alice, { name: 'before' });
    expect(await keyPlans(alice)).toEqual([free]);
    ({ subscriptionId } = await buy(alice, pro));
    expect(await keyPlans(alice)).toEqual([pro]);
    const fresh = await issueKey(app, alice, { name: 'after' });
    expect(fresh.plan_id).toBe(pro);
    const subscription = await subscriptionOf(alice);
    expect(subscription).toEqual({
      plan_id: pro,
      status: 'active',
      interval: 'month',
      current_period_end: expect.stringMatching(ISO),
      cancel_at_period_end: false,
      grace_until: null,
      trial_end: null,
      overage: { unit_amount: null, requests_this_period: 0, reported: 0 },
    });
    expect(new Date(subscription.current_period_end).getTime()).toBeGreaterThan(Date.now() + 27 * 86_400_000);
    const [created] = await waitForPosts(receiver, 1, (request) => request.headers['x-webhook-event'] === 'billing.subscription.created');
    expect(eventOf(created).data).toMatchObject({
      consumer_id: alice.consumer_id,
      subscription_id: subscriptionId,
      plan_id: pro,
      status: 'active',
    });
  });

  it('refuses a second checkout while the subscription is live', async () => {
    const response = await app.request().post('/api/v1/billing/checkout').set(as(alice)).send({ plan_id: enterprise });
    expect(response.status).toBe(409);
    expect(response.body.error.code).toBe('already_subscribed');
  });

  it('applies an event once: the same event again changes nothing and publishes nothing', async () => {
    const completed = stub.events.filter((event) => event.type === 'checkout.session.completed').at(-1) as Stripe.Event;
    const before = posts(receiver).length;
    expect(await stub.post([completed])).toEqual([200]);
    // An applied event's webhooks are published as it is applied: a second publish would arrive within this.
    expect(await quietFor(500, () => posts(receiver).length, 'deliveries')).toBe(before);
    expect(await keyPlans(alice)).toEqual([pro, pro]);
  });

  it("changes plan with proration, and a late event of the old state leaves Stripe's latest", async () => {
    const stale = stub.events.filter((event) => event.type === 'customer.subscription.created').at(-1) as Stripe.Event;
    const response = await app.request().post('/api/v1/billing/change-plan').set(as(alice)).send({ plan_id: enterprise });
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({ plan_id: enterprise, status: 'active', cancel_at_period_end: false });
    const update = stub.requests.filter((entry) => entry.path === `/v1/subscriptions/${subscriptionId}` && entry.method === 'POST').at(-1);
    expect(update?.form).toMatchObject({ proration_behavior: 'create_prorations', 'items[0][quantity]': '1' });
    expect(await keyPlans(alice)).toEqual([enterprise, enterprise]);
    await stub.flush();
    // The snapshot inside this event says pro; the subscription in Stripe says enterprise.
    expect(await stub.post([{ ...stale, id: 'evt_stale_replay' }])).toEqual([200]);
    expect((await subscriptionOf(alice)).plan_id).toBe(enterprise);
    expect(await keyPlans(alice)).toEqual([enterprise, enterprise]);

    // Down to pro and up again: the subscription's one flat item changes price each time.
    for (const plan of [pro, enterprise]) {
      const changed = await app.request().post('/api/v1/billing/change-plan').set(as(alice)).send({ plan_id: plan });
      expect(changed.status).toBe(200);
      expect(changed.body.data).toMatchObject({ plan_id: plan, status: 'active' });
      expect(await keyPlans(alice)).toEqual([plan, plan]);
      const inStripe = stub.store.subscriptions.get(subscriptionId);
      const row = await app.strapi.db.query('plugin::api-suite.plan').findOne({ where: { id: plan } });
      expect(inStripe?.items.data.map((item) => item.price.id)).toEqual([row.stripe_price_id]);
    }
    await stub.flush();
  });

  it("keeps the plan through a failed payment's grace period, falls back after it, and comes back when paid", async () => {
    stub.failPayment(subscriptionId);
    await stub.flush();
    const pastDue = await subscriptionOf(alice);
    expect(pastDue).toMatchObject({ plan_id: enterprise, status: 'past_due', grace_until: expect.stringMatching(ISO) });
    const grace = new Date(pastDue.grace_until).getTime() - Date.now();
    expect(grace).toBeGreaterThan(7 * 86_400_000 - 60_000);
    expect(grace).toBeLessThanOrEqual(7 * 86_400_000);
    expect(await keyPlans(alice)).toEqual([enterprise, enterprise]);
    const [failed] = await waitForPosts(receiver, 1, (request) => request.headers['x-webhook-event'] === 'billing.payment_failed');
    expect(eventOf(failed).data).toMatchObject({
      subscription_id: subscriptionId,
      status: 'past_due',
      invoice_id: expect.stringMatching(/^in_/),
    });

    expect(await billing('billing-subscriptions').sweep(new Date(Date.now() + 8 * 86_400_000))).toBe(1);
    expect(await keyPlans(alice)).toEqual([free, free]);
    expect(await subscriptionOf(alice)).toMatchObject({ plan_id: free, status: 'past_due' });

    stub.payInvoice(subscriptionId);
    await stub.flush();
    expect(await subscriptionOf(alice)).toMatchObject({ plan_id: enterprise, status: 'active', grace_until: null });
    expect(await keyPlans(alice)).toEqual([enterprise, enterprise]);
  });

  it('opens the Stripe Billing Portal for a customer, and refuses without one', async () => {
    const response = await app.request().post('/api/v1/billing/portal').set(as(alice));
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ data: { url: expect.stringMatching(/^http/) } });
    const dave = await registerUser(app);
    const refused = await app.request().post('/api/v1/billing/portal').set(as(dave));
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('no_customer');
    const noSubscription = await app.request().post('/api/v1/billing/change-plan').set(as(dave)).send({ plan_id: pro });
    expect(noSubscription.status).toBe(409);
    expect(noSubscription.body.error.code).toBe('no_subscription');
    expect(await subscriptionOf(dave)).toEqual({
      plan_id: free,
      status: 'none',
      interval: null,
      current_period_end: null,
      cancel_at_period_end: false,
      grace_until: null,
      trial_end: null,
      overage: { unit_amount: null, requests_this_period: 0, reported: 0 },
    });
  });

  it('cancels at period end when changing to the default plan, and falls back when Stripe ends it', async () => {
    const response = await app.request().post('/api/v1/billing/change-plan').set(as(alice)).send({ plan_id: free });
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({ plan_id: enterprise, status: 'active', cancel_at_period_end: true });
    stub.endSubscription(subscriptionId);
    await stub.flush();
    expect(await subscriptionOf(alice)).toMatchObject({ plan_id: free, status: 'canceled' });
    expect(await keyPlans(alice)).toEqual([free, free]);
    const [canceled] = await waitForPosts(receiver, 1, (request) => request.headers['x-webhook-event'] === 'billing.subscription.canceled');
    expect(eventOf(canceled).data).toMatchObject({ subscription_id: subscriptionId, status: 'canceled' });
  });
});

describe('overage', () => {
  it('serves requests over the monthly quota, marks them, and reports them to Stripe once', async () => {
    await buy(bob, metered);
    const key = await issueKey(app, bob, { name: 'metered' });
    expect(key.plan_id).toBe(metered);
    const answers = [];
    for (let index = 0; index < 5; index += 1) answers.push(await app.request().get('/api/v1/articles').set('X-API-Key', key.key));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200]);
    expect(answers.map((answer) => answer.headers['x-overage'])).toEqual([undefined, undefined, undefined, 'true', 'true']);
    expect(answers.map((answer) => answer.headers['x-ratelimit-monthly-remaining'])).toEqual(['2', '1', '0', '0', '0']);

    const customer = (await billing('billing-account').customerOf(bob.consumer_id)) as string;
    const before = await metricsOf(app);
    expect(await billing('billing-metering').report()).toBe(1);
    const moved = movedBetween(before, await metricsOf(app));
    expect(moved('api_suite_billing_meter_events_total{outcome="sent"}')).toBe(1);
    expect(stub.meterTotal(customer)).toBe(2);
    expect(stub.store.meterEvents.at(-1)).toMatchObject({
      event_name: 'api_requests',
      payload: { stripe_customer_id: customer, value: '2' },
    });
    // Nothing new: nothing sent.
    expect(await billing('billing-metering').report()).toBe(0);
    expect((await subscriptionOf(bob)).overage).toEqual({ unit_amount: 50, requests_this_period: 2, reported: 2 });

    // A report written but not recorded as sent (the process died after sending) goes again under its identifier, and counts once.
    await app.request().get('/api/v1/articles').set('X-API-Key', key.key);
    await billing('usage').flush();
    const reports = () => app.strapi.db.connection('api_suite_billing_reports');
    expect(await billing('billing-metering').report()).toBe(1);
    expect(stub.meterTotal(customer)).toBe(3);
    const last = (await reports().where({ consumer_id: bob.consumer_id }).orderBy('id', 'desc').first()) as { id: number };
    await reports().where({ id: last.id }).update({ status: 'pending' });
    expect(await billing('billing-metering').report()).toBe(1);
    expect(stub.meterTotal(customer)).toBe(3);
    expect(await reports().where({ consumer_id: bob.consumer_id, status: 'pending' })).toEqual([]);
  });
});

describe('Stripe refusing a request', () => {
  it('answers 502 payment_provider_error and stores nothing', async () => {
    const erin = await registerUser(app);
    stub.down = 503;
    try {
      const response = await app.request().post('/api/v1/billing/checkout').set(as(erin)).send({ plan_id: pro });
      expect(response.status).toBe(502);
      expect(response.body).toEqual({
        error: { code: 'payment_provider_error', message: 'Stripe could not complete the request; try again in a moment' },
      });
    } finally {
      stub.down = null;
    }
    expect(await app.strapi.db.connection('api_suite_billing_customers').where({ consumer_id: erin.consumer_id })).toEqual([]);
    expect(await subscriptionOf(erin)).toMatchObject({ status: 'none' });
  });
});
