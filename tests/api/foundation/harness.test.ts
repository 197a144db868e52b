import Stripe from 'stripe';
import { startApp, type TestApp } from '../../helpers/app';
import { startReceiver, type Receiver } from '../../helpers/receiver';
import { startSmtp, type SmtpCapture } from '../../helpers/smtp';
import { startStripeStub, type StripeStub } from '../../helpers/stripe-stub';

/**
 * The stand-ins the feature tests rely on work with the real components: Strapi's email plugin
 * over SMTP, the official Stripe SDK, and the plugin's outbound client.
 */
let app: TestApp;
let smtp: SmtpCapture;
let stripeStub: StripeStub;
let receiver: Receiver;

beforeAll(async () => {
  smtp = await startSmtp();
  stripeStub = await startStripeStub();
  receiver = await startReceiver((request) => (request.path === '/fail' ? { status: 503, body: 'down' } : { status: 202, body: 'ok' }));
  app = await startApp({
    env: { SMTP_HOST: smtp.host, SMTP_PORT: String(smtp.port), SMTP_IGNORE_TLS: 'true', EMAIL_FROM: 'api@example.test' },
  });
});

afterAll(async () => {
  await app?.close();
  await Promise.all([smtp?.close(), stripeStub?.close(), receiver?.close()]);
});

it("delivers e-mail through Strapi's email plugin to the local SMTP server", async () => {
  await app.strapi
    .plugin('email')
    .service('email')
    .send({ to: 'owner@example.test', subject: 'Subscription disabled', text: 'It failed 100 times.' });
  const [mail] = await smtp.waitFor(1);
  expect(mail).toMatchObject({ from: 'api@example.test', to: ['owner@example.test'], subject: 'Subscription disabled' });
  expect(mail.raw).toContain('It failed 100 times.');
});

it('answers the official Stripe SDK, honouring idempotency keys', async () => {
  const stripe = new Stripe('sk_test_stub', {
    host: stripeStub.host,
    port: stripeStub.port,
    protocol: stripeStub.protocol,
    maxNetworkRetries: 0,
  });
  const params: Stripe.Checkout.SessionCreateParams = {
    mode: 'payment',
    // Stripe's 2026 API names the card-only restriction allowed_payment_method_types.
    allowed_payment_method_types: ['card'],
    line_items: [{ quantity: 2, price_data: { currency: 'usd', unit_amount: 1250, product_data: { name: 'Mug' } } }],
    metadata: { order_id: '42' },
    success_url: 'http://localhost:3000/ok',
    cancel_url: 'http://localhost:3000/cancel',
  };
  const session = await stripe.checkout.sessions.create(params, { idempotencyKey: 'order-42' });
  expect(session).toMatchObject({
    object: 'checkout.session',
    amount_total: 2500,
    metadata: { order_id: '42' },
    payment_method_types: ['card'],
  });
  expect(session.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/pay\/cs_test_/);
  const again = await stripe.checkout.sessions.create(params, { idempotencyKey: 'order-42' });
  expect(again.id).toBe(session.id);
  expect(stripeStub.requests.at(-1)?.headers['idempotency-key']).toBe('order-42');

  stripeStub.failNext(1);
  await expect(stripe.checkout.sessions.create(params)).rejects.toThrow('stub failure');

  const payload = JSON.stringify({ id: 'evt_1', type: 'checkout.session.completed', data: { object: session } });
  const event = stripe.webhooks.constructEvent(payload, stripeStub.sign(payload, 'whsec_test'), 'whsec_test');
  expect(event.type).toBe('checkout.session.completed');
});

it("receives what the plugin's outbound client sends", async () => {
  const outbound = (
    app.strapi.plugin('api-suite').service('platform') as {
      outbound(): { request: (url: string, init: object) => Promise<{ status: number; body: string }> };
    }
  ).outbound();
  const ok = await outbound.request(`${receiver.url}/hook`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{"a":1}',
  });
  expect(ok).toMatchObject({ status: 202, body: 'ok' });
  const failed = await outbound.request(`${receiver.url}/fail`, { method: 'POST', body: '{}' });
  expect(failed.status).toBe(503);
  expect(receiver.requests.map((request) => [request.method, request.path, request.body])).toEqual([
    ['POST', '/hook', '{"a":1}'],
    ['POST', '/fail', '{}'],
  ]);
});
