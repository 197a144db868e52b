import Stripe from 'stripe';
import type { TestApp } from './app';
import type { StripeStub } from './stripe-stub';
import type { TestUser } from './users';

export const STRIPE_SECRET_KEY = 'sk_test_commerce_stub';
export const STRIPE_WEBHOOK_SECRET = 'whsec_commerce_test_secret';

/** The environment that points the app's Stripe SDK at the local stub. */
export function stripeEnv(stub: StripeStub): Record<string, string> {
  return {
    STRIPE_SECRET_KEY,
    STRIPE_WEBHOOK_SECRET,
    STRIPE_API_HOST: stub.host,
    STRIPE_API_PORT: String(stub.port),
    STRIPE_API_PROTOCOL: stub.protocol,
  };
}

export interface TestProduct {
  id: number;
  documentId: string;
  name: string;
  price: number;
  stock: number;
}

/** Create a product through Strapi's content API with a full-access token (for sale unless told otherwise). */
export async function createProduct(
  app: TestApp,
  token: string,
  fields: { name: string; price: number; stock: number; slug?: string; published?: boolean; deleted?: boolean; description?: string }
): Promise<TestProduct> {
  const response = await app
    .request()
    .post('/api/products')
    .set('Authorization', `Bearer ${token}`)
    .send({ data: { published: true, deleted: false, ...fields } });
  if (response.status !== 201 && response.status !== 200)
    throw new Error(`product creation failed: ${response.status} ${JSON.stringify(response.body)}`);
  const data = response.body.data as TestProduct;
  return { id: data.id, documentId: data.documentId, name: fields.name, price: fields.price, stock: fields.stock };
}

/** A product's stock as stored. */
export async function stockOf(app: TestApp, productId: number): Promise<number> {
  const row = await app.strapi.db.query('api::product.product').findOne({ where: { id: productId }, select: ['stock'] });
  return Number(row?.stock);
}

export function checkout(app: TestApp, user: TestUser | null, body: unknown) {
  const request = app.request().post('/api/checkout');
  if (user) request.set('Authorization', `Bearer ${user.jwt}`);
  return request.send(body as object);
}

export interface StoredOrder {
  id: number;
  uuid: string;
  status: string;
  total: number;
  items: Array<{ product_id: number; quantity: number; price: number; name: string }>;
  payment_id: string | null;
  paid_at: string | null;
  stripe_session_id: string | null;
  stock_reserved: boolean;
  user: { id: number } | null;
}

export async function orderOf(app: TestApp, uuid: string): Promise<StoredOrder | null> {
  const row = await app.strapi.db.query('plugin::api-suite.order').findOne({ where: { uuid }, populate: { user: { select: ['id'] } } });
  if (!row) return null;
  const items = typeof row.items === 'string' ? JSON.parse(row.items) : row.items;
  return {
    ...row,
    total: Number(row.total),
    items,
    stock_reserved: row.stock_reserved === true || row.stock_reserved === 1,
  } as StoredOrder;
}

/** A Stripe event for a Checkout Session, as Stripe would send it. */
export function sessionEvent(
  type: string,
  session: Partial<Stripe.Checkout.Session> & { metadata?: Record<string, string> },
  id = `evt_${Math.random().toString(36).slice(2)}${Date.now().toString(36)}`
): string {
  return JSON.stringify({
    id,
    object: 'event',
    api_version: '2026-10-28.endive',
    created: Math.floor(Date.now() / 1000),
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
    data: {
      object: {
        id: `cs_test_${Math.random().toString(36).slice(2)}`,
        object: 'checkout.session',
        mode: 'payment',
        status: type === 'checkout.session.expired' ? 'expired' : 'complete',
        payment_status: type === 'checkout.session.expired' ? 'unpaid' : 'paid',
        payment_intent: type === 'checkout.session.expired' ? null : `pi_${Math.random().toString(36).slice(2)}`,
        ...session,
      },
    },
  });
}

/** POST a webhook as Stripe does, signed with the official SDK's test header (or the given one). */
export function sendStripeEvent(app: TestApp, payload: string, options: { secret?: string; signature?: string; body?: string } = {}) {
  const signature =
    options.signature ?? Stripe.webhooks.generateTestHeaderString({ payload, secret: options.secret ?? STRIPE_WEBHOOK_SECRET });
  return app
    .request()
    .post('/api/webhook/stripe')
    .set('Content-Type', 'application/json; charset=utf-8')
    .set('Stripe-Signature', signature)
    .send(options.body ?? payload);
}
