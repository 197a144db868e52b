import { startApp, type TestApp } from '../../helpers/app';
import { stripeEnv } from '../../helpers/commerce';
import { startStripeStub, type StripeStub } from '../../helpers/stripe-stub';
import { adminSession } from '../../helpers/users';
import { eventually } from '../../helpers/wait';

/**
 * Stripe unreachable or refusing at boot (docs/billing.md#plans-in-stripe): the app boots and
 * serves, billing answers 503 billing_not_configured with the reason in the log and the admin
 * panel, provisioning retries in the background, and billing opens by itself once Stripe answers.
 */
let app: TestApp;
let stub: StripeStub;

beforeAll(async () => {
  stub = await startStripeStub();
  stub.down = 503;
  app = await startApp({ env: stripeEnv(stub) });
});

afterAll(async () => {
  await app?.close();
  await stub?.close();
});

it('boots and serves while Stripe refuses, with billing closed and the reason known', async () => {
  expect((await app.request().get('/api/v1/plans')).status).toBe(200);
  const plans = await app.request().get('/api/v1/billing/plans');
  expect(plans.status).toBe(503);
  expect(plans.body).toEqual({ error: { code: 'billing_not_configured', message: 'Billing is not available on this site' } });
  const owner = await adminSession(app);
  const state = await eventually(
    async () => {
      const response = await app.request().get('/api-suite/billing/subscriptions').set('Authorization', `Bearer ${owner.token}`);
      return response.body.meta?.billing?.reason?.startsWith('Stripe provisioning failed') ? response.body.meta.billing : undefined;
    },
    10_000,
    'the failure recorded'
  );
  expect(state).toEqual({ configured: true, ready: false, reason: expect.stringMatching(/^Stripe provisioning failed: /) });
  expect(stub.store.prices.size).toBe(0);
});

it('opens billing by itself once Stripe answers again', async () => {
  stub.down = null;
  await eventually(
    async () => ((await app.request().get('/api/v1/billing/plans')).status === 200 ? true : undefined),
    20_000,
    'billing provisioned after Stripe came back'
  );
  expect(
    [...stub.store.prices.values()]
      .filter((price) => price.active)
      .map((price) => price.lookup_key)
      .sort()
  ).toEqual(
    (await app.strapi.db.connection('api_suite_plans').where('price_monthly', '>', 0).select('id'))
      .map((plan: { id: number }) => `api-suite:${plan.id}:flat`)
      .sort()
  );
});
