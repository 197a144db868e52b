import { EventSource } from 'eventsource';
import { startApp, type TestApp } from '../../helpers/app';
import { issueKey, type IssuedKey } from '../../helpers/keys';
import { makeAdministrator, registerUser, type TestUser } from '../../helpers/users';
import { UIDS } from '../../../src/plugins/api-suite/server/src/constants';

/** Usage records, /api/v1/usage computed by the database, and its Server-Sent Events stream. */
let app: TestApp;
let alice: TestUser;
let bob: TestUser;
let aliceKey: IssuedKey;
let bobKey: IssuedKey;

const flush = () => (app.strapi.plugin('api-suite').service('usage') as { flush(): Promise<void> }).flush();

beforeAll(async () => {
  app = await startApp();
  alice = await registerUser(app);
  bob = await registerUser(app);
  aliceKey = await issueKey(app, alice, { scopes: ['read', 'write'] });
  bobKey = await issueKey(app, bob);
  for (let i = 0; i < 4; i += 1) await app.request().get('/api/v1/articles').set('X-API-Key', aliceKey.key).expect(200);
  await app
    .request()
    .post('/api/v1/keys')
    .set('X-API-Key', aliceKey.key)
    .send({ scopes: ['nope'] })
    .expect(400);
  await app.request().get('/api/webhooks/subscriptions').set('X-API-Key', aliceKey.key).expect(403);
  await app.request().get('/api/v1/keys').set('X-API-Key', bobKey.key).expect(200);
  await flush();
});

afterAll(async () => {
  await app?.close();
});

describe('usage records', () => {
  it('keeps one record per key-authenticated request with route, method, status and time', async () => {
    const rows = await app.strapi.db.query(UIDS.usageRecord).findMany({ where: { api_key_id: aliceKey.id }, orderBy: { id: 'asc' } });
    expect(rows).toHaveLength(6);
    expect(rows[0]).toMatchObject({
      endpoint: '/api/v1/articles',
      method: 'GET',
      status_code: 200,
      response_ms: expect.any(Number),
      user_id: alice.id,
    });
    expect(rows.map((row: { status_code: number }) => row.status_code)).toEqual([200, 200, 200, 200, 400, 403]);
    expect(new Date(rows[0].createdAt).getTime()).toBeGreaterThan(Date.now() - 60_000);
  });

  it('records nothing for a JWT on the account routes, nor for anonymous calls', async () => {
    const before = await app.strapi.db.query(UIDS.usageRecord).count({});
    await app.request().get('/api/v1/keys').set('Authorization', `Bearer ${bob.jwt}`).expect(200);
    await app.request().get('/api/v1/usage').set('Authorization', `Bearer ${bob.jwt}`).expect(200);
    await app.request().get('/api/v1/keys').expect(401);
    await flush();
    expect(await app.strapi.db.query(UIDS.usageRecord).count({})).toBe(before);
  });

  it("records a JWT's requests on the plan-governed routes, under its consumer and no key", async () => {
    await app.request().get('/api/v1/articles').set('Authorization', `Bearer ${bob.jwt}`).expect(200);
    await flush();
    const rows = await app.strapi.db.query(UIDS.usageRecord).findMany({ where: { user_id: bob.id, api_key_id: null } });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ endpoint: '/api/v1/articles', method: 'GET', status_code: 200 });
  });
});

describe('a request whose handler crashes', () => {
  it('is recorded with the 500 the client gets, not the 404 Koa starts from, and reported so in by_status', async () => {
    const carol = await registerUser(app);
    const key = await issueKey(app, carol);
    const keys = app.strapi.plugin('api-suite').service('keys') as { list: (...args: unknown[]) => Promise<unknown> };
    const list = keys.list;
    keys.list = async () => {
      throw new Error('the database went away (a test fault)');
    };
    let status: number;
    try {
      status = (await app.request().get('/api/v1/keys').set('X-API-Key', key.key)).status;
    } finally {
      keys.list = list;
    }
    expect(status).toBe(500);
    await flush();
    const rows = await app.strapi.db.query(UIDS.usageRecord).findMany({ where: { api_key_id: key.id } });
    expect(rows.map((row: { endpoint: string; status_code: number }) => [row.endpoint, row.status_code])).toEqual([['/api/v1/keys', 500]]);
    const report = await app.request().get('/api/v1/usage').set('Authorization', `Bearer ${carol.jwt}`);
    expect(report.body.data.by_status).toEqual({ 500: 1 });
  });
});

describe('GET /api/v1/usage', () => {
  it("reports totals, status codes, a series and the month for the caller's keys", async () => {
    const response = await app.request().get('/api/v1/usage').query({ granularity: 'hour' }).set('Authorization', `Bearer ${alice.jwt}`);
    expect(response.status).toBe(200);
    const { data } = response.body;
    expect(data.total).toBe(6);
    expect(data.by_status).toEqual({ 200: 4, 400: 1, 403: 1 });
    expect(data.series).toHaveLength(25); // 24 hours back from now, in hour buckets
    expect(data.series.reduce((sum: number, point: { count: number }) => sum + point.count, 0)).toBe(6);
    expect(data.series[data.series.length - 1]).toEqual({ t: expect.stringMatching(/T\d{2}:00:00\.000Z$/), count: 6 });
    // The month is the consumer's pool: the four articles counted; the account route's 400 and the 403 (refused before the quota) did not.
    expect(data.month).toEqual({ used: 4, quota: 1000, remaining: 996 });
    expect(data.plan).toEqual({ id: expect.any(Number), name: 'free', own_limits: false });
  });

  it("narrows to one key, the caller's own only", async () => {
    const own = await app.request().get(`/api/v1/usage?key_id=${aliceKey.id}&granularity=day`).set('Authorization', `Bearer ${alice.jwt}`);
    expect(own.body.data.total).toBe(6);
    const other = await app.request().get(`/api/v1/usage?key_id=${bobKey.id}`).set('Authorization', `Bearer ${alice.jwt}`);
    expect(other.status).toBe(404);
    expect(other.body).toEqual({ error: { code: 'not_found', message: 'API key not found' } });
    const admin = await makeAdministrator(app, await registerUser(app));
    const asAdmin = await app.request().get(`/api/v1/usage?key_id=${bobKey.id}`).set('Authorization', `Bearer ${admin.jwt}`);
    expect(asAdmin.body.data.total).toBe(1);
  });

  it('filters by time range', async () => {
    const hour = Math.ceil(Date.now() / 3_600_000) * 3_600_000;
    const future = new Date(hour).toISOString();
    const later = new Date(hour + 3_600_000).toISOString();
    const response = await app
      .request()
      .get('/api/v1/usage')
      .query({ from: future, to: later, granularity: 'minute' })
      .set('Authorization', `Bearer ${alice.jwt}`);
    expect(response.body.data.total).toBe(0);
    expect(response.body.data.series).toHaveLength(60);
  });

  it('refuses bad queries with 400', async () => {
    for (const query of [
      { granularity: 'week' },
      { from: 'yesterday' },
      { from: '2026-01-02T00:00:00Z', to: '2026-01-01T00:00:00Z' },
      { granularity: 'minute', from: '2020-01-01T00:00:00Z' },
    ]) {
      const response = await app.request().get('/api/v1/usage').query(query).set('Authorization', `Bearer ${alice.jwt}`);
      expect(response.status).toBe(400);
      expect(response.body.error.code).toBe('validation_error');
    }
  });
});

describe('GET /api/v1/usage/stream', () => {
  it('streams usage events an EventSource can read', async () => {
    const url = `${app.url}/api/v1/usage/stream?interval=1&api_key=${aliceKey.key}`;
    const source = new EventSource(url);
    const events: Array<{ total: number; month: { used: number } }> = [];
    try {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`only ${events.length} usage events in 5 s`)), 5000);
        source.addEventListener('usage', (event) => {
          events.push(JSON.parse((event as MessageEvent).data));
          if (events.length === 2) {
            clearTimeout(timer);
            resolve();
          }
        });
        source.onerror = () => undefined;
      });
    } finally {
      source.close();
    }
    expect(events[0]).toMatchObject({
      total: expect.any(Number),
      by_status: expect.any(Object),
      series: expect.any(Array),
      month: { quota: 1000 },
    });
    expect(events[1].month.used).toBeGreaterThanOrEqual(events[0].month.used);
  });

  it('answers with the event-stream headers', async () => {
    const response = await fetch(`${app.url}/api/v1/usage/stream`, { headers: { 'X-API-Key': aliceKey.key } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('no-cache, no-transform');
    expect(response.headers.get('x-ratelimit-limit')).toBe('10');
    const reader = response.body!.getReader();
    const { value } = await reader.read();
    expect(new TextDecoder().decode(value)).toContain('retry: 5000');
    await reader.cancel();
  });

  it('refuses a stream without credentials like any other route', async () => {
    const response = await fetch(`${app.url}/api/v1/usage/stream`);
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({
      error: {
        code: 'api_key_required',
        message: 'An API key is required: send it as X-API-Key, as a Bearer token or as the api_key parameter',
      },
    });
  });
});
