import supertest from 'supertest';
import { startApp, type TestApp } from '../../helpers/app';
import { UNKNOWN_KEY, createPlan, issueKey, type IssuedKey } from '../../helpers/keys';
import { grantPlan, registerUser, type TestUser } from '../../helpers/users';

/**
 * A site whose REST prefix is its own (`rest.prefix: '/content'` in config/api): Strapi serves
 * every content-API route under it, the plugin's included, and the plugin guards, counts and
 * describes them there exactly as under `/api` (docs/access.md#a-sites-rest-prefix). A path's case
 * changes nothing either: Strapi's router matches it whatever its case, so the plugin does too.
 */

const PREFIX = '/content';
let app: TestApp;
/** The same app, for the shared helpers, which name API paths as `/api/…`: sent under /content. */
let site: TestApp;
let consumer: TestUser;
let key: IssuedKey;

type Agent = ReturnType<typeof supertest>;
const METHODS = ['get', 'post', 'put', 'patch', 'delete', 'head'] as const;

function underPrefix(agent: Agent): Agent {
  const rewrite = (path: string) => (path === '/api' || path.startsWith('/api/') ? `${PREFIX}${path.slice(4)}` : path);
  return new Proxy(agent, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver) as unknown;
      if (typeof value === 'function' && (METHODS as readonly PropertyKey[]).includes(property))
        return (path: string, ...rest: unknown[]) => (value as (...args: unknown[]) => unknown).call(target, rewrite(path), ...rest);
      return value;
    },
  });
}

async function monthUsed(user: TestUser): Promise<number> {
  const response = await app.request().get(`${PREFIX}/v1/usage`).set('Authorization', `Bearer ${user.jwt}`);
  expect(response.status).toBe(200);
  return response.body.data.month.used as number;
}

async function settledUsage(): Promise<void> {
  await (app.strapi.plugin('api-suite').service('usage') as { flush(): Promise<void> }).flush();
}

const comment = (body: string) => ({ data: { body } });

beforeAll(async () => {
  app = await startApp({ env: { API_REST_PREFIX: PREFIX } });
  site = { ...app, request: () => underPrefix(app.request()) };
  const role = await app.strapi.db.query('plugin::users-permissions.role').findOne({ where: { type: 'authenticated' } });
  await app.strapi.db
    .query('plugin::users-permissions.permission')
    .create({ data: { action: 'api::comment.comment.create', role: role.id } });
  consumer = await registerUser(site);
  key = await issueKey(site, consumer, { scopes: ['read', 'write'] });
}, 120_000);

afterAll(async () => {
  await app?.close();
});

describe('a site whose REST prefix is /content', () => {
  it("serves the plugin's routes under it, and nothing under /api", async () => {
    const keys = await app.request().get(`${PREFIX}/v1/keys`).set('Authorization', `Bearer ${consumer.jwt}`);
    expect(keys.status).toBe(200);
    expect(keys.body.data).toHaveLength(1);
    expect((await app.request().get('/api/v1/keys').set('Authorization', `Bearer ${consumer.jwt}`)).status).toBe(404);
    expect((await app.request().get('/api/authors')).status).toBe(404);
  });

  it('refuses a key whose plan does not reach the content API, in any case of the path, with nothing written', async () => {
    for (const path of [`${PREFIX}/comments`, '/CONTENT/Comments']) {
      const response = await app.request().post(path).set('X-API-Key', key.key).send(comment('free plan'));
      expect({ path, status: response.status, body: response.body }).toEqual({
        path,
        status: 403,
        body: { error: { code: 'endpoint_not_in_plan', message: expect.stringContaining('free') } },
      });
      expect(response.headers['x-ratelimit-limit']).toBeDefined();
    }
    const unknown = await app.request().post('/Content/COMMENTS').set('X-API-Key', UNKNOWN_KEY).send(comment('unknown'));
    expect(unknown.status).toBe(401);
    expect(unknown.body.error.code).toBe('invalid_api_key');
    expect(await app.strapi.db.query('api::comment.comment').count({ where: { body: { $in: ['free plan', 'unknown'] } } })).toBe(0);
  });

  it('counts a key whose plan reaches @content on /content/comments, whatever the case, in the one pool', async () => {
    await createPlan(site, { name: 'content-prefixed', requests_per_month: 100, requests_per_minute: 50, endpoints: ['@content'] });
    await grantPlan(site, consumer, 'content-prefixed');
    const before = await monthUsed(consumer);
    const first = await app.request().post(`${PREFIX}/comments`).set('X-API-Key', key.key).send(comment('sold'));
    expect(first.status).toBe(201);
    expect(first.headers['x-ratelimit-monthly-remaining']).toBe(String(100 - before - 1));
    const shouted = await app.request().post('/CONTENT/COMMENTS').set('X-API-Key', key.key).send(comment('sold loudly'));
    expect(shouted.status).toBe(201);
    expect(shouted.headers['x-ratelimit-monthly-remaining']).toBe(String(100 - before - 2));
    await settledUsage();
    expect(await monthUsed(consumer)).toBe(before + 2);
    const records = await app.strapi.db.query('plugin::api-suite.usage-record').findMany({ where: { endpoint: `${PREFIX}/comments` } });
    expect(records.length).toBeGreaterThanOrEqual(2);

    // The plan shows what it reaches as the site serves it.
    const plans = (await app.request().get(`${PREFIX}/v1/plans`)).body.data as Array<{ name: string; endpoints: string[] }>;
    const shown = plans.find((plan) => plan.name === 'content-prefixed')?.endpoints ?? [];
    expect(shown).toEqual(expect.arrayContaining([`* ${PREFIX}/comments`, `* ${PREFIX}/comments/*`, `* ${PREFIX}/authors`]));
    expect(shown.filter((pattern) => pattern.includes(' /api/'))).toEqual([]);
  });

  it('reads a plan pattern written with the site prefix or with /api the same way', async () => {
    const buyer = await registerUser(site);
    await createPlan(site, {
      name: 'comments-only',
      requests_per_month: 100,
      requests_per_minute: 50,
      endpoints: ['POST /Content/comments'],
    });
    await grantPlan(site, buyer, 'comments-only');
    const buyerKey = await issueKey(site, buyer, { scopes: ['read', 'write'] });
    expect((await app.request().post(`${PREFIX}/comments`).set('X-API-Key', buyerKey.key).send(comment('site form'))).status).toBe(201);

    const other = await registerUser(site);
    await createPlan(site, {
      name: 'comments-api-form',
      requests_per_month: 100,
      requests_per_minute: 50,
      endpoints: ['POST /api/comments'],
    });
    await grantPlan(site, other, 'comments-api-form');
    const otherKey = await issueKey(site, other, { scopes: ['read', 'write'] });
    expect((await app.request().post(`${PREFIX}/comments`).set('X-API-Key', otherKey.key).send(comment('api form'))).status).toBe(201);
    expect((await app.request().get(`${PREFIX}/v1/scrapers`).set('X-API-Key', otherKey.key)).body.error.code).toBe('endpoint_not_in_plan');
  });

  it('describes the API at the paths the site serves', async () => {
    const response = await app.request().get(`${PREFIX}/v1/openapi.json`);
    expect(response.status).toBe(200);
    const paths = Object.keys(response.body.paths as object);
    expect(paths).toEqual(expect.arrayContaining([`${PREFIX}/v1/keys`, `${PREFIX}/webhooks/subscriptions`, `${PREFIX}/comments`]));
    expect(paths.filter((path) => path.startsWith('/api/'))).toEqual([]);
  });
});
