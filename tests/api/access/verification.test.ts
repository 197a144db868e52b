import { startApp, type TestApp } from '../../helpers/app';
import { awayFromMinuteEdge, createPlan, issueKey, planId, type IssuedKey } from '../../helpers/keys';
import { makeAdministrator, registerUser, type TestUser } from '../../helpers/users';
import { timePasses } from '../../helpers/wait';

/**
 * The access middleware's verification order (docs/access.md#the-access-middleware), outcome by
 * outcome, with the exact status, code and body of each, and the rate-limit headers.
 */
const SHARED_KEY = 'shared-key-for-tests-0123456789';
let app: TestApp;
let alice: TestUser;
let admin: TestUser;
let freeKey: IssuedKey;

beforeAll(async () => {
  app = await startApp({ env: { API_SHARED_KEY: SHARED_KEY } });
  alice = await registerUser(app);
  admin = await makeAdministrator(app, await registerUser(app));
  freeKey = await issueKey(app, alice, { scopes: ['read'] });
});

afterAll(async () => {
  await app?.close();
});

const refusal = (code: string, message: string) => ({ error: { code, message } });

describe('refusals, in order', () => {
  it('401 api_key_required without any credential', async () => {
    const response = await app.request().get('/api/v1/keys');
    expect(response.status).toBe(401);
    expect(response.body).toEqual(
      refusal('api_key_required', 'An API key is required: send it as X-API-Key, as a Bearer token or as the api_key parameter')
    );
  });

  it('covers /api/webhooks as it covers /api/v1, whether or not a route exists there', async () => {
    const response = await app.request().get('/api/webhooks/subscriptions');
    expect(response.status).toBe(401);
    expect(response.body.error.code).toBe('api_key_required');
  });

  it('401 invalid_api_key for a key that does not exist, in each place a key may be sent', async () => {
    const wrong = `sk_${'A'.repeat(48)}`;
    for (const send of [
      (r: ReturnType<TestApp['request']>) => r.get('/api/v1/keys').set('X-API-Key', wrong),
      (r: ReturnType<TestApp['request']>) => r.get('/api/v1/keys').set('Authorization', `Bearer ${wrong}`),
      (r: ReturnType<TestApp['request']>) => r.get(`/api/v1/keys?api_key=${wrong}`),
      (r: ReturnType<TestApp['request']>) => r.get('/api/v1/keys').set('X-API-Key', 'not-a-key'),
      (r: ReturnType<TestApp['request']>) => r.get('/api/v1/keys').set('X-API-Key', `${freeKey.key}x`),
    ]) {
      const response = await send(app.request());
      expect(response.status).toBe(401);
      expect(response.body).toEqual(refusal('invalid_api_key', 'The API key is not valid'));
    }
  });

  it('accepts a real key in each place a key may be sent', async () => {
    expect((await app.request().get('/api/v1/keys').set('X-API-Key', freeKey.key)).status).toBe(200);
    expect((await app.request().get('/api/v1/keys').set('Authorization', `Bearer ${freeKey.key}`)).status).toBe(200);
    expect((await app.request().get(`/api/v1/keys?api_key=${freeKey.key}`)).status).toBe(200);
  });

  it('403 key_expired once expires_at has passed', async () => {
    const expiresAt = Date.now() + 1500;
    const soon = await issueKey(app, alice, { expires_at: new Date(expiresAt).toISOString() });
    expect((await app.request().get('/api/v1/keys').set('X-API-Key', soon.key)).status).toBe(200);
    // Expiry is the clock's: the time must pass.
    await timePasses(expiresAt - Date.now() + 100);
    const response = await app.request().get('/api/v1/keys').set('X-API-Key', soon.key);
    expect(response.status).toBe(403);
    expect(response.body).toEqual(refusal('key_expired', 'The API key has expired'));
    const listed = await app.request().get('/api/v1/keys?limit=100').set('Authorization', `Bearer ${alice.jwt}`);
    expect(listed.body.data.find((key: { id: number }) => key.id === soon.id).status).toBe('expired');
  });

  it('403 key_revoked after revocation', async () => {
    const doomed = await issueKey(app, alice);
    await app.request().delete(`/api/v1/keys/${doomed.id}`).set('Authorization', `Bearer ${alice.jwt}`).expect(204);
    const response = await app.request().get('/api/v1/keys').set('X-API-Key', doomed.key);
    expect(response.status).toBe(403);
    expect(response.body).toEqual(refusal('key_revoked', 'The API key has been revoked'));
  });

  it('403 key_expired, not key_revoked, for a key both expired and revoked (expired is checked first)', async () => {
    const expiresAt = Date.now() + 1500;
    const both = await issueKey(app, alice, { expires_at: new Date(expiresAt).toISOString() });
    await app.request().delete(`/api/v1/keys/${both.id}`).set('Authorization', `Bearer ${alice.jwt}`).expect(204);
    expect((await app.request().get('/api/v1/keys').set('X-API-Key', both.key)).body).toEqual(
      refusal('key_revoked', 'The API key has been revoked')
    );
    // Expiry is the clock's: the time must pass.
    await timePasses(expiresAt - Date.now() + 100);
    const response = await app.request().get('/api/v1/keys').set('X-API-Key', both.key);
    expect(response.status).toBe(403);
    expect(response.body).toEqual(refusal('key_expired', 'The API key has expired'));
    const listed = await app.request().get('/api/v1/keys?limit=100').set('Authorization', `Bearer ${alice.jwt}`);
    expect(listed.body.data.find((key: { id: number }) => key.id === both.id).status).toBe('expired');
    const token = await app
      .request()
      .post('/api/v1/oauth/token')
      .send({ grant_type: 'client_credentials', client_id: both.client_id, client_secret: both.key });
    expect(token.status).toBe(401);
    expect(token.body).toEqual({ error: 'invalid_client', error_description: 'the key is expired' });
  });

  it("403 endpoint_not_in_plan for a route outside the key's plan, with the rate-limit headers", async () => {
    const response = await app.request().get('/api/webhooks/subscriptions').set('X-API-Key', freeKey.key);
    expect(response.status).toBe(403);
    expect(response.body).toEqual(refusal('endpoint_not_in_plan', 'GET /api/webhooks/subscriptions is not included in the free plan'));
    expect(response.headers['x-ratelimit-limit']).toBe('10');
  });

  it('lets every plan reach the account routes', async () => {
    expect((await app.request().get('/api/v1/usage').set('X-API-Key', freeKey.key)).status).toBe(200);
    expect((await app.request().get('/api/v1/plans').set('X-API-Key', freeKey.key)).status).toBe(200);
  });

  it('403 insufficient_scope for a write with a read key', async () => {
    const response = await app.request().post('/api/v1/keys').set('X-API-Key', freeKey.key).send({});
    expect(response.status).toBe(403);
    expect(response.body).toEqual(refusal('insufficient_scope', 'This request needs the "write" scope'));
  });

  it('429 rate_limited past requests_per_minute, not counting refusals, with Retry-After', async () => {
    // A consumer of their own: the minute is one pool per consumer, which other tests here would share.
    const key = await issueKey(app, await registerUser(app));
    await awayFromMinuteEdge();
    const statuses: number[] = [];
    let last;
    for (let i = 0; i < 12; i += 1) {
      last = await app.request().get('/api/v1/articles').set('X-API-Key', key.key);
      statuses.push(last.status);
      if (i === 0) {
        expect(last.headers['x-ratelimit-limit']).toBe('10');
        expect(last.headers['x-ratelimit-remaining']).toBe('9');
        expect(last.headers['x-ratelimit-monthly-limit']).toBe('1000');
        expect(last.headers['x-ratelimit-monthly-remaining']).toBe('999');
        const reset = Number(last.headers['x-ratelimit-reset']);
        expect(reset % 60).toBe(0);
        expect(reset - Date.now() / 1000).toBeGreaterThan(0);
        expect(reset - Date.now() / 1000).toBeLessThanOrEqual(60);
        expect(last.headers['ratelimit-policy']).toMatch(/^"minute";q=10;w=60, "month";q=1000;w=\d+$/);
        expect(last.headers.ratelimit).toMatch(/^"minute";r=9;t=\d+$/);
      }
    }
    expect(statuses).toEqual([...Array(10).fill(200), 429, 429]);
    expect(last?.body).toEqual(refusal('rate_limited', 'Rate limit of 10 requests a minute exceeded'));
    expect(last?.headers['x-ratelimit-remaining']).toBe('0');
    expect(Number(last?.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(last?.headers['x-ratelimit-monthly-remaining']).toBe('990'); // the two 429s were not counted
  });

  it('429 monthly_quota_exceeded past requests_per_month', async () => {
    const tiny = await createPlan(app, { name: 'tiny', requests_per_month: 3, requests_per_minute: 100, endpoints: ['* *'] });
    const key = await issueKey(app, admin, { plan_id: tiny, user_id: alice.id });
    const statuses = [];
    let last;
    for (let i = 0; i < 5; i += 1) {
      last = await app.request().get('/api/v1/articles').set('X-API-Key', key.key);
      statuses.push(last.status);
    }
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    expect(last?.body).toEqual(refusal('monthly_quota_exceeded', 'Monthly quota of 3 requests exceeded'));
    expect(last?.headers['x-ratelimit-monthly-remaining']).toBe('0');
    expect(last?.headers.ratelimit).toMatch(/^"month";r=0;t=\d+$/);
    const monthReset = new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth() + 1, 1)).getTime() / 1000;
    expect(Number(last?.headers['retry-after'])).toBeCloseTo(monthReset - Date.now() / 1000, -1);
  });

  it('shows unlimited months as "unlimited"', async () => {
    const key = await issueKey(app, admin, { plan_id: await planId(app, 'enterprise'), user_id: alice.id });
    const response = await app.request().get('/api/v1/articles').set('X-API-Key', key.key);
    expect(response.status).toBe(200);
    expect(response.headers['x-ratelimit-monthly-limit']).toBe('unlimited');
    expect(response.headers['x-ratelimit-monthly-remaining']).toBe('unlimited');
    expect(response.headers['ratelimit-policy']).toBe('"minute";q=1000;w=60');
  });
});

describe("answers in the family's shape, never 500", () => {
  it('a malformed JSON body is 400 invalid_body, or invalid_request at the token endpoint', async () => {
    const keys = await app
      .request()
      .post('/api/v1/keys')
      .set('Authorization', `Bearer ${alice.jwt}`)
      .set('Content-Type', 'application/json')
      .send('{"name":');
    expect(keys.status).toBe(400);
    expect(keys.body).toEqual(refusal('invalid_body', 'The request body is not valid JSON or form data'));
    const token = await app.request().post('/api/v1/oauth/token').set('Content-Type', 'application/json').send('{bad');
    expect(token.status).toBe(400);
    expect(token.body).toEqual({ error: 'invalid_request', error_description: 'The request body is not valid JSON or form data' });
  });

  it('a method a route does not have is 405 in the error envelope', async () => {
    const response = await app.request().put('/api/v1/keys/1').set('Authorization', `Bearer ${alice.jwt}`).send({});
    expect(response.status).toBe(405);
    expect(response.body).toEqual(refusal('method_not_allowed', 'PUT is not allowed on /api/v1/keys/1'));
  });

  it("ids beyond the database's integers are simply unknown", async () => {
    expect((await app.request().delete('/api/v1/keys/99999999999').set('Authorization', `Bearer ${alice.jwt}`)).status).toBe(404);
    expect((await app.request().get('/api/v1/usage?key_id=99999999999').set('Authorization', `Bearer ${alice.jwt}`)).status).toBe(400);
    expect((await app.request().get('/api/v1/keys?user_id=99999999999').set('Authorization', `Bearer ${admin.jwt}`)).status).toBe(400);
  });

  it('401s say how to authenticate', async () => {
    const response = await app.request().get('/api/v1/keys');
    expect(response.headers['www-authenticate']).toBe('Bearer realm="api"');
  });
});

describe('other credentials', () => {
  it("an administrator's JWT and keys are held to no plan: no plan check, no rate-limit headers", async () => {
    const jwt = await app.request().get('/api/webhooks/subscriptions').set('Authorization', `Bearer ${admin.jwt}`);
    expect(jwt.status).toBe(200);
    expect(jwt.headers['x-ratelimit-limit']).toBeUndefined();
    const key = await issueKey(app, admin);
    const withKey = await app.request().get('/api/webhooks/subscriptions').set('X-API-Key', key.key);
    expect(withKey.status).toBe(200);
    expect(withKey.headers['x-ratelimit-limit']).toBeUndefined();
  });

  it('a forged or expired JWT is 401 invalid_token', async () => {
    const forged = `${alice.jwt.slice(0, -4)}AAAA`;
    const response = await app.request().get('/api/v1/keys').set('Authorization', `Bearer ${forged}`);
    expect(response.status).toBe(401);
    expect(response.body).toEqual(refusal('invalid_token', 'The access token is not valid or has expired'));
  });

  it('the shared key is compared in constant time and acts for no consumer', async () => {
    const shared = await app.request().get('/api/v1/keys').set('X-API-Key', SHARED_KEY);
    expect(shared.status).toBe(403);
    expect(shared.body.error.code).toBe('consumer_required');
    const almost = await app
      .request()
      .get('/api/v1/keys')
      .set('X-API-Key', `${SHARED_KEY.slice(0, -1)}X`);
    expect(almost.status).toBe(401);
    expect(almost.body.error.code).toBe('invalid_api_key');
  });

  it('leaves routes outside the covered prefixes alone', async () => {
    expect((await app.request().get('/api/articles')).status).toBe(200);
    expect((await app.request().get('/api/api-suite/health')).status).toBe(200);
  });

  it('answers CORS preflights without credentials', async () => {
    const response = await app
      .request()
      .options('/api/v1/keys')
      .set('Origin', 'http://localhost:3000')
      .set('Access-Control-Request-Method', 'POST');
    expect(response.status).toBe(204);
  });
});
