import { startApp, type TestApp } from '../../helpers/app';
import { checkout, createProduct, sendStripeEvent, sessionEvent, stockOf, type TestProduct } from '../../helpers/commerce';
import { fullAccessToken, registerUser, type TestUser } from '../../helpers/users';

/**
 * A site without STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET: checkout answers 500 "Checkout
 * failed" without reserving or storing anything, bad input is still a 400 or 409, and the
 * webhook, which cannot verify anything, answers 500 so that Stripe keeps retrying.
 */
let app: TestApp;
let alice: TestUser;
let kettle: TestProduct;

beforeAll(async () => {
  app = await startApp({ env: { STRIPE_SECRET_KEY: '', STRIPE_WEBHOOK_SECRET: '' } });
  alice = await registerUser(app, { plan: 'enterprise' });
  kettle = await createProduct(app, await fullAccessToken(app), { name: 'Kettle', price: 30, stock: 2 });
});

afterAll(async () => {
  await app?.close();
});

it('answers 500 "Checkout failed" and keeps the stock and the orders as they were', async () => {
  const response = await checkout(app, alice, { items: [{ product_id: kettle.id, quantity: 1 }] });
  expect(response.status).toBe(500);
  expect(response.body).toEqual({ errors: [{ message: 'Checkout failed' }] });
  expect(await stockOf(app, kettle.id)).toBe(2);
  expect(Number(await app.strapi.db.query('plugin::api-suite.order').count({}))).toBe(0);
});

it('still answers bad input with 400 and short stock with 409', async () => {
  const unknown = await checkout(app, alice, { items: [{ product_id: 424242, quantity: 1 }] });
  expect(unknown.status).toBe(400);
  expect(unknown.body).toEqual({ errors: [{ message: 'items.0.product_id: product 424242 does not exist or is not for sale' }] });
  const short = await checkout(app, alice, { items: [{ product_id: kettle.id, quantity: 3 }] });
  expect(short.status).toBe(409);
  expect(short.body).toEqual({ errors: [{ message: 'Not enough stock for "Kettle"' }] });
});

it('answers Stripe 500 { error } while no webhook secret is set', async () => {
  const response = await sendStripeEvent(
    app,
    sessionEvent('checkout.session.completed', { metadata: { order_id: '00000000-0000-4000-8000-000000000000' } })
  );
  expect(response.status).toBe(500);
  expect(response.body).toEqual({ error: 'Webhook receiver misconfigured' });
});
