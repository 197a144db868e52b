import { startApp, type TestApp } from '../../helpers/app';
import { stripeEnv, STRIPE_WEBHOOK_SECRET } from '../../helpers/commerce';
import { startInstance, type Instance } from '../../helpers/instance';
import { awayFromMinuteEdge, createPlan, issueKey } from '../../helpers/keys';
import { startStripeStub, type StripeStub } from '../../helpers/stripe-stub';
import { registerUser, type TestUser } from '../../helpers/users';
import { eventually } from '../../helpers/wait';

/**
 * Overage reports survive a crash between sending and recording
 * (docs/billing.md#overage-and-metering): a worker process sends a meter event, Stripe takes it,
 * and the process is killed (SIGKILL) before the answer arrives, so the report is still pending
 * in the database. The next process sends it again under the same identifier; Stripe counts it
 * once. Nothing lost, nothing doubled.
 */
let app: TestApp;
let stub: StripeStub;
let bob: TestUser;
let customer: string;
const instances: Instance[] = [];

const reports = () => app.strapi.db.connection('api_suite_billing_reports');

beforeAll(async () => {
  stub = await startStripeStub();
  // This process never reports on its own during the test; the instances report every second.
  app = await startApp({ env: { ...stripeEnv(stub), BILLING_REPORT_INTERVAL_SECONDS: '3600' } });
  stub.webhookTarget = { url: `${app.url}/api/webhook/stripe`, secret: STRIPE_WEBHOOK_SECRET };
  const plan = await createPlan(app, {
    name: 'metered',
    requests_per_month: 1,
    requests_per_minute: 100,
    endpoints: ['@public'],
    price_monthly: 10,
    overage_unit_amount: 50,
  });
  bob = await registerUser(app);
  await eventually(
    async () =>
      (await app.request().get('/api/v1/billing/plans')).body.data?.some((entry: { id: number }) => entry.id === plan) ? true : undefined,
    20_000,
    'billing provisioned'
  );
  const bought = await app.request().post('/api/v1/billing/checkout').set('Authorization', `Bearer ${bob.jwt}`).send({ plan_id: plan });
  expect(bought.status).toBe(200);
  stub.completeCheckout(bought.body.data.session_id);
  expect(await stub.flush()).toEqual([200, 200, 200]);
  customer = (await app.strapi.plugin('api-suite').service('billing-account').customerOf(bob.consumer_id)) as string;
});

afterAll(async () => {
  for (const instance of instances) await instance.kill();
  await app?.close();
  await stub?.close();
});

it('sends a pending report again after SIGKILL, and Stripe counts it once', async () => {
  const key = await issueKey(app, bob);
  await awayFromMinuteEdge();
  for (let index = 0; index < 4; index += 1) {
    const response = await app.request().get('/api/v1/articles').set('X-API-Key', key.key);
    expect([response.status, response.headers['x-overage']]).toEqual([200, index === 0 ? undefined : 'true']);
  }
  await app.strapi.plugin('api-suite').service('usage').flush();

  // Stripe takes the event but its answer never comes back; the reporter is killed waiting for it.
  stub.hold = /^\/v1\/billing\/meter_events$/;
  const first = await startInstance(app, { BILLING_REPORT_INTERVAL_SECONDS: '1' });
  instances.push(first);
  await eventually(async () => (stub.store.meterEvents.length === 1 ? true : undefined), 20_000, 'the meter event reaching Stripe');
  await first.kill();
  expect(stub.meterTotal(customer)).toBe(3);
  const pending = await reports().where({ consumer_id: bob.consumer_id });
  expect(pending).toEqual([expect.objectContaining({ status: 'pending', value: 3, identifier: stub.store.meterEvents[0].identifier })]);

  // The next process finds the pending report and sends it again, as it was.
  stub.hold = null;
  const second = await startInstance(app, { BILLING_REPORT_INTERVAL_SECONDS: '1' });
  instances.push(second);
  await eventually(
    async () => ((await reports().where({ consumer_id: bob.consumer_id, status: 'pending' })).length === 0 ? true : undefined),
    20_000,
    'the report recorded as sent'
  );
  const attempts = stub.requests.filter((request) => request.path === '/v1/billing/meter_events');
  expect(attempts).toHaveLength(2);
  expect(attempts[1].form.identifier).toBe(attempts[0].form.identifier);
  expect(stub.meterTotal(customer)).toBe(3);

  // What comes after is reported on its own, once.
  await app.request().get('/api/v1/articles').set('X-API-Key', key.key);
  await app.strapi.plugin('api-suite').service('usage').flush();
  await eventually(async () => (stub.meterTotal(customer) === 4 ? true : undefined), 20_000, 'the next report');
  await second.stop();
  expect(stub.meterTotal(customer)).toBe(4);
  expect(await reports().where({ consumer_id: bob.consumer_id }).orderBy('id').select('value', 'status')).toEqual([
    { value: 3, status: 'sent' },
    { value: 1, status: 'sent' },
  ]);
});
