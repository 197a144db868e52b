import { startApp, type TestApp } from '../../helpers/app';
import { checkout, createProduct, orderOf, stockOf, stripeEnv, type TestProduct } from '../../helpers/commerce';
import { startReceiver, type Receiver } from '../../helpers/receiver';
import { startStripeStub, type StripeStub } from '../../helpers/stripe-stub';
import { fullAccessToken, makeAdministrator, registerUser, type TestUser } from '../../helpers/users';
import { eventOf, subscribe, verify, waitForPosts, type CreatedSubscription } from '../../helpers/webhooks';
import { eventually } from '../../helpers/wait';

/**
 * POST /api/checkout (docs/commerce.md#checkout) against the official Stripe SDK talking to a local
 * stub: every status with its exact body, what the session request carries, stock taken and
 * given back, and the order events reaching the buyer's and the administrators' subscriptions.
 */
let app: TestApp;
let stub: StripeStub;
let receiver: Receiver;
let token: string;
let alice: TestUser;
let bob: TestUser;
let admin: TestUser;
let mug: TestProduct;
let tee: TestProduct;
let draft: TestProduct;
let gone: TestProduct;
const subscriptions: Record<string, CreatedSubscription> = {};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const ORDER_EVENTS = ['order.created', 'order.updated', 'order.paid'];

beforeAll(async () => {
  stub = await startStripeStub();
  receiver = await startReceiver();
  app = await startApp({ env: stripeEnv(stub) });
  token = await fullAccessToken(app);
  alice = await registerUser(app, { plan: 'enterprise' });
  bob = await registerUser(app, { plan: 'enterprise' });
  admin = await makeAdministrator(app, await registerUser(app));
  mug = await createProduct(app, token, { name: 'Blue mug', slug: 'blue-mug', price: 12.5, stock: 5 });
  tee = await createProduct(app, token, { name: 'Tee shirt', price: 19.99, stock: 3 });
  draft = await createProduct(app, token, { name: 'Secret lamp', price: 30, stock: 9, published: false });
  gone = await createProduct(app, token, { name: 'Old chair', price: 45, stock: 9, deleted: true });
  for (const [name, user] of [
    ['alice', alice],
    ['bob', bob],
    ['admin', admin],
  ] as const) {
    subscriptions[name] = await subscribe(app, user, { endpoint_url: `${receiver.url}/${name}`, events: ORDER_EVENTS });
  }
  subscriptions.products = await subscribe(app, admin, { endpoint_url: `${receiver.url}/products`, events: ['product.updated'] });
});

afterAll(async () => {
  await app?.close();
  await Promise.all([stub?.close(), receiver?.close()]);
});

const orderCount = async () => Number(await app.strapi.db.query('plugin::api-suite.order').count({}));
const sessionRequests = () => stub.requests.filter((request) => request.method === 'POST' && request.path === '/v1/checkout/sessions');
const deliveredTo = (name: string, type: string) => (request: { path: string; headers: Record<string, unknown> }) =>
  request.path === `/${name}` && request.headers['x-webhook-event'] === type;

describe('refusals: nothing is reserved, stored or sent to Stripe', () => {
  let ordersBefore: number;
  let sessionsBefore: number;

  beforeAll(async () => {
    ordersBefore = await orderCount();
    sessionsBefore = sessionRequests().length;
  });

  afterAll(async () => {
    expect(await orderCount()).toBe(ordersBefore);
    expect(sessionRequests()).toHaveLength(sessionsBefore);
    expect(await stockOf(app, mug.id)).toBe(5);
    expect(await stockOf(app, tee.id)).toBe(3);
  });

  it('401 without a user token, with a bad one, and with an API-key-like bearer', async () => {
    const none = await checkout(app, null, { items: [{ product_id: mug.id, quantity: 1 }] });
    expect(none.status).toBe(401);
    expect(none.body).toEqual({ errors: [{ message: 'Authentication required: send a user token as Authorization: Bearer <jwt>' }] });

    const bad = await app
      .request()
      .post('/api/checkout')
      .set('Authorization', 'Bearer not.a.jwt')
      .send({ items: [{ product_id: mug.id, quantity: 1 }] });
    expect(bad.status).toBe(401);
    expect(bad.body).toEqual({ errors: [{ message: 'The access token is not valid or has expired' }] });

    const key = await app
      .request()
      .post('/api/checkout')
      .set('Authorization', `Bearer sk_${'a'.repeat(48)}`)
      .send({ items: [{ product_id: mug.id, quantity: 1 }] });
    expect(key.status).toBe(401);
    expect(key.body).toEqual({ errors: [{ message: 'The access token is not valid or has expired' }] });
  });

  it('400 "Cart is empty" for a missing, null or empty cart', async () => {
    for (const body of [{}, { items: [] }, { items: null }, { shipping_address: 'Somewhere' }]) {
      const response = await checkout(app, alice, body);
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ errors: [{ message: 'Cart is empty' }] });
    }
  });

  it('400 for a quantity that is not a whole number from 1 to 1000', async () => {
    for (const quantity of [0, -1, 1.5, '2', 1001, null]) {
      const response = await checkout(app, alice, { items: [{ product_id: mug.id, quantity }] });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ errors: [{ message: 'items.0.quantity: must be a whole number from 1 to 1000' }] });
    }
    const missing = await checkout(app, alice, { items: [{ product_id: mug.id }] });
    expect(missing.body).toEqual({ errors: [{ message: 'items.0.quantity: must be a whole number from 1 to 1000' }] });
  });

  it('400 naming every bad field at once', async () => {
    const response = await checkout(app, alice, {
      items: [
        { product_id: 'mug', quantity: 1 },
        { product_id: mug.id, quantity: 0, price: 0.01 },
      ],
      payment_method: 'paypal',
      coupon: 'FREE',
    });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      errors: [
        { message: 'items.0.product_id: must be a product id (a positive whole number)' },
        { message: 'items.1.quantity: must be a whole number from 1 to 1000' },
        { message: 'items.1: Unrecognized key: "price"' },
        { message: 'payment_method: only card is accepted' },
        { message: '(body): Unrecognized key: "coupon"' },
      ],
    });
  });

  it('400 for items that are not a list and for a bad shipping address', async () => {
    const notList = await checkout(app, alice, { items: { product_id: mug.id, quantity: 1 } });
    expect(notList.status).toBe(400);
    expect(notList.body).toEqual({ errors: [{ message: 'items: must be an array of { product_id, quantity }' }] });
    const address = await checkout(app, alice, { items: [{ product_id: mug.id, quantity: 1 }], shipping_address: 42 });
    expect(address.status).toBe(400);
    expect(address.body).toEqual({ errors: [{ message: 'shipping_address: must be an address: text, or an object of text fields' }] });
  });

  it('400 for unknown, unpublished and deleted products, each named', async () => {
    const response = await checkout(app, alice, {
      items: [
        { product_id: 999999, quantity: 1 },
        { product_id: mug.id, quantity: 1 },
        { product_id: draft.id, quantity: 1 },
        { product_id: gone.id, quantity: 1 },
      ],
    });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      errors: [
        { message: 'items.0.product_id: product 999999 does not exist or is not for sale' },
        { message: `items.2.product_id: product ${draft.id} does not exist or is not for sale` },
        { message: `items.3.product_id: product ${gone.id} does not exist or is not for sale` },
      ],
    });
  });

  it('409 naming the product when its stock is short, counting repeated lines together', async () => {
    const response = await checkout(app, alice, { items: [{ product_id: mug.id, quantity: 6 }] });
    expect(response.status).toBe(409);
    expect(response.body).toEqual({ errors: [{ message: 'Not enough stock for "Blue mug"' }] });

    const repeated = await checkout(app, alice, {
      items: [
        { product_id: tee.id, quantity: 2 },
        { product_id: mug.id, quantity: 1 },
        { product_id: tee.id, quantity: 2 },
      ],
    });
    expect(repeated.status).toBe(409);
    expect(repeated.body).toEqual({ errors: [{ message: 'Not enough stock for "Tee shirt"' }] });
  });

  it("400 for malformed JSON, in the route's own shape", async () => {
    const response = await app
      .request()
      .post('/api/checkout')
      .set('Authorization', `Bearer ${alice.jwt}`)
      .set('Content-Type', 'application/json')
      .send('{"items": [');
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ errors: [{ message: 'The request body is not valid JSON or form data' }] });
  });
});

describe('a successful checkout', () => {
  let answer: { orderId: string; paymentUrl: string; total: number };

  beforeAll(async () => {
    const response = await checkout(app, alice, {
      items: [
        { product_id: mug.id, quantity: 2 },
        { product_id: tee.id, quantity: 1 },
      ],
      shipping_address: { name: 'Alice', line1: '1 Main Street', city: 'Paris', postal_code: '75001', country: 'FR' },
      payment_method: 'card',
    });
    expect(response.status).toBe(200);
    answer = response.body.data;
  });

  it("answers 200 { data: { orderId, paymentUrl, total } } with the session's URL", () => {
    const session = [...stub.sessions.values()].find((candidate) => candidate.metadata.order_id === answer.orderId);
    expect(session).toBeDefined();
    expect(answer).toEqual({ orderId: expect.stringMatching(UUID), paymentUrl: session?.url, total: 44.99 });
    expect(answer.paymentUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/pay\/cs_test_/);
  });

  it('asks Stripe for a card-only payment session in minor units, with the order id and an idempotency key', () => {
    const request = sessionRequests().find((candidate) => candidate.form['metadata[order_id]'] === answer.orderId);
    expect(request).toBeDefined();
    const form = request?.form ?? {};
    expect(request?.headers['idempotency-key']).toBe(`checkout-session-${answer.orderId}`);
    expect(request?.headers.authorization).toBe('Bearer sk_test_commerce_stub');
    expect(form).toEqual({
      mode: 'payment',
      'allowed_payment_method_types[0]': 'card',
      'line_items[0][quantity]': '2',
      'line_items[0][price_data][currency]': 'eur',
      'line_items[0][price_data][unit_amount]': '1250',
      'line_items[0][price_data][product_data][name]': 'Blue mug',
      'line_items[1][quantity]': '1',
      'line_items[1][price_data][currency]': 'eur',
      'line_items[1][price_data][unit_amount]': '1999',
      'line_items[1][price_data][product_data][name]': 'Tee shirt',
      'metadata[order_id]': answer.orderId,
      client_reference_id: answer.orderId,
      'payment_intent_data[metadata][order_id]': answer.orderId,
      success_url: `http://localhost:3000/checkout/success?order_id=${answer.orderId}&session_id={CHECKOUT_SESSION_ID}`,
      cancel_url: `http://localhost:3000/checkout/cancel?order_id=${answer.orderId}`,
      expires_at: expect.stringMatching(/^\d{10}$/),
    });
    const expiresIn = Number(form.expires_at) - Date.now() / 1000;
    // CHECKOUT_HOLD_MINUTES, 30 by default: the stock is held no longer than that.
    expect(expiresIn).toBeGreaterThan(25 * 60);
    expect(expiresIn).toBeLessThanOrEqual(30 * 60);
    const session = [...stub.sessions.values()].find((candidate) => candidate.metadata.order_id === answer.orderId);
    expect(session).toMatchObject({ amount_total: 4499, mode: 'payment', payment_method_types: ['card'], currency: 'eur' });
  });

  it('takes the stock and stores a pending order with prices and names as they were', async () => {
    expect(await stockOf(app, mug.id)).toBe(3);
    expect(await stockOf(app, tee.id)).toBe(2);
    const order = await orderOf(app, answer.orderId);
    expect(order).toMatchObject({
      uuid: answer.orderId,
      status: 'pending',
      total: 44.99,
      currency: 'eur',
      items: [
        { product_id: mug.id, quantity: 2, price: 12.5, name: 'Blue mug' },
        { product_id: tee.id, quantity: 1, price: 19.99, name: 'Tee shirt' },
      ],
      shipping_address: { name: 'Alice', line1: '1 Main Street', city: 'Paris', postal_code: '75001', country: 'FR' },
      payment_method: 'card',
      payment_id: null,
      paid_at: null,
      stripe_session_id: expect.stringMatching(/^cs_test_/),
      stock_reserved: true,
      user: { id: alice.id },
    });
  });

  it('publishes order.created to the buyer and the administrators, never to another consumer', async () => {
    const [toAlice] = await waitForPosts(receiver, 1, deliveredTo('alice', 'order.created'));
    const [toAdmin] = await waitForPosts(receiver, 1, deliveredTo('admin', 'order.created'));
    const expected = { id: answer.orderId, status: 'pending', total: 44.99, created_at: expect.stringMatching(ISO) };
    expect(eventOf(toAlice)).toEqual({ type: 'order.created', timestamp: expect.stringMatching(ISO), data: expected });
    expect(eventOf(toAdmin).data).toEqual(eventOf(toAlice).data);
    expect(verify(subscriptions.alice.secret, toAlice)).toEqual({ type: 'order.created', timestamp: expect.any(String), data: expected });

    // The deliveries of one event are written together: Bob's would exist by now.
    const bobs = await app
      .request()
      .get(`/api/webhooks/subscriptions/${subscriptions.bob.id}/deliveries`)
      .set('Authorization', `Bearer ${bob.jwt}`);
    expect(bobs.status).toBe(200);
    expect(bobs.body.data.map((delivery: { event_type: string }) => delivery.event_type)).toEqual(['webhook.test']);
  });

  it('announces the stock change as product.updated', async () => {
    const updates = await waitForPosts(receiver, 2, (request) => request.path === '/products');
    const byId = Object.fromEntries(updates.map((request) => [eventOf(request).data.id, eventOf(request).data]));
    expect(byId[mug.documentId]).toEqual({
      id: mug.documentId,
      name: 'Blue mug',
      slug: 'blue-mug',
      price: 12.5,
      stock: 3,
      published: true,
      deleted: false,
    });
    expect(byId[tee.documentId]).toMatchObject({ id: tee.documentId, stock: 2 });
  });
});

describe('when Stripe fails', () => {
  it('answers 500 "Checkout failed", gives the stock back and cancels the order', async () => {
    const mugBefore = await stockOf(app, mug.id);
    const sessionsBefore = sessionRequests().length;
    // Three failures: the first attempt and the SDK's two retries.
    stub.failNext(3);
    const response = await checkout(app, bob, { items: [{ product_id: mug.id, quantity: 2 }] });
    expect(response.status).toBe(500);
    expect(response.body).toEqual({ errors: [{ message: 'Checkout failed' }] });
    expect(sessionRequests().length - sessionsBefore).toBe(3);
    // Every attempt carried the same idempotency key, so a retry could never make a second session.
    const keys = new Set(
      sessionRequests()
        .slice(sessionsBefore)
        .map((request) => request.headers['idempotency-key'])
    );
    expect(keys.size).toBe(1);
    expect(await stockOf(app, mug.id)).toBe(mugBefore);

    const rows = (await app.strapi.db.query('plugin::api-suite.order').findMany({ where: { user: { id: bob.id } } })) as Array<{
      uuid: string;
    }>;
    expect(rows).toHaveLength(1);
    const order = await orderOf(app, rows[0].uuid);
    expect(order).toMatchObject({ status: 'cancelled', stock_reserved: false, stripe_session_id: null });
    expect([...keys][0]).toBe(`checkout-session-${rows[0].uuid}`);

    // Bob's own subscription hears of his order being created and then cancelled.
    await waitForPosts(receiver, 1, deliveredTo('bob', 'order.created'));
    const [cancelled] = await waitForPosts(receiver, 1, deliveredTo('bob', 'order.updated'));
    expect(eventOf(cancelled).data).toEqual({ id: rows[0].uuid, status: 'cancelled', total: 25, created_at: expect.stringMatching(ISO) });
  });

  it("recovers when the SDK's retry succeeds: one session, one order", async () => {
    const sessionsBefore = sessionRequests().length;
    stub.failNext(1);
    const response = await checkout(app, bob, { items: [{ product_id: mug.id, quantity: 1 }] });
    expect(response.status).toBe(200);
    expect(sessionRequests().length - sessionsBefore).toBe(2);
    const sessions = [...stub.sessions.values()].filter((session) => session.metadata.order_id === response.body.data.orderId);
    expect(sessions).toHaveLength(1);
    expect(response.body.data.paymentUrl).toBe(sessions[0].url);
  });
});

describe('holds: one buyer cannot take a shelf off sale', () => {
  it("caps the units one buyer's unpaid checkouts hold, and their number, while others still buy", async () => {
    const shelf = await createProduct(app, token, { name: 'Poster', price: 5, stock: 80 });
    const pin = await createProduct(app, token, { name: 'Pin', price: 2, stock: 50 });
    const hoarder = await registerUser(app);
    const whole = await checkout(app, hoarder, { items: [{ product_id: shelf.id, quantity: 80 }] });
    expect(whole.status).toBe(409);
    expect(whole.body).toEqual({ errors: [{ message: 'Your unpaid checkouts may hold at most 10 of "Poster" (0 held already)' }] });
    expect(await stockOf(app, shelf.id)).toBe(80);

    expect((await checkout(app, hoarder, { items: [{ product_id: shelf.id, quantity: 6 }] })).status).toBe(200);
    const more = await checkout(app, hoarder, { items: [{ product_id: shelf.id, quantity: 5 }] });
    expect(more.status).toBe(409);
    expect(more.body.errors[0].message).toBe('Your unpaid checkouts may hold at most 10 of "Poster" (6 held already)');
    expect((await checkout(app, hoarder, { items: [{ product_id: shelf.id, quantity: 4 }] })).status).toBe(200);
    expect((await checkout(app, hoarder, { items: [{ product_id: pin.id, quantity: 1 }] })).status).toBe(200);
    const fourth = await checkout(app, hoarder, { items: [{ product_id: pin.id, quantity: 1 }] });
    expect(fourth.status).toBe(409);
    expect(fourth.body).toEqual({
      errors: [{ message: 'You already have 3 unpaid checkouts: pay for one or let it expire before starting another' }],
    });
    expect(await stockOf(app, shelf.id)).toBe(70);

    const other = await registerUser(app);
    expect((await checkout(app, other, { items: [{ product_id: shelf.id, quantity: 10 }] })).status).toBe(200);
    expect(await stockOf(app, shelf.id)).toBe(60);
  });
});

describe('the order itself', () => {
  it('merges repeated lines of one product', async () => {
    const response = await checkout(app, alice, {
      items: [
        { product_id: tee.id, quantity: 1 },
        { product_id: tee.id, quantity: 1 },
      ],
    });
    expect(response.status).toBe(200);
    expect(response.body.data.total).toBe(39.98);
    const order = await orderOf(app, response.body.data.orderId);
    expect(order?.items).toEqual([{ product_id: tee.id, quantity: 2, price: 19.99, name: 'Tee shirt' }]);
    expect(await stockOf(app, tee.id)).toBe(0);
    const again = await checkout(app, alice, { items: [{ product_id: tee.id, quantity: 1 }] });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ errors: [{ message: 'Not enough stock for "Tee shirt"' }] });
  });

  it("keeps the price it was bought at when the product's price changes later", async () => {
    const response = await checkout(app, alice, { items: [{ product_id: mug.id, quantity: 1 }] });
    expect(response.status).toBe(200);
    const changed = await app
      .request()
      .put(`/api/products/${mug.documentId}`)
      .set('Authorization', `Bearer ${token}`)
      .send({ data: { price: 99 } });
    expect(changed.status).toBe(200);
    const order = await eventually(async () => (await orderOf(app, response.body.data.orderId)) ?? undefined);
    expect(order.items).toEqual([{ product_id: mug.id, quantity: 1, price: 12.5, name: 'Blue mug' }]);
    expect(order.total).toBe(12.5);
  });
});
