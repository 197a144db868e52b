import http from 'node:http';
import { startApp, type TestApp } from '../../helpers/app';
import { API_SUITE_ACTIONS, createAdminEditor, type AdminEditor } from '../../helpers/admin-users';
import { issueKey, planId } from '../../helpers/keys';
import { startReceiver, type Receiver } from '../../helpers/receiver';
import { startSite, type TestSite } from '../../helpers/site';
import { adminSession, documentIdOf, registerUser, type TestUser } from '../../helpers/users';
import { posts, subscribe, type CreatedSubscription } from '../../helpers/webhooks';
import { eventually } from '../../helpers/wait';

/**
 * The plugin's admin-panel routes (/api-suite/*): the admin permissions the plugin registers
 * decide who may read and who may change, and each route does the feature's work through its
 * services, with Strapi's error body and field-by-field validation messages.
 */
let app: TestApp;
let site: TestSite;
let receiver: Receiver;
let owner: string;
let reader: AdminEditor;
let outsider: AdminEditor;
let alice: TestUser;
let bob: TestUser;
let aliceSubscription: CreatedSubscription;

const as = (token: string) => ({ Authorization: `Bearer ${token}` });
const READS = [
  '/api-suite/webhooks/subscriptions',
  '/api-suite/webhooks/event-types',
  '/api-suite/scrapers',
  '/api-suite/scrapers/options',
  '/api-suite/access/plans',
  '/api-suite/access/keys',
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
  reader = await createAdminEditor(app, [
    API_SUITE_ACTIONS.webhooksRead,
    API_SUITE_ACTIONS.scrapersRead,
    API_SUITE_ACTIONS.accessRead,
    API_SUITE_ACTIONS.salesRead,
  ]);
  outsider = await createAdminEditor(app, []);
  alice = await registerUser(app, { plan: 'enterprise' });
  bob = await registerUser(app, { plan: 'enterprise' });
  aliceSubscription = await subscribe(app, alice, { endpoint_url: `${receiver.url}/alice`, events: ['article.created'] });
  await subscribe(app, bob, { endpoint_url: `${receiver.url}/bob`, events: ['*'] });
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

describe('webhooks', () => {
  it("lists every consumer's subscriptions with their owner, status, failure count and last delivery", async () => {
    const response = await app.request().get('/api-suite/webhooks/subscriptions').set(as(owner));
    expect(response.status).toBe(200);
    expect(response.body.meta).toEqual({ page: 1, limit: 20, total: 2 });
    const [bobs, alices] = response.body.data;
    expect(alices).toMatchObject({
      id: aliceSubscription.id,
      endpoint_url: `${receiver.url}/alice`,
      is_active: true,
      failure_count: 0,
      consumer: { id: alice.id, username: alice.username, email: alice.email, consumer_id: alice.consumer_id },
    });
    expect(alices).not.toHaveProperty('secret');
    expect(bobs.consumer.username).toBe(bob.username);
  });

  it('sends a test, records it with its attempt, and retries a delivery', async () => {
    const sent = await app.request().post(`/api-suite/webhooks/subscriptions/${aliceSubscription.id}/test`).set(as(owner));
    expect(sent.status).toBe(200);
    expect(sent.body.data).toMatchObject({ delivered: true, status_code: 200, delivery_id: expect.any(String) });
    const detail = await app.request().get(`/api-suite/webhooks/deliveries/${sent.body.data.delivery_id}`).set(as(reader.token));
    expect(detail.body.data).toMatchObject({
      event_type: 'webhook.test',
      status: 'succeeded',
      attempts: [{ attempt: 1, status_code: 200, error: null }],
    });
    const list = await app.request().get(`/api-suite/webhooks/subscriptions/${aliceSubscription.id}/deliveries`).set(as(owner));
    expect(list.body.data.map((delivery: { id: string }) => delivery.id)).toContain(sent.body.data.delivery_id);

    const before = posts(receiver).length;
    const retried = await app.request().post(`/api-suite/webhooks/deliveries/${sent.body.data.delivery_id}/retry`).set(as(owner));
    expect(retried.status).toBe(202);
    expect(retried.body.data).toEqual({ delivery_id: sent.body.data.delivery_id, status: 'queued' });
    await eventually(async () => (posts(receiver).length > before ? true : undefined), 15_000, 'the retried delivery');
    const again = await eventually(async () => {
      const response = await app.request().get(`/api-suite/webhooks/deliveries/${sent.body.data.delivery_id}`).set(as(owner));
      return response.body.data.attempts.length === 2 ? response.body.data : undefined;
    });
    expect(again.attempts[1]).toMatchObject({ attempt: 2, status_code: 200 });
  });

  it('re-enables a disabled subscription with its failure count cleared', async () => {
    const row = await app.strapi.db.connection('api_suite_webhook_subscriptions').where({ uuid: aliceSubscription.id }).first();
    await app.strapi.db
      .connection('api_suite_webhook_subscriptions')
      .where({ id: row.id })
      .update({ is_active: false, failure_count: 100, disabled_at: new Date() });
    const retry = await app.request().get(`/api-suite/webhooks/subscriptions/${aliceSubscription.id}/deliveries`).set(as(owner));
    const refused = await app.request().post(`/api-suite/webhooks/deliveries/${retry.body.data[0].id}/retry`).set(as(owner));
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({ status: 409, name: 'subscription_inactive' });

    const enabled = await app
      .request()
      .put(`/api-suite/webhooks/subscriptions/${aliceSubscription.id}`)
      .set(as(owner))
      .send({ is_active: true });
    expect(enabled.status).toBe(200);
    expect(enabled.body.data).toMatchObject({ is_active: true, failure_count: 0, disabled_at: null });
  });

  it('edits event types; one switched off can no longer be subscribed to', async () => {
    const paidOrder = {
      id: 'o1',
      status: 'paid',
      total: 12,
      created_at: '2026-11-22T10:00:00.000Z',
      paid_at: '2026-11-22T10:01:00.000Z',
      payment_id: 'pi_1',
    };
    const all = await app.request().get('/api-suite/webhooks/event-types').set(as(owner));
    expect(all.body.data.find((type: { name: string }) => type.name === 'order.paid')).toMatchObject({
      is_active: true,
      example_payload: expect.any(Object),
    });

    const bad = await app.request().put('/api-suite/webhooks/event-types/order.paid').set(as(owner)).send({ is_active: 'no' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.errors).toEqual([{ path: ['is_active'], message: 'must be true or false', name: 'ValidationError' }]);
    expect((await app.request().put('/api-suite/webhooks/event-types/no.such').set(as(owner)).send({ is_active: false })).status).toBe(404);

    const off = await app
      .request()
      .put('/api-suite/webhooks/event-types/order.paid')
      .set(as(owner))
      .send({ is_active: false, description: 'Paid orders (off for now)', example_payload: paidOrder });
    expect(off.status).toBe(200);
    expect(off.body.data).toEqual({
      name: 'order.paid',
      description: 'Paid orders (off for now)',
      example_payload: paidOrder,
      schema: expect.objectContaining({ type: 'object' }),
      is_active: false,
    });
    // The example is what the catalog promises a payload looks like: one that does not fit the schema is refused, field by field.
    const misfit = await app
      .request()
      .put('/api-suite/webhooks/event-types/order.paid')
      .set(as(owner))
      .send({ example_payload: { id: 'o1', status: 'paid' } });
    expect(misfit.status).toBe(400);
    expect(misfit.body.error.details.errors).toEqual([
      { path: ['example_payload', 'total'], message: 'Invalid input: expected number, received undefined', name: 'ValidationError' },
      { path: ['example_payload', 'created_at'], message: 'Invalid input: expected string, received undefined', name: 'ValidationError' },
    ]);
    const refused = await app
      .request()
      .post('/api/webhooks/subscriptions')
      .set(as(alice.jwt))
      .send({ endpoint_url: receiver.url, events: ['order.paid'] });
    expect(refused.status).toBe(422);
    expect(refused.body.invalid_events).toEqual(['order.paid']);
    await app.request().put('/api-suite/webhooks/event-types/order.paid').set(as(owner)).send({ is_active: true }).expect(200);
  });
});

describe('scrapers', () => {
  it("shows the server's validation messages field by field", async () => {
    const response = await app
      .request()
      .post('/api-suite/scrapers')
      .set(as(owner))
      .send({ name: '', url: 'ftp://nope', schedule: 'every minute', max_pages: 0 });
    expect(response.status).toBe(400);
    expect(response.body.error.name).toBe('validation_error');
    const fields = (response.body.error.details.errors as Array<{ path: string[] }>).map((error) => error.path.join('.'));
    expect(fields.sort()).toEqual(['max_pages', 'name', 'schedule', 'url', 'user_id']);

    const unknown = await app.request().post('/api-suite/scrapers').set(as(owner)).send({ name: 'x', url: site.url, user_id: 999_999 });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.details.errors).toEqual([
      { path: ['user_id'], message: 'must be an existing user', name: 'ValidationError' },
    ]);
  });

  it('creates a scraper for a chosen consumer, runs it and shows the run and its results', async () => {
    const created = await app
      .request()
      .post('/api-suite/scrapers')
      .set(as(owner))
      .send({
        name: 'Shop',
        url: `${site.url}/`,
        user_id: alice.id,
        schedule: '0 3 * * *',
        selectors: { item: '.product', fields: { name: '.name' } },
        change_detection: { key: 'name' },
      });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({
      name: 'Shop',
      status: 'idle',
      next_run_at: expect.any(String),
      owner: { id: alice.id },
      latest_run: null,
    });
    const id = created.body.data.id as number;
    // It is the consumer's own: the API shows it to Alice.
    const mine = await app.request().get(`/api/v1/scrapers/${id}`).set(as(alice.jwt));
    expect(mine.status).toBe(200);

    const started = await app.request().post(`/api-suite/scrapers/${id}/run`).set(as(owner));
    expect(started.status).toBe(202);
    const runId = started.body.data.run_id as number;
    const run = await eventually(
      async () => {
        const response = await app.request().get(`/api-suite/scrapers/${id}/runs/${runId}`).set(as(reader.token));
        return response.body.data.status === 'completed' ? response.body.data : undefined;
      },
      30_000,
      'the run to complete'
    );
    expect(run).toMatchObject({ items_collected: 3, pages_fetched: 1, trigger: 'manual' });
    const results = await app.request().get(`/api-suite/scrapers/${id}/results?run_id=${runId}`).set(as(reader.token));
    expect(results.body.data.map((result: { data: { name: string } }) => result.data.name)).toEqual(['A', 'B', 'C']);
    expect(run).toMatchObject({ items_new: 3, items_changed: 0, items_removed: 0 });
    const unchanged = await app.request().get(`/api-suite/scrapers/${id}/results?run_id=${runId}&change=unchanged`).set(as(reader.token));
    expect(unchanged.body.meta.total).toBe(0);
    const badKey = await app
      .request()
      .put(`/api-suite/scrapers/${id}`)
      .set(as(owner))
      .send({ change_detection: { key: 'colour' } });
    expect(badKey.status).toBe(400);
    expect(badKey.body.error.details.errors).toEqual([
      expect.objectContaining({ path: ['change_detection', 'key'], message: "must be one of the items' fields (name)" }),
    ]);
    const runs = await app.request().get(`/api-suite/scrapers/${id}/runs`).set(as(owner));
    expect(runs.body.meta.total).toBe(1);

    const stop = await app.request().post(`/api-suite/scrapers/${id}/stop`).set(as(owner));
    expect(stop.status).toBe(409);
    expect(stop.body.error.name).toBe('not_running');

    const edited = await app.request().put(`/api-suite/scrapers/${id}`).set(as(owner)).send({ schedule: null, max_pages: 5 });
    expect(edited.body.data).toMatchObject({
      schedule: null,
      next_run_at: null,
      max_pages: 5,
      latest_run: { id: runId, status: 'completed' },
    });
    expect((await app.request().delete(`/api-suite/scrapers/${id}`).set(as(owner))).status).toBe(204);
    expect((await app.request().get(`/api-suite/scrapers/${id}`).set(as(owner))).status).toBe(404);
  }, 60_000);
});

describe('API access', () => {
  it("creates and edits plans with the server's validation messages", async () => {
    const invalid = await app
      .request()
      .post('/api-suite/access/plans')
      .set(as(owner))
      .send({ name: 'starter', requests_per_month: -2, requests_per_minute: 0, endpoints: ['GET nowhere'], price_monthly: 5 });
    expect(invalid.status).toBe(400);
    expect((invalid.body.error.details.errors as Array<{ path: string[] }>).map((error) => error.path.join('.')).sort()).toEqual([
      'endpoints.0',
      'requests_per_minute',
      'requests_per_month',
    ]);

    const created = await app
      .request()
      .post('/api-suite/access/plans')
      .set(as(owner))
      .send({
        name: 'starter',
        requests_per_month: 5000,
        requests_per_minute: 20,
        endpoints: ['@public', 'GET /api/v1/scrapers*'],
        price_monthly: 9.5,
      });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({
      name: 'starter',
      endpoints: ['@public', 'GET /api/v1/scrapers*'],
      price_monthly: 9.5,
      is_default: false,
      keys: 0,
      currency: null,
      overage_unit_amount: null,
      stripe_price_id: null,
    });

    const taken = await app
      .request()
      .post('/api-suite/access/plans')
      .set(as(owner))
      .send({
        ...created.body.data,
        id: undefined,
        is_default: undefined,
        keys: undefined,
        stripe_product_id: undefined,
        stripe_price_id: undefined,
        stripe_metered_price_id: undefined,
      });
    expect(taken.status).toBe(409);
    expect(taken.body.error.details.errors).toEqual([
      { path: ['name'], message: 'is already the name of another plan', name: 'ValidationError' },
    ]);

    const edited = await app
      .request()
      .put(`/api-suite/access/plans/${created.body.data.id}`)
      .set(as(owner))
      .send({ requests_per_month: -1, is_default: true });
    expect(edited.body.data).toMatchObject({ requests_per_month: -1, is_default: true });
    const plans = await app.request().get('/api-suite/access/plans').set(as(owner));
    expect(plans.body.data.filter((plan: { is_default: boolean }) => plan.is_default).map((plan: { name: string }) => plan.name)).toEqual([
      'starter',
    ]);
    // The API shows the plan with its groups resolved.
    const publicPlans = await app.request().get('/api/v1/plans');
    expect(publicPlans.body.data.find((plan: { name: string }) => plan.name === 'starter').endpoints).toEqual([
      'GET /api/v1/articles*',
      'GET /api/v1/scrapers*',
    ]);
    await app
      .request()
      .put(`/api-suite/access/plans/${await planId(app, 'free')}`)
      .set(as(owner))
      .send({ is_default: true })
      .expect(200);
  });

  it('issues a key for a user on a plan, shows it once, and revokes it', async () => {
    const missing = await app.request().post('/api-suite/access/keys').set(as(owner)).send({});
    expect(missing.status).toBe(400);
    expect(
      (missing.body.error.details.errors as Array<{ path: string[]; message: string }>)
        .map((error) => [error.path.join('.'), error.message])
        .sort()
    ).toEqual([['user_id', 'choose the user who owns the key']]);

    // Without a plan the key follows its owner's plan (bob's is a grant).
    const following = await app.request().post('/api-suite/access/keys').set(as(owner)).send({ user_id: bob.id, name: 'Bob follows' });
    expect(following.status).toBe(201);
    const enterprise = await planId(app, 'enterprise');
    expect(following.body.data).toMatchObject({ user_id: bob.id, plan_id: enterprise, scopes: ['read'] });
    const followingRow = (await app.request().get('/api-suite/access/keys').set(as(owner))).body.data.find(
      (row: { id: number }) => row.id === following.body.data.id
    );
    expect(followingRow).toMatchObject({
      plan_source: 'consumer',
      plan: { id: enterprise },
      owner_plan: { name: 'enterprise', source: 'grant', granted: { id: enterprise, name: 'enterprise' } },
    });
    await app.request().delete(`/api-suite/access/keys/${following.body.data.id}`).set(as(owner)).expect(204);

    const pro = await planId(app, 'pro');
    const issued = await app
      .request()
      .post('/api-suite/access/keys')
      .set(as(owner))
      .send({ user_id: bob.id, plan_id: pro, name: 'Bob CI', scopes: ['read', 'write'] });
    expect(issued.status).toBe(201);
    expect(issued.body.data).toMatchObject({
      key: expect.stringMatching(/^sk_[A-Za-z0-9]{48}$/),
      user_id: bob.id,
      plan_id: pro,
      name: 'Bob CI',
      status: 'active',
    });
    const key = issued.body.data.key as string;

    const list = await app.request().get('/api-suite/access/keys').set(as(reader.token));
    expect(list.body.data[0]).toMatchObject({
      id: issued.body.data.id,
      key_prefix: key.slice(0, 8),
      user: { id: bob.id, username: bob.username },
      plan: { id: pro, name: 'pro' },
    });
    expect(JSON.stringify(list.body)).not.toContain(key);

    expect((await app.request().get('/api/v1/scrapers').set('X-API-Key', key)).status).toBe(200);
    expect((await app.request().delete(`/api-suite/access/keys/${issued.body.data.id}`).set(as(owner))).status).toBe(204);
    const refused = await app.request().get('/api/v1/scrapers').set('X-API-Key', key);
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('key_revoked');
    expect((await app.request().delete('/api-suite/access/keys/999999').set(as(owner))).status).toBe(404);
  });

  it('reports the last hour of usage for every key or one, and streams it', async () => {
    // A consumer on the free plan, whose requests to a plan-governed route are counted in their pool.
    const key = await issueKey(app, await registerUser(app));
    for (let i = 0; i < 3; i += 1) await app.request().get('/api/v1/articles').set('X-API-Key', key.key).expect(200);
    await (app.strapi.plugin('api-suite').service('usage') as { flush(): Promise<void> }).flush();

    const all = await app.request().get('/api-suite/access/usage').set(as(reader.token));
    expect(all.status).toBe(200);
    expect(all.body.data).toMatchObject({ key_id: null, month: null, by_status: expect.objectContaining({ 200: expect.any(Number) }) });
    expect(all.body.data.total).toBeGreaterThanOrEqual(3);
    expect(all.body.data.series.length).toBeGreaterThanOrEqual(60);
    const one = await app.request().get(`/api-suite/access/usage?key_id=${key.id}`).set(as(owner));
    expect(one.body.data).toMatchObject({
      key_id: key.id,
      total: 3,
      month: { used: 3, quota: 1000, remaining: 997 },
      plan: { name: 'free', own_limits: false },
    });
    expect((await app.request().get('/api-suite/access/usage?key_id=999999').set(as(owner))).status).toBe(404);

    const event = await firstEvent(`${app.url}/api-suite/access/usage/stream?key_id=${key.id}&interval=1`, reader.token);
    expect(event.contentType).toBe('text/event-stream; charset=utf-8');
    expect(event.name).toBe('usage');
    expect(event.data).toMatchObject({ key_id: key.id, total: 3 });
    expect((await app.request().get('/api-suite/access/usage/stream').set(as(outsider.token))).status).toBe(403);
  });

  it('lists users for the owner pickers, filtered by name or e-mail', async () => {
    const response = await app
      .request()
      .get(`/api-suite/consumers?q=${encodeURIComponent(alice.username)}`)
      .set(as(reader.token));
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual([{ id: alice.id, username: alice.username, email: alice.email, consumer_id: alice.consumer_id }]);
  });
});

/** The first Server-Sent Event of a stream read with an Authorization header, as the admin panel reads it. */
function firstEvent(url: string, token: string): Promise<{ contentType: string | undefined; name: string; data: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { headers: { Authorization: `Bearer ${token}` } }, (response) => {
      let buffer = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        buffer += chunk;
        const block = buffer.split('\n\n').find((part) => part.includes('event: '));
        if (!block) return;
        const name = /^event: (.*)$/m.exec(block)?.[1] ?? '';
        const data = JSON.parse(/^data: (.*)$/m.exec(block)?.[1] ?? 'null') as Record<string, unknown>;
        request.destroy();
        resolve({ contentType: response.headers['content-type'], name, data });
      });
    });
    request.on('error', (error) => {
      if (!request.destroyed) reject(error);
    });
    setTimeout(() => reject(new Error('no event within 10 s')), 10_000).unref();
  });
}

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
