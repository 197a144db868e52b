import { startApp, type TestApp } from '../../helpers/app';
import { adminAuth, createPluginReader, API_SUITE_ACTIONS, createAdminEditor, type AdminEditor } from '../../helpers/admin-users';
import { startReceiver, type Receiver } from '../../helpers/receiver';
import { startSite, type TestSite } from '../../helpers/site';
import { adminSession, registerUser, type TestUser } from '../../helpers/users';
import { subscribe, type CreatedSubscription } from '../../helpers/webhooks';

/**
 * The admin permissions the plugin registers for its admin-panel routes (/api-suite/*): who may
 * read and who may change, across every feature. Each feature's own admin routes are tested in
 * its folder (tests/api/<feature>/admin-routes.test.ts).
 */
let app: TestApp;
let site: TestSite;
let receiver: Receiver;
let owner: string;
let reader: AdminEditor;
let outsider: AdminEditor;
let alice: TestUser;
let aliceSubscription: CreatedSubscription;

const as = adminAuth;
const READS = [
  '/api-suite/webhooks/subscriptions',
  '/api-suite/webhooks/event-types',
  '/api-suite/scrapers',
  '/api-suite/scrapers/options',
  '/api-suite/access/plans',
  '/api-suite/access/keys',
  '/api-suite/access/consumers',
  '/api-suite/access/usage',
  '/api-suite/consumers',
  '/api-suite/sales/report',
  '/api-suite/sales/orders',
];

beforeAll(async () => {
  site = await startSite();
  receiver = await startReceiver();
  app = await startApp();
  owner = (await adminSession(app)).token;
  reader = await createPluginReader(app);
  outsider = await createAdminEditor(app, []);
  alice = await registerUser(app, { plan: 'enterprise' });
  aliceSubscription = await subscribe(app, alice, { endpoint_url: `${receiver.url}/alice`, events: ['article.created'] });
}, 120_000);

afterAll(async () => {
  await app?.close();
  await receiver?.close();
  await site?.close();
});

describe('admin permissions', () => {
  it('registers read and manage actions for each page in Settings → Roles', async () => {
    const response = await app.request().get('/admin/permissions').set(as(owner));
    expect(response.status).toBe(200);
    const plugins = response.body.data.sections.plugins as Array<{ plugin: string; subCategory: string; action: string }>;
    expect(plugins.filter((action) => action.plugin === 'api-suite').map((action) => [action.subCategory, action.action])).toEqual([
      ['api access', API_SUITE_ACTIONS.accessRead],
      ['api access', API_SUITE_ACTIONS.accessManage],
      ['webhooks', API_SUITE_ACTIONS.webhooksRead],
      ['webhooks', API_SUITE_ACTIONS.webhooksManage],
      ['scrapers', API_SUITE_ACTIONS.scrapersRead],
      ['scrapers', API_SUITE_ACTIONS.scrapersManage],
      ['sales', API_SUITE_ACTIONS.salesRead],
      ['sales', API_SUITE_ACTIONS.salesManage],
    ]);
  });

  it('refuses every admin route without an admin session', async () => {
    for (const path of READS) expect([path, (await app.request().get(path)).status]).toEqual([path, 401]);
    expect((await app.request().get('/api-suite/webhooks/subscriptions').set(as(alice.jwt))).status).toBe(401);
  });

  it('gives an editor with the read actions 200 on reads and 403 on every write', async () => {
    for (const path of READS) expect([path, (await app.request().get(path).set(as(reader.token))).status]).toEqual([path, 200]);
    expect(
      (await app.request().get(`/api-suite/webhooks/subscriptions/${aliceSubscription.id}/deliveries`).set(as(reader.token))).status
    ).toBe(200);

    const writes: Array<[string, ReturnType<ReturnType<TestApp['request']>['post']>]> = [
      ['re-enable', app.request().put(`/api-suite/webhooks/subscriptions/${aliceSubscription.id}`).send({ is_active: true })],
      ['test', app.request().post(`/api-suite/webhooks/subscriptions/${aliceSubscription.id}/test`)],
      ['event type', app.request().put('/api-suite/webhooks/event-types/article.created').send({ description: 'x' })],
      ['scraper', app.request().post('/api-suite/scrapers').send({ name: 'x', url: site.url, user_id: alice.id })],
      ['run', app.request().post('/api-suite/scrapers/1/run')],
      [
        'plan',
        app
          .request()
          .post('/api-suite/access/plans')
          .send({ name: 'x', requests_per_month: 1, requests_per_minute: 1, endpoints: ['* *'], price_monthly: 0 }),
      ],
      ['plan edit', app.request().put('/api-suite/access/plans/1').send({ price_monthly: 1 })],
      ['key', app.request().post('/api-suite/access/keys').send({ user_id: alice.id, plan_id: 1 })],
      ['revoke', app.request().delete('/api-suite/access/keys/1')],
    ];
    for (const [what, request] of writes) {
      const response = await request.set(as(reader.token));
      expect([what, response.status, response.body.error?.name]).toEqual([what, 403, 'PolicyError']);
    }
    // Nothing was changed by the refused writes.
    expect((await app.request().get('/api-suite/scrapers').set(as(owner))).body.meta.total).toBe(0);
    expect((await app.request().get('/api-suite/access/keys').set(as(owner))).body.meta.total).toBe(0);
  });

  it("gives an editor without the plugin's actions 403 on reads too", async () => {
    for (const path of READS) expect([path, (await app.request().get(path).set(as(outsider.token))).status]).toEqual([path, 403]);
  });
});
