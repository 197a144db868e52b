import { metricsOf, movedBetween } from '../../helpers/metrics';
import Stripe from 'stripe';
import { startApp, type TestApp } from '../../helpers/app';
import {
  checkout,
  createProduct,
  orderOf,
  sendStripeEvent,
  sessionEvent,
  stockOf,
  stripeEnv,
  STRIPE_WEBHOOK_SECRET,
  type TestProduct,
} from '../../helpers/commerce';
import { startReceiver, type Receiver } from '../../helpers/receiver';
import { startStripeStub, type StripeStub } from '../../helpers/stripe-stub';
import { adminSession, fullAccessToken, makeAdministrator, registerUser, type TestUser } from '../../helpers/users';
import { eventOf, subscribe, verify, waitForPosts, posts, type CreatedSubscription } from '../../helpers/webhooks';

/**
 * POST /api/webhook/stripe (docs/commerce.md#the-stripe-webhook): events signed as Stripe signs
 * them (the official SDK's test header), verified over the exact bytes received, each applied once;
 * and the order events they cause, including those of status changes made in the admin panel.
 */
let app: TestApp;
let stub: StripeStub;
let receiver: Receiver;
let token: string;
let alice: TestUser;
let admin: TestUser;
let lamp: TestProduct;
let aliceHooks: CreatedSubscription;

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

beforeAll(async () => {
  stub = await startStripeStub();
  receiver = await startReceiver();
  app = await startApp({ env: stripeEnv(stub) });
  token = await fullAccessToken(app);
  alice = await registerUser(app, { plan: 'enterprise' });
  admin = await makeAdministrator(app, await registerUser(app));
  lamp = await createProduct(app, token, { name: 'Desk lamp', price: 12.5, stock: 100 });
  aliceHooks = await subscribe(app, alice, {
    endpoint_url: `${receiver.url}/alice`,
    events: ['order.created', 'order.updated', 'order.paid'],
  });
});

afterAll(async () => {
  await app?.close();
  await Promise.all([stub?.close(), receiver?.close()]);
});

/** A pending order of `quantity` lamps placed by Alice; its Checkout Session is in the stub. */
async function placeOrder(quantity = 2): Promise<{ orderId: string; sessionId: string; total: number }> {
  const response = await checkout(app, alice, { items: [{ product_id: lamp.id, quantity }] });
  if (response.status !== 200) throw new Error(`checkout failed: ${response.status} ${JSON.stringify(response.body)}`);
  const session = [...stub.sessions.values()].find((candidate) => candidate.metadata.order_id === response.body.data.orderId);
  if (!session) throw new Error('no session in the stub');
  return { orderId: response.body.data.orderId, sessionId: session.id, total: response.body.data.total };
}

const ofOrder = (orderId: string, type: string) => (request: { path: string; body: string; headers: Record<string, unknown> }) =>
  request.path === '/alice' && request.headers['x-webhook-event'] === type && eventOf(request as never).data.id === orderId;

describe('checkout.session.completed', () => {
  let order: { orderId: string; sessionId: string; total: number };
  let payload: string;

  beforeAll(async () => {
    order = await placeOrder(2);
    payload = sessionEvent(
      'checkout.session.completed',
      { id: order.sessionId, metadata: { order_id: order.orderId }, amount_total: 2500, payment_intent: 'pi_3Paid0001' },
      'evt_completed_1'
    );
  });

  it('marks the order paid with payment_id and paid_at, and answers { received: true }', async () => {
    const before = Date.now();
    const response = await sendStripeEvent(app, payload);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ received: true });
    const stored = await orderOf(app, order.orderId);
    expect(stored).toMatchObject({ status: 'paid', payment_id: 'pi_3Paid0001', stock_reserved: true });
    const paidAt = new Date(stored?.paid_at as string).getTime();
    expect(paidAt).toBeGreaterThanOrEqual(before - 1000);
    expect(paidAt).toBeLessThanOrEqual(Date.now() + 1000);
  });

  it("publishes order.updated and order.paid to the buyer's subscription", async () => {
    const [paid] = await waitForPosts(receiver, 1, ofOrder(order.orderId, 'order.paid'));
    const [updated] = await waitForPosts(receiver, 1, ofOrder(order.orderId, 'order.updated'));
    const stored = await orderOf(app, order.orderId);
    const expected = {
      id: order.orderId,
      status: 'paid',
      total: 25,
      created_at: expect.stringMatching(ISO),
      paid_at: new Date(stored?.paid_at as string).toISOString(),
      payment_id: 'pi_3Paid0001',
    };
    expect(verify(aliceHooks.secret, paid)).toEqual({ type: 'order.paid', timestamp: expect.stringMatching(ISO), data: expected });
    expect(eventOf(updated).data).toEqual(expected);
  });

  it('changes nothing when the same event arrives again', async () => {
    const first = await orderOf(app, order.orderId);
    const before = await metricsOf(app);
    const again = await sendStripeEvent(app, payload);
    expect(again.status).toBe(200);
    const moved = movedBetween(before, await metricsOf(app));
    expect(moved('api_suite_stripe_webhook_events_total{type="checkout.session.completed",outcome="duplicate"}')).toBe(1);
    expect(again.body).toEqual({ received: true });
    expect(await orderOf(app, order.orderId)).toEqual(first);

    // A later event's announcements arrive after anything the repeat could have published.
    const barrier = await placeOrder(1);
    await sendStripeEvent(
      app,
      sessionEvent('checkout.session.completed', { id: barrier.sessionId, metadata: { order_id: barrier.orderId } })
    );
    await waitForPosts(receiver, 1, ofOrder(barrier.orderId, 'order.paid'));
    expect(posts(receiver).filter(ofOrder(order.orderId, 'order.paid'))).toHaveLength(1);
    const recorded = await app.strapi.db.query('plugin::api-suite.stripe-event').count({ where: { event_id: 'evt_completed_1' } });
    expect(Number(recorded)).toBe(1);
  });

  it('applies concurrent deliveries of one event exactly once', async () => {
    const target = await placeOrder(1);
    const event = sessionEvent('checkout.session.completed', {
      id: target.sessionId,
      metadata: { order_id: target.orderId },
      payment_intent: 'pi_race',
    });
    const responses = await Promise.all(Array.from({ length: 10 }, () => sendStripeEvent(app, event)));
    expect(responses.map((response) => response.status)).toEqual(Array(10).fill(200));
    expect(await orderOf(app, target.orderId)).toMatchObject({ status: 'paid', payment_id: 'pi_race' });

    const barrier = await placeOrder(1);
    await sendStripeEvent(
      app,
      sessionEvent('checkout.session.completed', { id: barrier.sessionId, metadata: { order_id: barrier.orderId } })
    );
    await waitForPosts(receiver, 1, ofOrder(barrier.orderId, 'order.paid'));
    expect(posts(receiver).filter(ofOrder(target.orderId, 'order.paid'))).toHaveLength(1);
  });

  it('verifies the exact bytes received, whatever their spacing, characters and size', async () => {
    const target = await placeOrder(1);
    const event = JSON.parse(
      sessionEvent('checkout.session.completed', { id: target.sessionId, metadata: { order_id: target.orderId, note: 'Café « crème » ✓' } })
    );
    // Large enough to arrive in many chunks; re-serialising the parsed body would not match.
    event.data.object.custom_text = { submit: { message: 'ünïcödé '.repeat(40_000) } };
    const pretty = JSON.stringify(event, null, 3);
    expect(Buffer.byteLength(pretty)).toBeGreaterThan(300_000);
    const response = await sendStripeEvent(app, pretty);
    expect(response.status).toBe(200);
    expect((await orderOf(app, target.orderId))?.status).toBe('paid');
  });

  it('waits for the payment of a session completed while still unpaid, then async_payment_succeeded pays it', async () => {
    const target = await placeOrder(1);
    const completed = sessionEvent('checkout.session.completed', {
      id: target.sessionId,
      metadata: { order_id: target.orderId },
      payment_status: 'unpaid',
      payment_intent: 'pi_later',
    });
    expect((await sendStripeEvent(app, completed)).status).toBe(200);
    expect((await orderOf(app, target.orderId))?.status).toBe('pending');

    const succeeded = sessionEvent('checkout.session.async_payment_succeeded', {
      id: target.sessionId,
      metadata: { order_id: target.orderId },
      payment_intent: 'pi_later',
    });
    const response = await sendStripeEvent(app, succeeded);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ received: true });
    expect(await orderOf(app, target.orderId)).toMatchObject({ status: 'paid', payment_id: 'pi_later' });
    await waitForPosts(receiver, 1, ofOrder(target.orderId, 'order.paid'));
  });
});

describe('signatures', () => {
  let order: { orderId: string; sessionId: string; total: number };
  let payload: string;

  beforeAll(async () => {
    order = await placeOrder(1);
    payload = sessionEvent('checkout.session.completed', { id: order.sessionId, metadata: { order_id: order.orderId } });
  });

  afterAll(async () => {
    expect((await orderOf(app, order.orderId))?.status).toBe('pending');
  });

  it('400 for a tampered body', async () => {
    const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret: STRIPE_WEBHOOK_SECRET });
    const tampered = payload.replace('"paid"', '"unpaid"').replace(order.orderId, order.orderId.replace(/^./, 'f'));
    const response = await sendStripeEvent(app, payload, { signature, body: tampered.replace('"livemode":false', '"livemode":true') });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: 'Invalid Stripe signature' });
  });

  it('400 for a signature made with another secret', async () => {
    const before = await metricsOf(app);
    const response = await sendStripeEvent(app, payload, { secret: 'whsec_someone_else' });
    expect(response.status).toBe(400);
    expect(movedBetween(before, await metricsOf(app))('api_suite_stripe_webhook_events_total{type="unknown",outcome="refused"}')).toBe(1);
    expect(response.body).toEqual({ error: 'Invalid Stripe signature' });
  });

  it('400 for an expired timestamp and for a malformed header', async () => {
    const old = Stripe.webhooks.generateTestHeaderString({
      payload,
      secret: STRIPE_WEBHOOK_SECRET,
      timestamp: Math.floor(Date.now() / 1000) - 3600,
    });
    const stale = await sendStripeEvent(app, payload, { signature: old });
    expect(stale.status).toBe(400);
    expect(stale.body).toEqual({ error: 'Invalid Stripe signature' });
    const garbage = await sendStripeEvent(app, payload, { signature: 'nonsense' });
    expect(garbage.status).toBe(400);
    expect(garbage.body).toEqual({ error: 'Invalid Stripe signature' });
  });

  it('400 without a Stripe-Signature header', async () => {
    const response = await app.request().post('/api/webhook/stripe').set('Content-Type', 'application/json').send(payload);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: 'Missing Stripe-Signature header' });
  });

  it('400 for a correctly signed event without data, an id or a type, changing nothing', async () => {
    for (const event of [
      { id: 'evt_no_data', type: 'checkout.session.completed' },
      { id: 'evt_null', type: 'checkout.session.completed', data: null },
      { type: 'checkout.session.completed', data: { object: {} } },
    ]) {
      const response = await sendStripeEvent(app, JSON.stringify({ object: 'event', ...event }));
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ error: 'Invalid payload: a Stripe event has an id, a type and data.object' });
    }
  });

  it('400 for a body that is not JSON, signed or not', async () => {
    const text = 'not json at all';
    const signed = await sendStripeEvent(app, text);
    expect(signed.status).toBe(400);
    expect(signed.body).toEqual({ error: 'The request body is not valid JSON or form data' });
  });
});

describe('checkout.session.expired', () => {
  it('cancels the order and gives its stock back, once', async () => {
    const before = await stockOf(app, lamp.id);
    const order = await placeOrder(3);
    expect(await stockOf(app, lamp.id)).toBe(before - 3);

    const response = await sendStripeEvent(
      app,
      sessionEvent('checkout.session.expired', { id: order.sessionId, metadata: { order_id: order.orderId } })
    );
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ received: true });
    expect(await orderOf(app, order.orderId)).toMatchObject({
      status: 'cancelled',
      stock_reserved: false,
      paid_at: null,
      payment_id: null,
    });
    expect(await stockOf(app, lamp.id)).toBe(before);

    // Another expiry notice for the same session (a new event id) returns nothing more.
    await sendStripeEvent(app, sessionEvent('checkout.session.expired', { id: order.sessionId, metadata: { order_id: order.orderId } }));
    expect(await stockOf(app, lamp.id)).toBe(before);

    const [updated] = await waitForPosts(receiver, 1, ofOrder(order.orderId, 'order.updated'));
    expect(eventOf(updated).data).toEqual({ id: order.orderId, status: 'cancelled', total: 37.5, created_at: expect.stringMatching(ISO) });
  });

  it('leaves a paid order alone', async () => {
    const order = await placeOrder(1);
    await sendStripeEvent(
      app,
      sessionEvent('checkout.session.completed', { id: order.sessionId, metadata: { order_id: order.orderId }, payment_intent: 'pi_kept' })
    );
    const stock = await stockOf(app, lamp.id);
    await sendStripeEvent(app, sessionEvent('checkout.session.expired', { id: order.sessionId, metadata: { order_id: order.orderId } }));
    expect(await orderOf(app, order.orderId)).toMatchObject({ status: 'paid', payment_id: 'pi_kept' });
    expect(await stockOf(app, lamp.id)).toBe(stock);
  });
});

describe('other events', () => {
  it('acknowledges unknown types, sessions without an order, and unknown orders, changing nothing', async () => {
    const stock = await stockOf(app, lamp.id);
    const unknownType = await sendStripeEvent(
      app,
      JSON.stringify({
        id: 'evt_other_1',
        object: 'event',
        type: 'customer.created',
        data: { object: { id: 'cus_1', object: 'customer' } },
      })
    );
    expect(unknownType.status).toBe(200);
    expect(unknownType.body).toEqual({ received: true });
    const noOrder = await sendStripeEvent(app, sessionEvent('checkout.session.completed', { metadata: {} }));
    expect(noOrder.body).toEqual({ received: true });
    const unknownOrder = await sendStripeEvent(
      app,
      sessionEvent('checkout.session.expired', { metadata: { order_id: '00000000-0000-4000-8000-000000000000' } })
    );
    expect(unknownOrder.body).toEqual({ received: true });
    expect(await stockOf(app, lamp.id)).toBe(stock);
    expect(Number(await app.strapi.db.query('plugin::api-suite.stripe-event').count({ where: { event_id: 'evt_other_1' } }))).toBe(0);
  });
});

describe('status changes in the admin panel', () => {
  const editOrder = async (documentId: string, data: Record<string, unknown>) => {
    const session = await adminSession(app);
    return app
      .request()
      .put(`/content-manager/collection-types/plugin::api-suite.order/${documentId}`)
      .set('Authorization', `Bearer ${session.token}`)
      .send(data);
  };
  const documentIdOf = async (uuid: string) =>
    ((await app.strapi.db.query('plugin::api-suite.order').findOne({ where: { uuid }, select: ['documentId'] })) as { documentId: string })
      .documentId;

  it('publishes order.updated when an editor ships an order, to the buyer and the administrators', async () => {
    const adminHooks = await subscribe(app, admin, { endpoint_url: `${receiver.url}/admin`, events: ['order.updated'] });
    const order = await placeOrder(1);
    await sendStripeEvent(
      app,
      sessionEvent('checkout.session.completed', { id: order.sessionId, metadata: { order_id: order.orderId }, payment_intent: 'pi_ship' })
    );
    const response = await editOrder(await documentIdOf(order.orderId), { status: 'shipped' });
    expect(response.status).toBe(200);

    const shipped = (request: { path: string; body: string; headers: Record<string, unknown> }) =>
      request.headers['x-webhook-event'] === 'order.updated' &&
      eventOf(request as never).data.id === order.orderId &&
      eventOf(request as never).data.status === 'shipped';
    const [toAlice] = await waitForPosts(receiver, 1, (request) => request.path === '/alice' && shipped(request));
    const [toAdmin] = await waitForPosts(receiver, 1, (request) => request.path === '/admin' && shipped(request));
    expect(eventOf(toAlice).data).toEqual({
      id: order.orderId,
      status: 'shipped',
      total: 12.5,
      created_at: expect.stringMatching(ISO),
      paid_at: expect.stringMatching(ISO),
      payment_id: 'pi_ship',
    });
    expect(verify(adminHooks.secret, toAdmin)).toMatchObject({ type: 'order.updated', data: eventOf(toAlice).data });
  });

  it('gives the stock back when an editor cancels a pending order, and only once', async () => {
    const order = await placeOrder(4);
    const stock = await stockOf(app, lamp.id);
    const documentId = await documentIdOf(order.orderId);
    expect((await editOrder(documentId, { status: 'cancelled' })).status).toBe(200);
    expect(await stockOf(app, lamp.id)).toBe(stock + 4);
    expect((await editOrder(documentId, { status: 'pending' })).status).toBe(200);
    expect((await editOrder(documentId, { status: 'cancelled' })).status).toBe(200);
    expect(await stockOf(app, lamp.id)).toBe(stock + 4);
    // Stripe's expiry notice later changes nothing either.
    await sendStripeEvent(app, sessionEvent('checkout.session.expired', { id: order.sessionId, metadata: { order_id: order.orderId } }));
    expect(await stockOf(app, lamp.id)).toBe(stock + 4);
    await waitForPosts(receiver, 2, ofOrder(order.orderId, 'order.updated'));
  });

  it('an editor marking an order paid sets paid_at and publishes order.paid', async () => {
    const order = await placeOrder(1);
    expect((await editOrder(await documentIdOf(order.orderId), { status: 'paid', payment_id: 'bank-transfer-42' })).status).toBe(200);
    const stored = await orderOf(app, order.orderId);
    expect(stored).toMatchObject({ status: 'paid', payment_id: 'bank-transfer-42', paid_at: expect.anything() });
    const [paid] = await waitForPosts(receiver, 1, ofOrder(order.orderId, 'order.paid'));
    expect(eventOf(paid).data).toEqual({
      id: order.orderId,
      status: 'paid',
      total: 12.5,
      created_at: expect.stringMatching(ISO),
      paid_at: new Date(stored?.paid_at as string).toISOString(),
      payment_id: 'bank-transfer-42',
    });
  });

  it('deleting an order that still holds stock gives it back', async () => {
    const order = await placeOrder(5);
    const stock = await stockOf(app, lamp.id);
    const session = await adminSession(app);
    const response = await app
      .request()
      .delete(`/content-manager/collection-types/plugin::api-suite.order/${await documentIdOf(order.orderId)}`)
      .set('Authorization', `Bearer ${session.token}`);
    expect(response.status).toBe(200);
    expect(await orderOf(app, order.orderId)).toBeNull();
    expect(await stockOf(app, lamp.id)).toBe(stock + 5);
  });

  it('an order entered in the admin panel for a user is announced to that user as order.created', async () => {
    const session = await adminSession(app);
    const user = await app.strapi.db.query('plugin::users-permissions.user').findOne({ where: { id: alice.id }, select: ['documentId'] });
    const response = await app
      .request()
      .post('/content-manager/collection-types/plugin::api-suite.order')
      .set('Authorization', `Bearer ${session.token}`)
      .send({
        items: [{ product_id: lamp.id, quantity: 1, price: 9, name: 'Phone order' }],
        total: 9,
        user: { connect: [{ documentId: user.documentId }] },
      });
    expect(response.status).toBe(201);
    const uuid = response.body.data.uuid as string;
    const [created] = await waitForPosts(receiver, 1, ofOrder(uuid, 'order.created'));
    expect(eventOf(created).data).toEqual({ id: uuid, status: 'pending', total: 9, created_at: expect.stringMatching(ISO) });
  });
});
