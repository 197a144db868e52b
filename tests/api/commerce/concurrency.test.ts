import { startApp, type TestApp } from '../../helpers/app';
import { checkout, createProduct, stockOf, stripeEnv } from '../../helpers/commerce';
import { startStripeStub, type StripeStub } from '../../helpers/stripe-stub';
import { fullAccessToken, registerUser, type TestUser } from '../../helpers/users';

/**
 * Stock is reserved atomically (docs/commerce.md#checkout): concurrent checkouts never sell more
 * than there is, whichever database runs, and carts that name the same products in opposite orders
 * never wait for each other.
 */
let app: TestApp;
let stub: StripeStub;
let token: string;
let buyers: TestUser[];

beforeAll(async () => {
  stub = await startStripeStub();
  // The point here is the stock under concurrency, not the per-buyer hold limits (checkout.test.ts has those).
  app = await startApp({ env: { ...stripeEnv(stub), CHECKOUT_MAX_OPEN: '1000', CHECKOUT_MAX_HELD: '1000' } });
  token = await fullAccessToken(app);
  buyers = [];
  for (let i = 0; i < 5; i += 1) buyers.push(await registerUser(app, { plan: 'enterprise' }));
});

afterAll(async () => {
  await app?.close();
  await stub?.close();
});

const pendingOrdersOf = async (productId: number) => {
  const rows = (await app.strapi.db
    .query('plugin::api-suite.order')
    .findMany({ where: { status: 'pending' }, select: ['items'] })) as Array<{ items: unknown }>;
  return rows.filter((row) => {
    const items = (typeof row.items === 'string' ? JSON.parse(row.items) : row.items) as Array<{ product_id: number }>;
    return items.some((item) => item.product_id === productId);
  }).length;
};

it('50 concurrent checkouts for a product with stock 10: exactly 10 succeed, stock ends at 0', async () => {
  const product = await createProduct(app, token, { name: 'Limited print', price: 80, stock: 10 });
  const sessionsBefore = stub.sessions.size;

  const responses = await Promise.all(
    Array.from({ length: 50 }, (_, i) => checkout(app, buyers[i % buyers.length], { items: [{ product_id: product.id, quantity: 1 }] }))
  );

  const statuses = responses.map((response) => response.status);
  expect(statuses.filter((status) => status === 200)).toHaveLength(10);
  expect(statuses.filter((status) => status === 409)).toHaveLength(40);
  for (const response of responses.filter((candidate) => candidate.status === 409)) {
    expect(response.body).toEqual({ errors: [{ message: 'Not enough stock for "Limited print"' }] });
  }
  expect(await stockOf(app, product.id)).toBe(0);
  expect(await pendingOrdersOf(product.id)).toBe(10);
  expect(stub.sessions.size - sessionsBefore).toBe(10);
  expect(new Set(responses.filter((response) => response.status === 200).map((response) => response.body.data.orderId)).size).toBe(10);
});

it('carts naming two products in opposite orders: no deadlock, no oversell', async () => {
  const left = await createProduct(app, token, { name: 'Left glove', price: 15, stock: 10 });
  const right = await createProduct(app, token, { name: 'Right glove', price: 15, stock: 10 });

  const responses = await Promise.all(
    Array.from({ length: 30 }, (_, i) =>
      checkout(app, buyers[i % buyers.length], {
        items:
          i % 2 === 0
            ? [
                { product_id: left.id, quantity: 1 },
                { product_id: right.id, quantity: 1 },
              ]
            : [
                { product_id: right.id, quantity: 1 },
                { product_id: left.id, quantity: 1 },
              ],
      })
    )
  );

  const statuses = responses.map((response) => response.status);
  expect(statuses.filter((status) => status === 200)).toHaveLength(10);
  expect(statuses.filter((status) => status === 409)).toHaveLength(20);
  expect(await stockOf(app, left.id)).toBe(0);
  expect(await stockOf(app, right.id)).toBe(0);
});

it('a quantity larger than one never takes the stock below zero', async () => {
  const product = await createProduct(app, token, { name: 'Crate', price: 5, stock: 7 });
  const responses = await Promise.all(
    Array.from({ length: 12 }, (_, i) => checkout(app, buyers[i % buyers.length], { items: [{ product_id: product.id, quantity: 3 }] }))
  );
  expect(responses.filter((response) => response.status === 200)).toHaveLength(2);
  expect(await stockOf(app, product.id)).toBe(1);
});
