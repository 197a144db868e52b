import { startApp, type TestApp } from '../../helpers/app';
import { awayFromMinuteEdge, createPlan, issueKey } from '../../helpers/keys';
import { adminSession, makeAdministrator, registerUser, type TestUser } from '../../helpers/users';

/**
 * A site without STRIPE_SECRET_KEY: every billing route answers 503 `billing_not_configured`,
 * and nothing else changes: a plan with an overage price is still a hard monthly limit (429),
 * since nothing could bill the overage.
 */
let app: TestApp;
let alice: TestUser;

const UNAVAILABLE = { error: { code: 'billing_not_configured', message: 'Billing is not available on this site' } };

beforeAll(async () => {
  app = await startApp({ env: { STRIPE_SECRET_KEY: '', STRIPE_WEBHOOK_SECRET: '' } });
  alice = await registerUser(app);
});

afterAll(async () => {
  await app?.close();
});

it('answers 503 billing_not_configured on every billing route', async () => {
  const plans = await app.request().get('/api/v1/billing/plans');
  expect(plans.status).toBe(503);
  expect(plans.body).toEqual(UNAVAILABLE);
  const auth = { Authorization: `Bearer ${alice.jwt}` };
  for (const [method, path] of [
    ['post', '/api/v1/billing/checkout'],
    ['post', '/api/v1/billing/change-plan'],
    ['post', '/api/v1/billing/portal'],
    ['get', '/api/v1/billing/subscription'],
  ] as const) {
    const response = await app
      .request()
      [method](path)
      .set(auth)
      .send(method === 'post' ? { plan_id: 1 } : undefined);
    expect([path, response.status]).toEqual([path, 503]);
    expect(response.body).toEqual(UNAVAILABLE);
  }
});

it('still asks for a credential first', async () => {
  const response = await app.request().post('/api/v1/billing/checkout').send({ plan_id: 1 });
  expect(response.status).toBe(401);
  expect(response.body.error.code).toBe('api_key_required');
});

it('keeps a plan with an overage price a hard monthly limit', async () => {
  const plan = await createPlan(app, {
    name: 'metered-off',
    requests_per_month: 2,
    requests_per_minute: 50,
    endpoints: ['@public'],
    price_monthly: 10,
    overage_unit_amount: 50,
  });
  const key = await issueKey(app, await makeAdministrator(app, await registerUser(app)), { plan_id: plan, user_id: alice.id });
  await awayFromMinuteEdge();
  const statuses = [];
  for (let index = 0; index < 3; index += 1) {
    const response = await app.request().get('/api/v1/articles').set('X-API-Key', key.key);
    statuses.push([response.status, response.headers['x-overage']]);
  }
  expect(statuses).toEqual([
    [200, undefined],
    [200, undefined],
    [429, undefined],
  ]);
});

it('lists no subscriptions in the admin panel and says billing is off', async () => {
  const owner = await adminSession(app);
  const response = await app.request().get('/api-suite/billing/subscriptions').set('Authorization', `Bearer ${owner.token}`);
  expect(response.status).toBe(200);
  expect(response.body).toEqual({
    data: [],
    meta: { page: 1, limit: 20, total: 0, billing: { configured: false, ready: false, reason: 'STRIPE_SECRET_KEY is not set' } },
  });
});
