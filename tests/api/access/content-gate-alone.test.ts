import { startApp, type TestApp } from '../../helpers/app';
import { UNKNOWN_KEY, issueKey, type IssuedKey } from '../../helpers/keys';
import { grantPlan, registerUser, type TestUser } from '../../helpers/users';

/**
 * The site's content API sold through plans on a site that left `plugin::api-suite.access` out of
 * its config/middlewares: the plugin's auth strategy sets up its own gate, so its refusals keep the
 * key gate's shape and rate headers, and every request it decides is counted and recorded, as with
 * the middleware (tests/api/access/content-api.test.ts).
 */
let app: TestApp;
let consumer: TestUser;
let key: IssuedKey;

const comment = (body: string) => ({ data: { body } });

async function monthUsed(user: TestUser): Promise<number> {
  const response = await app.request().get('/api/v1/usage').set('Authorization', `Bearer ${user.jwt}`);
  expect(response.status).toBe(200);
  return response.body.data.month.used as number;
}

async function records(): Promise<number> {
  await (app.strapi.plugin('api-suite').service('usage') as { flush(): Promise<void> }).flush();
  return app.strapi.db.query('plugin::api-suite.usage-record').count({ where: { endpoint: '/api/comments', user_id: consumer.id } });
}

beforeAll(async () => {
  app = await startApp({ env: { API_SUITE_ACCESS_MIDDLEWARE: 'off' } });
  const role = await app.strapi.db.query('plugin::users-permissions.role').findOne({ where: { type: 'authenticated' } });
  await app.strapi.db
    .query('plugin::users-permissions.permission')
    .create({ data: { action: 'api::comment.comment.create', role: role.id } });
  consumer = await registerUser(app);
  key = await issueKey(app, consumer, { scopes: ['read', 'write'] });
}, 120_000);

afterAll(async () => {
  await app?.close();
});

it('runs without the global access middleware', () => {
  const names = (app.strapi.config.get('middlewares') as unknown[]).map((entry) => (typeof entry === 'string' ? entry : null));
  expect(names).not.toContain('plugin::api-suite.access');
});

it("refuses a key whose plan does not reach the route in the key gate's shape, with the rate headers, and records it", async () => {
  const before = await records();
  const response = await app.request().post('/api/comments').set('X-API-Key', key.key).send(comment('free plan'));
  expect({ status: response.status, body: response.body }).toEqual({
    status: 403,
    body: { error: { code: 'endpoint_not_in_plan', message: expect.stringContaining('free') } },
  });
  expect(response.headers['x-ratelimit-limit']).toBeDefined();
  expect(await records()).toBe(before + 1);
  const unknown = await app.request().post('/api/comments').set('X-API-Key', UNKNOWN_KEY).send(comment('unknown'));
  expect({ status: unknown.status, code: unknown.body.error?.code }).toEqual({ status: 401, code: 'invalid_api_key' });
  expect(await app.strapi.db.query('api::comment.comment').count({ where: { body: { $in: ['free plan', 'unknown'] } } })).toBe(0);
});

it('counts a key whose plan reaches the route in its pool, with the rate headers and a usage record', async () => {
  await grantPlan(app, consumer, 'enterprise');
  const used = await monthUsed(consumer);
  const before = await records();
  const response = await app.request().post('/api/comments').set('X-API-Key', key.key).send(comment('sold'));
  expect(response.status).toBe(201);
  expect(Number(response.headers['x-ratelimit-remaining'])).toBeGreaterThan(0);
  expect(await records()).toBe(before + 1);
  expect(await monthUsed(consumer)).toBe(used + 1);
});
