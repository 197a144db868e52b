import http from 'node:http';
import { startApp, type TestApp } from '../../helpers/app';
import { adminAuth, createPluginReader, createAdminEditor, type AdminEditor } from '../../helpers/admin-users';
import { issueKey, planId } from '../../helpers/keys';
import { adminSession, registerUser, type TestUser } from '../../helpers/users';
import { z } from 'zod';
import { expectAnswer } from '../../helpers/answers';
import { adminApiKey, adminPlan, adminUsage } from '../../../src/plugins/api-suite/server/src/features/access/validation/responses';

/**
 * API access's admin-panel routes (/api-suite/access/*, /api-suite/consumers): plans, keys, usage
 * and its stream, and the user pickers, with Strapi's error body and field-by-field validation
 * messages. Who may call them: tests/api/platform/admin-permissions.test.ts.
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
        consumers: undefined,
        stripe_product_id: undefined,
        stripe_price_id: undefined,
        stripe_metered_price_id: undefined,
        stripe_yearly_price_id: undefined,
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
    expectAnswer(z.array(adminPlan), plans.body.data);
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
    const listed = (await app.request().get('/api-suite/access/keys').set(as(owner))).body.data;
    expectAnswer(z.array(adminApiKey), listed);
    const followingRow = listed.find((row: { id: number }) => row.id === following.body.data.id);
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
    expectAnswer(adminUsage, all.body.data);
    expectAnswer(adminUsage, one.body.data);
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
