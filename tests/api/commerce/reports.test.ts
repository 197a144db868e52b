import { startApp, type TestApp } from '../../helpers/app';
import { adminSession, makeAdministrator, registerUser, type TestUser } from '../../helpers/users';

/**
 * GET /api/reports/sales (docs/commerce.md#the-sales-report): administrators only; count, revenue
 * and the rounded mean of the orders created within the period whose status is paid, shipped or
 * delivered, checked against figures computed by hand.
 */
let app: TestApp;
let admin: TestUser;
let alice: TestUser;

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

beforeAll(async () => {
  app = await startApp();
  alice = await registerUser(app, { plan: 'enterprise' });
  admin = await makeAdministrator(app, await registerUser(app));
});

afterAll(async () => {
  await app?.close();
});

const report = (user: TestUser | null, query = '') => {
  const request = app.request().get(`/api/reports/sales${query}`);
  if (user) request.set('Authorization', `Bearer ${user.jwt}`);
  return request;
};

/** An order as an editor would enter it in the admin panel. */
async function enterOrder(status: string, total: number, ageMs: number): Promise<{ uuid: string }> {
  const session = await adminSession(app);
  const response = await app
    .request()
    .post('/content-manager/collection-types/plugin::api-suite.order')
    .set('Authorization', `Bearer ${session.token}`)
    .send({
      items: [{ product_id: 1, quantity: 1, price: total, name: 'Entered by hand' }],
      total,
      status,
      date_created: new Date(Date.now() - ageMs).toISOString(),
    });
  if (response.status !== 201 && response.status !== 200)
    throw new Error(`order entry failed: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body.data;
}

it('401 without credentials or with a bad token, 403 for a user who is not an administrator', async () => {
  const none = await report(null);
  expect(none.status).toBe(401);
  expect(none.body).toEqual({ errors: [{ message: 'Authentication required: send a user token as Authorization: Bearer <jwt>' }] });
  const bad = await app.request().get('/api/reports/sales').set('Authorization', 'Bearer forged.token.here');
  expect(bad.status).toBe(401);
  expect(bad.body).toEqual({ errors: [{ message: 'The access token is not valid or has expired' }] });
  const user = await report(alice);
  expect(user.status).toBe(403);
  expect(user.body).toEqual({ errors: [{ message: 'Only administrators may read sales reports' }] });
});

it('answers zeros without orders', async () => {
  for (const period of ['day', 'week', 'month']) {
    const response = await report(admin, `?period=${period}`);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ data: { count: 0, revenue: 0, avgOrder: 0, period } });
  }
});

describe('over orders of several statuses and ages', () => {
  beforeAll(async () => {
    await enterOrder('paid', 10, 1 * HOUR);
    await enterOrder('delivered', 11, 5 * HOUR);
    await enterOrder('shipped', 20.1, 2 * DAY);
    await enterOrder('paid', 30.2, 6 * DAY);
    await enterOrder('paid', 40, 10 * DAY);
    await enterOrder('delivered', 50, 40 * DAY);
    // Not sales, whatever their age.
    await enterOrder('pending', 60, 1 * HOUR);
    await enterOrder('cancelled', 70, 1 * HOUR);
  });

  it('day: the last 24 hours', async () => {
    // 10 + 11 = 21 over 2 orders; the mean 10.5 rounds to 11.
    const response = await report(admin, '?period=day');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ data: { count: 2, revenue: 21, avgOrder: 11, period: 'day' } });
  });

  it('week: the last 7 days, also the default', async () => {
    // 10 + 11 + 20.10 + 30.20 = 71.30 over 4; the mean 17.825 rounds to 18.
    const expected = { data: { count: 4, revenue: 71.3, avgOrder: 18, period: 'week' } };
    expect((await report(admin, '?period=week')).body).toEqual(expected);
    expect((await report(admin)).body).toEqual(expected);
  });

  it('month: the last 30 days', async () => {
    // 71.30 + 40 = 111.30 over 5; the mean 22.26 rounds to 22.
    const response = await report(admin, '?period=month');
    expect(response.body).toEqual({ data: { count: 5, revenue: 111.3, avgOrder: 22, period: 'month' } });
  });

  it('any other period acts as a week and says so', async () => {
    for (const query of ['?period=year', '?period=', '?period=DAY', '?period[]=day', '?period=day&period=month']) {
      const response = await report(admin, query);
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ data: { count: 4, revenue: 71.3, avgOrder: 18, period: 'week' } });
    }
  });

  it('gives orders entered in the admin panel their own UUID and creation date', async () => {
    const entered = await enterOrder('pending', 1, 0);
    const row = await app.strapi.db.query('plugin::api-suite.order').findOne({ where: { uuid: entered.uuid } });
    expect(row.uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(row.stock_reserved === false || row.stock_reserved === 0).toBe(true);
  });
});
