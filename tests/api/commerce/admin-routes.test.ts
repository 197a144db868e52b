import { startApp, type TestApp } from '../../helpers/app';
import { adminAuth, createPluginReader, createAdminEditor, type AdminEditor } from '../../helpers/admin-users';
import { adminSession, documentIdOf, registerUser, type TestUser } from '../../helpers/users';
import { z } from 'zod';
import { expectAnswer } from '../../helpers/answers';
import { orderListing, salesReport } from '../../../src/plugins/api-suite/server/src/features/commerce/validation/responses';

/**
 * The Sales page's admin-panel routes (/api-suite/sales/*): the report for day, week and month and
 * the latest orders with their buyer. Who may call them: tests/api/platform/admin-permissions.test.ts.
 */
let app: TestApp;
let owner: string;
let reader: AdminEditor;
let outsider: AdminEditor;
let alice: TestUser;
let bob: TestUser;

const as = adminAuth;

beforeAll(async () => {
  app = await startApp();
  owner = (await adminSession(app)).token;
  reader = await createPluginReader(app);
  outsider = await createAdminEditor(app, []);
  alice = await registerUser(app, { plan: 'enterprise' });
  bob = await registerUser(app, { plan: 'enterprise' });
}, 120_000);

afterAll(async () => {
  await app?.close();
});

describe('sales', () => {
  const HOUR = 3_600_000;
  const DAY = 24 * HOUR;

  /** An order as an editor enters it in the content manager, for a buyer. */
  const enterOrder = async (
    buyer: TestUser,
    status: string,
    total: number,
    ageMs: number
  ): Promise<{ uuid: string; documentId: string }> => {
    const response = await app
      .request()
      .post('/content-manager/collection-types/plugin::api-suite.order')
      .set(as(owner))
      .send({
        items: [
          { product_id: 1, quantity: 2, price: total / 4, name: 'Entered by hand' },
          { product_id: 2, quantity: 1, price: total / 2, name: 'Also by hand' },
        ],
        total,
        status,
        date_created: new Date(Date.now() - ageMs).toISOString(),
        user: { connect: [{ documentId: await documentIdOf(app, buyer.id) }] },
      });
    expect([response.status, response.body.error]).toEqual([201, undefined]);
    return response.body.data;
  };

  it('answers zeros and no orders before the first sale', async () => {
    const report = await app.request().get('/api-suite/sales/report').set(as(reader.token));
    expect(report.status).toBe(200);
    const zero = (period: string) => ({ count: 0, revenue: 0, avgOrder: 0, period });
    expect(report.body).toEqual({ data: { currency: 'eur', periods: { day: zero('day'), week: zero('week'), month: zero('month') } } });
    const orders = await app.request().get('/api-suite/sales/orders').set(as(reader.token));
    expect(orders.body).toEqual({ data: [], meta: { page: 1, limit: 20, total: 0 } });
  });

  it('reports day, week and month together and lists the latest orders with their buyer', async () => {
    const entered = [
      await enterOrder(alice, 'pending', 99, 0.5 * HOUR),
      await enterOrder(bob, 'cancelled', 50, 1 * HOUR),
      await enterOrder(alice, 'paid', 10.1, 2 * HOUR),
      await enterOrder(bob, 'shipped', 20.2, 3 * DAY),
      await enterOrder(alice, 'delivered', 5.05, 10 * DAY),
      await enterOrder(bob, 'paid', 40, 40 * DAY),
    ];

    const report = await app.request().get('/api-suite/sales/report').set(as(reader.token));
    expect(report.status).toBe(200);
    // Day: 10.10. Week: 10.10 + 20.20 = 30.30, mean 15.15 → 15. Month: + 5.05 = 35.35, mean 11.78 → 12.
    expect(report.body).toEqual({
      data: {
        currency: 'eur',
        periods: {
          day: { count: 1, revenue: 10.1, avgOrder: 10, period: 'day' },
          week: { count: 2, revenue: 30.3, avgOrder: 15, period: 'week' },
          month: { count: 3, revenue: 35.35, avgOrder: 12, period: 'month' },
        },
      },
    });
    // The same figures as the API's own report, which administrators of the API read.
    const orders = await app.request().get('/api-suite/sales/orders').set(as(reader.token));
    expect(orders.status).toBe(200);
    expect(orders.body.meta).toEqual({ page: 1, limit: 20, total: 6 });
    expectAnswer(salesReport, report.body.data);
    expectAnswer(z.array(orderListing), orders.body.data);
    expect(orders.body.data.map((order: { id: string }) => order.id)).toEqual(entered.map((order) => order.uuid));
    const first = orders.body.data[0];
    expect(first).toEqual({
      id: entered[0].uuid,
      document_id: entered[0].documentId,
      status: 'pending',
      total: 99,
      currency: null,
      items: 3,
      buyer: { id: alice.id, username: alice.username, email: alice.email },
      created_at: expect.any(String),
      paid_at: null,
      payment_id: null,
    });
    expect(Math.abs(Date.parse(first.created_at) - (Date.now() - 0.5 * HOUR))).toBeLessThan(60_000);
  });

  it('filters the orders by status and pages through them', async () => {
    const paid = await app.request().get('/api-suite/sales/orders?status=paid').set(as(reader.token));
    expect(paid.body.meta.total).toBe(2);
    expect(paid.body.data.map((order: { total: number; buyer: { id: number } }) => [order.total, order.buyer.id])).toEqual([
      [10.1, alice.id],
      [40, bob.id],
    ]);
    const second = await app.request().get('/api-suite/sales/orders?page=2&limit=2').set(as(reader.token));
    expect(second.body.meta).toEqual({ page: 2, limit: 2, total: 6 });
    expect(second.body.data.map((order: { status: string }) => order.status)).toEqual(['paid', 'shipped']);

    const bad = await app.request().get('/api-suite/sales/orders?status=lost&limit=0').set(as(reader.token));
    expect(bad.status).toBe(400);
    expect(bad.body.error.name).toBe('validation_error');
    expect((bad.body.error.details.errors as Array<{ path: string[] }>).map((error) => error.path.join('.')).sort()).toEqual([
      'limit',
      'status',
    ]);
  });

  it('refuses the orders to editors without sales.read and to API users', async () => {
    expect((await app.request().get('/api-suite/sales/orders').set(as(outsider.token))).status).toBe(403);
    expect((await app.request().get('/api-suite/sales/orders').set(as(alice.jwt))).status).toBe(401);
  });
});
