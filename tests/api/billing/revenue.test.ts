import Stripe from 'stripe';
import { z } from 'zod';
import { adminAuth } from '../../helpers/admin-users';
import { expectAnswer } from '../../helpers/answers';
import { startApp, type TestApp } from '../../helpers/app';
import { stripeEnv, STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET } from '../../helpers/commerce';
import { issueKey, planId } from '../../helpers/keys';
import { startReceiver, type Receiver } from '../../helpers/receiver';
import { startStripeStub, type StripeStub, type StubEvent, type StubRequest, type StubSession } from '../../helpers/stripe-stub';
import { adminSession, grantPlan, registerUser, type TestUser } from '../../helpers/users';
import { eventOf, subscribe, waitForPosts } from '../../helpers/webhooks';
import { eventually } from '../../helpers/wait';
import { adminPlan } from '../../../src/plugins/api-suite/server/src/features/access/validation/responses';
import { billingSubscriptionResponse } from '../../../src/plugins/api-suite/server/src/features/billing/validation/responses';

/**
 * Trials, yearly prices and promotion codes (docs/billing.md#trials-yearly-prices-and-promotion-codes),
 * against the local Stripe stub, which refuses what Stripe refuses here: one Checkout Session mixing a
 * yearly and a monthly price, a subscription mixing them outside flexible billing mode, and a trial
 * outside 1 to 730 days. A plan gains a yearly price and a trial in the admin panel's route; the
 * yearly price is provisioned by its lookup key; Checkout offers promotion codes, the plan's trial on
 * a consumer's first purchase only, and the yearly price alone for a yearly purchase, the monthly
 * overage price joining the subscription once it exists; `trialing` holds the plan.
 */
let app: TestApp;
let stub: StripeStub;
let receiver: Receiver;
let owner: string;
let free: number;
let annual: number;
let basic: number;
let premium: number;

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const DAY = 86_400_000;

const as = (user: TestUser) => ({ Authorization: `Bearer ${user.jwt}` });
const subscriptionOf = async (user: TestUser) => {
  const response = await app.request().get('/api/v1/billing/subscription').set(as(user));
  expectAnswer(billingSubscriptionResponse, response.body);
  return response.body.data;
};
const keyPlans = async (user: TestUser) =>
  ((await app.request().get('/api/v1/keys').set(as(user))).body.data as Array<{ plan_id: number }>).map((key) => key.plan_id);
const planRow = (id: number) => app.strapi.db.query('plugin::api-suite.plan').findOne({ where: { id } });
const activePrice = (key: string) => [...stub.store.prices.values()].find((price) => price.active && price.lookup_key === key);
const lastSession = (): StubRequest | undefined =>
  stub.requests.filter((entry) => entry.method === 'POST' && entry.path === '/v1/checkout/sessions').at(-1);
const checkout = (user: TestUser, body: Record<string, unknown>) => app.request().post('/api/v1/billing/checkout').set(as(user)).send(body);
const editPlan = (id: number, body: Record<string, unknown>) =>
  app.request().put(`/api-suite/access/plans/${id}`).set(adminAuth(owner)).send(body);

/** Buy as `user` and complete the session in the stub; every event Stripe sends (the overage item's update too) reaches the app. */
async function buy(user: TestUser, body: Record<string, unknown>): Promise<string> {
  const response = await checkout(user, body);
  if (response.status !== 200) throw new Error(`checkout failed: ${response.status} ${JSON.stringify(response.body)}`);
  stub.completeCheckout(response.body.data.session_id);
  const statuses = await stub.flush();
  expect(statuses.every((status) => status === 200)).toBe(true);
  return stub.sessions.get(response.body.data.session_id)?.subscription as string;
}

/** A plan through the admin panel's route, as an editor makes one. */
async function createPlan(body: Record<string, unknown>): Promise<number> {
  const response = await app
    .request()
    .post('/api-suite/access/plans')
    .set(adminAuth(owner))
    .send({ requests_per_month: 3, requests_per_minute: 100, endpoints: ['@public'], ...body });
  if (response.status !== 201) throw new Error(`plan creation failed: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body.data.id as number;
}

beforeAll(async () => {
  stub = await startStripeStub();
  receiver = await startReceiver();
  app = await startApp({ env: { ...stripeEnv(stub), STRIPE_CURRENCY: 'eur' } });
  stub.webhookTarget = { url: `${app.url}/api/webhook/stripe`, secret: STRIPE_WEBHOOK_SECRET };
  owner = (await adminSession(app)).token;
  free = await planId(app, 'free');
  annual = await createPlan({ name: 'annual', price_monthly: 10, price_yearly: 100, trial_days: 14, overage_unit_amount: 50 });
  basic = await createPlan({ name: 'basic', price_monthly: 20 });
  premium = await createPlan({ name: 'premium', price_monthly: 30, price_yearly: 300 });
  await eventually(
    async () =>
      (await app.request().get('/api/v1/billing/plans')).status === 200 &&
      activePrice(`api-suite:${annual}:flat-yearly`) &&
      activePrice(`api-suite:${premium}:flat-yearly`)
        ? true
        : undefined,
    20_000,
    'billing provisioned'
  );
}, 120_000);

afterAll(async () => {
  await app?.close();
  await Promise.all([stub?.close(), receiver?.close()]);
});

describe('plans', () => {
  it("takes trial_days and price_yearly in the admin panel's route like the other fields, with field errors", async () => {
    const created = (await app.request().get('/api-suite/access/plans').set(adminAuth(owner))).body.data as Array<Record<string, unknown>>;
    expectAnswer(z.array(adminPlan), created);
    expect(created.find((plan) => plan.id === annual)).toMatchObject({ price_yearly: 100, trial_days: 14, price_monthly: 10 });
    expect(created.find((plan) => plan.id === basic)).toMatchObject({ price_yearly: null, trial_days: 0 });

    const errorsOf = (response: { body: { error: { details: { errors: Array<{ path: string[]; message: string }> } } } }) =>
      response.body.error.details.errors.map((error) => [error.path.join('.'), error.message]);
    const outOfRange = await editPlan(basic, { trial_days: 91, price_yearly: 0 });
    expect(outOfRange.status).toBe(400);
    expect(errorsOf(outOfRange).sort()).toEqual([
      ['price_yearly', 'must be above 0, or null for no yearly price'],
      ['trial_days', 'must be between 0 and 90'],
    ]);
    const fraction = await editPlan(basic, { trial_days: 1.5 });
    expect(errorsOf(fraction)).toEqual([['trial_days', 'must be a whole number of days']]);
    // A yearly price sells a plan that is sold monthly: not the free plan.
    const unsold = await editPlan(free, { price_yearly: 50 });
    expect(unsold.status).toBe(400);
    expect(errorsOf(unsold)).toEqual([
      ['price_yearly', 'needs a monthly price above 0 (a plan is sold yearly as well as monthly, not instead)'],
    ]);
    const unsoldNew = await app
      .request()
      .post('/api-suite/access/plans')
      .set(adminAuth(owner))
      .send({ name: 'gift', requests_per_month: 1, requests_per_minute: 1, endpoints: ['@public'], price_monthly: 0, price_yearly: 5 });
    expect(unsoldNew.status).toBe(400);
    expect(errorsOf(unsoldNew)).toEqual([
      ['price_yearly', 'needs a monthly price above 0 (a plan is sold yearly as well as monthly, not instead)'],
    ]);
    expect((await planRow(free)).price_yearly).toBeNull();
    // The same rule holds for an editor in the Content Manager, which writes plans itself.
    const documentId = (await app.strapi.db.query('plugin::api-suite.plan' as never).findOne({ where: { id: free } })) as {
      documentId: string;
    };
    const throughEditor = await app
      .request()
      .put(`/content-manager/collection-types/plugin::api-suite.plan/${documentId.documentId}`)
      .set(adminAuth(owner))
      .send({ price_yearly: 50 });
    expect(throughEditor.status).toBe(400);
    expect(throughEditor.body.error.message).toMatch(/needs a monthly price above 0/);
    expect((await planRow(free)).price_yearly).toBeNull();

    const edited = await editPlan(basic, { trial_days: 7 });
    expect(edited.status).toBe(200);
    expectAnswer(adminPlan, edited.body.data);
    expect(edited.body.data).toMatchObject({ id: basic, trial_days: 7, price_yearly: null, price_monthly: 20 });
    expect((await editPlan(basic, { trial_days: 0 })).body.data.trial_days).toBe(0);
  });

  it('provisions a yearly flat price by its lookup key beside the monthly ones, then moves and archives it with the plan', async () => {
    const meter = [...stub.store.meters.values()][0];
    const flat = activePrice(`api-suite:${annual}:flat`);
    const yearly = activePrice(`api-suite:${annual}:flat-yearly`);
    const metered = activePrice(`api-suite:${annual}:metered`);
    expect(flat).toMatchObject({ unit_amount: 1000, currency: 'eur', recurring: { interval: 'month', usage_type: 'licensed' } });
    expect(yearly).toMatchObject({
      unit_amount: 10000,
      currency: 'eur',
      type: 'recurring',
      product: flat?.product,
      nickname: 'annual yearly',
      metadata: { plan_id: String(annual), kind: 'flat-yearly' },
      recurring: { interval: 'year', interval_count: 1, usage_type: 'licensed', meter: null },
    });
    // Overage stays monthly, on the meter.
    expect(metered).toMatchObject({ recurring: { interval: 'month', usage_type: 'metered', meter: meter.id } });
    expect(activePrice(`api-suite:${basic}:flat-yearly`)).toBeUndefined();
    const row = await planRow(annual);
    expect(row).toMatchObject({ stripe_yearly_price_id: yearly?.id, stripe_price_id: flat?.id, stripe_metered_price_id: metered?.id });

    // Nothing twice when provisioning runs again.
    const count = stub.store.prices.size;
    await app.strapi.plugin('api-suite').service('billing-catalog').sync();
    expect(stub.store.prices.size).toBe(count);

    // A new amount is a new price that takes the key over; no yearly price archives it.
    expect((await editPlan(basic, { price_yearly: 200 })).status).toBe(200);
    const basicYearly = await eventually(async () => activePrice(`api-suite:${basic}:flat-yearly`), 10_000, 'basic yearly');
    expect(basicYearly).toMatchObject({ unit_amount: 20000, recurring: { interval: 'year' } });
    expect((await editPlan(basic, { price_yearly: 180 })).status).toBe(200);
    // The new price takes the key when it is made; the old one is archived right after.
    await eventually(
      async () =>
        activePrice(`api-suite:${basic}:flat-yearly`)?.unit_amount === 18000 && !stub.store.prices.get(basicYearly.id)?.active
          ? true
          : undefined,
      10_000,
      'moved'
    );
    expect(stub.store.prices.get(basicYearly.id)).toMatchObject({ active: false, lookup_key: null });
    expect((await editPlan(basic, { price_yearly: null })).status).toBe(200);
    await eventually(async () => (activePrice(`api-suite:${basic}:flat-yearly`) ? undefined : true), 10_000, 'archived');
    await eventually(async () => ((await planRow(basic)).stripe_yearly_price_id === null ? true : undefined), 10_000, 'id cleared');
  });

  it('lists each plan with its yearly price and trial in GET /api/v1/billing/plans', async () => {
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
          id: annual,
          name: 'annual',
          price_monthly: 10,
          currency: 'eur',
          requests_per_month: 3,
          requests_per_minute: 100,
          overage_unit_amount: 50,
          price_yearly: 100,
          trial_days: 14,
          endpoints: ['GET /api/v1/articles*'],
        },
        expect.objectContaining({ id: basic, price_monthly: 20, price_yearly: null, trial_days: 0 }),
        expect.objectContaining({ id: premium, price_monthly: 30, price_yearly: 300, trial_days: 0 }),
        expect.objectContaining({ name: 'pro', price_yearly: null, trial_days: 0 }),
        expect.objectContaining({ name: 'enterprise', price_yearly: null, trial_days: 0 }),
      ],
    });
  });
});

describe('Checkout', () => {
  let carol: TestUser;

  beforeAll(async () => {
    carol = await registerUser(app);
  });

  it('sells a month: the flat and the metered price, promotion codes, and the trial of a first purchase', async () => {
    const plan = await planRow(annual);
    let sessionId = '';
    for (const body of [{ plan_id: annual }, { plan_id: annual, interval: 'month' }]) {
      const response = await checkout(carol, body);
      expect(response.status).toBe(200);
      sessionId = response.body.data.session_id as string;
      const form = lastSession()?.form ?? {};
      expect(form).toMatchObject({
        mode: 'subscription',
        'line_items[0][price]': plan.stripe_price_id,
        'line_items[0][quantity]': '1',
        'line_items[1][price]': plan.stripe_metered_price_id,
        allow_promotion_codes: 'true',
        'subscription_data[trial_period_days]': '14',
        'subscription_data[billing_mode][type]': 'flexible',
        'subscription_data[metadata][plan_id]': String(annual),
        'subscription_data[metadata][interval]': 'month',
        'metadata[interval]': 'month',
        client_reference_id: carol.consumer_id,
      });
      expect(form['line_items[1][quantity]']).toBeUndefined();
      expect(form['line_items[2][price]']).toBeUndefined();
    }
    // A trial's first invoice is for nothing; the session says so.
    expect(stub.sessions.get(sessionId)?.amount_total).toBe(0);
  });

  it('sells a year: the yearly flat price alone, with promotion codes and the trial', async () => {
    const dave = await registerUser(app);
    const response = await checkout(dave, { plan_id: annual, interval: 'year' });
    expect(response.status).toBe(200);
    const form = lastSession()?.form ?? {};
    expect(form).toMatchObject({
      mode: 'subscription',
      'line_items[0][price]': (await planRow(annual)).stripe_yearly_price_id,
      'line_items[0][quantity]': '1',
      allow_promotion_codes: 'true',
      'subscription_data[trial_period_days]': '14',
      'subscription_data[billing_mode][type]': 'flexible',
      'metadata[interval]': 'year',
    });
    expect(form['line_items[1][price]']).toBeUndefined();
    // No trial on a plan without one; promotion codes everywhere.
    expect((await checkout(dave, { plan_id: premium, interval: 'year' })).status).toBe(200);
    expect(lastSession()?.form).toMatchObject({
      'line_items[0][price]': (await planRow(premium)).stripe_yearly_price_id,
      allow_promotion_codes: 'true',
    });
    expect(lastSession()?.form['subscription_data[trial_period_days]']).toBeUndefined();
  });

  it('answers 400 interval_not_offered for a year of a plan without a yearly price, and asks Stripe nothing', async () => {
    const sessions = stub.sessions.size;
    const response = await checkout(carol, { plan_id: basic, interval: 'year' });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      error: { code: 'interval_not_offered', message: `Plan ${basic} has no yearly price: it is sold monthly only` },
    });
    const unknown = await checkout(carol, { plan_id: annual, interval: 'week' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toMatchObject({
      code: 'validation_error',
      details: [{ field: 'interval', message: 'must be month or year' }],
    });
    expect(stub.sessions.size).toBe(sessions);
  });

  it("is refused by Stripe when one session mixes the yearly price with the monthly metered one, which is why a year's session has the yearly price alone", async () => {
    const stripe = new Stripe(STRIPE_SECRET_KEY, { host: stub.host, port: stub.port, protocol: 'http', maxNetworkRetries: 0 });
    const plan = await planRow(annual);
    const customer = await stripe.customers.create({ email: 'mixed@example.test' });
    const refused = await stripe.checkout.sessions
      .create({
        mode: 'subscription',
        customer: customer.id,
        success_url: 'http://localhost/ok',
        line_items: [{ price: plan.stripe_yearly_price_id, quantity: 1 }, { price: plan.stripe_metered_price_id }],
        subscription_data: { billing_mode: { type: 'flexible' } },
      })
      .then(
        () => null,
        (error: unknown) => error
      );
    expect(refused).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(refused).toMatchObject({
      statusCode: 400,
      type: 'StripeInvalidRequestError',
      param: 'line_items',
      message: 'Currency and interval fields must match across all plans on this subscription. Found mismatch in interval field.',
      raw: {
        type: 'invalid_request_error',
        param: 'line_items',
        message: 'Currency and interval fields must match across all plans on this subscription. Found mismatch in interval field.',
      },
    });
  });
});

describe('trials', () => {
  let erin: TestUser;
  let subscriptionId: string;

  beforeAll(async () => {
    erin = await registerUser(app);
    // Webhooks are beyond the free plan: lent to subscribe, taken back before buying.
    await grantPlan(app, erin, 'enterprise');
    await subscribe(app, erin, {
      endpoint_url: `${receiver.url}/erin`,
      events: ['billing.subscription.created', 'billing.subscription.updated', 'billing.subscription.canceled'],
    });
    await grantPlan(app, erin, null);
  });

  it('holds the plan while trialing: a yearly purchase with its trial, its keys on the plan, the monthly overage item added once', async () => {
    await issueKey(app, erin, { name: 'before' });
    subscriptionId = await buy(erin, { plan_id: annual, interval: 'year' });
    const subscription = await subscriptionOf(erin);
    expect(subscription).toEqual({
      plan_id: annual,
      status: 'trialing',
      interval: 'year',
      current_period_end: expect.stringMatching(ISO),
      cancel_at_period_end: false,
      grace_until: null,
      trial_end: expect.stringMatching(ISO),
      overage: { unit_amount: 50, requests_this_period: 0, reported: 0 },
    });
    const trialLeft = new Date(subscription.trial_end).getTime() - Date.now();
    expect(trialLeft).toBeGreaterThan(14 * DAY - 60_000);
    expect(trialLeft).toBeLessThanOrEqual(14 * DAY);
    expect(await keyPlans(erin)).toEqual([annual]);
    expect((await issueKey(app, erin, { name: 'after' })).plan_id).toBe(annual);

    const plan = await planRow(annual);
    const inStripe = stub.store.subscriptions.get(subscriptionId);
    expect(inStripe).toMatchObject({ status: 'trialing', billing_mode: { type: 'flexible' }, metadata: { interval: 'year' } });
    expect(inStripe?.items.data.map((item) => [item.price.id, item.price.recurring?.interval])).toEqual([
      [plan.stripe_yearly_price_id, 'year'],
      [plan.stripe_metered_price_id, 'month'],
    ]);
    // Three events of the purchase, one request adding the item: each later event found it there.
    const added = stub.requests.filter((entry) => entry.method === 'POST' && entry.path === `/v1/subscriptions/${subscriptionId}`);
    expect(added.map((entry) => entry.form)).toEqual([{ 'items[0][price]': plan.stripe_metered_price_id, proration_behavior: 'none' }]);
    expect(added[0].headers['idempotency-key']).toBe(`api-suite-overage-item-${subscriptionId}-${plan.stripe_metered_price_id}`);

    const [created] = await waitForPosts(receiver, 1, (request) => request.headers['x-webhook-event'] === 'billing.subscription.created');
    expect(eventOf(created).data).toMatchObject({ subscription_id: subscriptionId, plan_id: annual, status: 'trialing' });
    const customer = await app.strapi.db.connection('api_suite_billing_customers').where({ consumer_id: erin.consumer_id }).first();
    expect(customer.trial_started_at).not.toBeNull();
  });

  it("keeps the trial's plan through late and repeated events, and keeps it when the trial ends and the first payment is made", async () => {
    const created = stub.events.filter((event) => event.type === 'customer.subscription.created').at(-1) as StubEvent;
    expect(await stub.post([created, { ...created, id: 'evt_trial_replay' }])).toEqual([200, 200]);
    expect(await subscriptionOf(erin)).toMatchObject({ plan_id: annual, status: 'trialing' });

    stub.endTrial(subscriptionId);
    expect((await stub.flush()).every((status) => status === 200)).toBe(true);
    const active = await subscriptionOf(erin);
    expect(active).toMatchObject({ plan_id: annual, status: 'active', interval: 'year', trial_end: null });
    expect(new Date(active.current_period_end).getTime()).toBeGreaterThan(Date.now() + 360 * DAY);
    expect(await keyPlans(erin)).toEqual([annual, annual]);
    const [updated] = await waitForPosts(
      receiver,
      1,
      (request) => request.headers['x-webhook-event'] === 'billing.subscription.updated' && eventOf(request).data.status === 'active'
    );
    expect(eventOf(updated).data).toMatchObject({ subscription_id: subscriptionId, plan_id: annual });
    // The late snapshot of the trial changes nothing: the subscription is read back from Stripe.
    expect(await stub.post([{ ...created, id: 'evt_trial_late' }])).toEqual([200]);
    expect(await subscriptionOf(erin)).toMatchObject({ status: 'active', trial_end: null });
  });

  it('changes a yearly subscription only to yearly prices, the monthly overage item following the plan', async () => {
    const refused = await app.request().post('/api/v1/billing/change-plan').set(as(erin)).send({ plan_id: basic });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toEqual({
      code: 'interval_not_offered',
      message: `Plan ${basic} has no yearly price: it is sold monthly only`,
    });

    const toPremium = await app.request().post('/api/v1/billing/change-plan').set(as(erin)).send({ plan_id: premium });
    expect(toPremium.status).toBe(200);
    expect(toPremium.body.data).toMatchObject({ plan_id: premium, status: 'active', interval: 'year' });
    const premiumRow = await planRow(premium);
    expect(stub.store.subscriptions.get(subscriptionId)?.items.data.map((item) => item.price.id)).toEqual([
      premiumRow.stripe_yearly_price_id,
    ]);
    const back = await app.request().post('/api/v1/billing/change-plan').set(as(erin)).send({ plan_id: annual });
    expect(back.status).toBe(200);
    const annualRow = await planRow(annual);
    expect(stub.store.subscriptions.get(subscriptionId)?.items.data.map((item) => [item.price.id, item.price.recurring?.interval])).toEqual(
      [
        [annualRow.stripe_yearly_price_id, 'year'],
        [annualRow.stripe_metered_price_id, 'month'],
      ]
    );
    expect(await keyPlans(erin)).toEqual([annual, annual]);
    await stub.flush();
  });

  it("counts a yearly subscription's overage over its monthly metered period, not since the year began", async () => {
    // Forty days into the year, ten into the overage item's second month, as Stripe would report them.
    const inStripe = stub.store.subscriptions.get(subscriptionId);
    const [flat, metered] = inStripe?.items.data ?? [];
    expect(metered?.price.recurring?.usage_type).toBe('metered');
    const seconds = (ms: number) => Math.floor(ms / 1000);
    flat.current_period_start = seconds(Date.now() - 40 * DAY);
    metered.current_period_start = seconds(Date.now() - 10 * DAY);
    metered.current_period_end = seconds(Date.now() + 20 * DAY);
    const updated = stub.events.filter((event) => event.type === 'customer.subscription.updated').at(-1) as StubEvent;
    expect(await stub.post([{ ...updated, id: 'evt_second_month' }])).toEqual([200]);

    // Overage served last month (in this year) and this month: only this month's is this period's.
    const served = (daysAgo: number) => ({
      user_id: erin.id,
      api_key_id: null,
      endpoint: '/api/v1/articles',
      method: 'GET',
      status_code: 200,
      response_ms: 3,
      overage: true,
      created_at: new Date(Date.now() - daysAgo * DAY),
    });
    await app.strapi.db.connection('api_suite_usage_records').insert([served(20), served(20), served(20), served(5), served(1)]);
    expect((await subscriptionOf(erin)).overage).toMatchObject({ unit_amount: 50, requests_this_period: 2 });
  });

  it('gives the trial once: a purchase after a trial has none, nor has one after a purchase without a trial', async () => {
    // Erin's subscription ends; buying again starts no second trial.
    stub.endSubscription(subscriptionId);
    await stub.flush();
    expect(await subscriptionOf(erin)).toMatchObject({ status: 'canceled', plan_id: free, trial_end: null });
    expect((await checkout(erin, { plan_id: annual })).status).toBe(200);
    expect(lastSession()?.form).toMatchObject({
      allow_promotion_codes: 'true',
      'line_items[0][price]': (await planRow(annual)).stripe_price_id,
    });
    expect(lastSession()?.form['subscription_data[trial_period_days]']).toBeUndefined();

    // Frank's first purchase is of a plan without a trial: his second, of a plan with one, has none either.
    const frank = await registerUser(app);
    const first = await buy(frank, { plan_id: basic });
    expect(stub.store.subscriptions.get(first)).toMatchObject({ status: 'active', trial_end: null });
    expect(await subscriptionOf(frank)).toMatchObject({ status: 'active', interval: 'month', trial_end: null });
    stub.endSubscription(first);
    await stub.flush();
    expect((await checkout(frank, { plan_id: annual })).status).toBe(200);
    expect(lastSession()?.form['subscription_data[trial_period_days]']).toBeUndefined();

    // A session opened and never paid uses up nothing: Grace is offered the trial again.
    const grace = await registerUser(app);
    expect((await checkout(grace, { plan_id: annual })).status).toBe(200);
    expect((await checkout(grace, { plan_id: annual })).status).toBe(200);
    expect(lastSession()?.form['subscription_data[trial_period_days]']).toBe('14');
  });

  it('gives the trial once per e-mail address: an account closed and opened again with the same address gets none', async () => {
    const email = `heidi-${Date.now()}@example.test`;
    const heidi = await registerUser(app, { email });
    const first = await buy(heidi, { plan_id: annual });
    expect(stub.store.subscriptions.get(first)).toMatchObject({ status: 'trialing' });
    await eventually(async () => ((await subscriptionOf(heidi)).status === 'trialing' ? true : undefined));
    const closed = await app
      .request()
      .delete('/api/v1/account')
      .set('Authorization', `Bearer ${heidi.jwt}`)
      .send({ password: heidi.password });
    expect(closed.status).toBe(204);

    // The same address, in another case, on a new account: no second trial.
    const again = await registerUser(app, { email: email.toUpperCase().replace('@EXAMPLE.TEST', '@example.test') });
    expect((await checkout(again, { plan_id: annual })).status).toBe(200);
    expect(lastSession()?.form['subscription_data[trial_period_days]']).toBeUndefined();
    // Another address still has its own.
    const ivan = await registerUser(app);
    expect((await checkout(ivan, { plan_id: annual })).status).toBe(200);
    expect(lastSession()?.form['subscription_data[trial_period_days]']).toBe('14');
  });

  it('keeps one open Checkout Session per consumer, so a plan and its trial are bought once', async () => {
    const ivan = await registerUser(app);
    const first = await checkout(ivan, { plan_id: annual });
    // A session another integration of the site opened for the same Stripe customer is not ours to close.
    const foreign = { ...(stub.sessions.get(first.body.data.session_id) as StubSession), id: 'cs_test_other_integration', metadata: {} };
    stub.sessions.set(foreign.id, foreign);
    const second = await checkout(ivan, { plan_id: annual, interval: 'year' });
    expect([first.status, second.status]).toEqual([200, 200]);
    // Both carried the trial; the first can no longer be paid, as Stripe refuses an expired session.
    expect(stub.sessions.get(first.body.data.session_id)?.status).toBe('expired');
    expect(stub.sessions.get(second.body.data.session_id)?.status).toBe('open');
    expect(() => stub.completeCheckout(first.body.data.session_id)).toThrow(/expired, not open/);

    // Two at once agree on the one to keep: exactly one is left open, and it is one of theirs.
    const both = await Promise.all([checkout(ivan, { plan_id: annual }), checkout(ivan, { plan_id: basic })]);
    expect(both.map((response) => response.status)).toEqual([200, 200]);
    expect(stub.sessions.get(foreign.id)?.status).toBe('open');
    const open = [...stub.sessions.values()].filter(
      (session) =>
        session.customer === stub.sessions.get(second.body.data.session_id)?.customer &&
        session.status === 'open' &&
        session.id !== foreign.id
    );
    expect(open).toHaveLength(1);
    expect(both.map((response) => response.body.data.session_id)).toContain(open[0].id);

    stub.completeCheckout(open[0].id);
    expect((await stub.flush()).every((status) => status === 200)).toBe(true);
    expect([...stub.store.subscriptions.values()].filter((subscription) => subscription.customer === open[0].customer)).toHaveLength(1);
  });

  it('holds the plan through a monthly trial too, the metered price bought with it in Checkout', async () => {
    const heidi = await registerUser(app);
    const id = await buy(heidi, { plan_id: annual });
    const plan = await planRow(annual);
    expect(stub.store.subscriptions.get(id)?.items.data.map((item) => item.price.id)).toEqual([
      plan.stripe_price_id,
      plan.stripe_metered_price_id,
    ]);
    // Nothing to add to a monthly subscription.
    expect(stub.requests.some((entry) => entry.method === 'POST' && entry.path === `/v1/subscriptions/${id}`)).toBe(false);
    expect(await subscriptionOf(heidi)).toMatchObject({ plan_id: annual, status: 'trialing', interval: 'month' });
    expect((await issueKey(app, heidi)).plan_id).toBe(annual);
  });
});
