import { startApp, type TestApp } from '../../helpers/app';
import { startInstance } from '../../helpers/instance';
import { administratorOf, awayFromMinuteEdge, createPlan, grantPlan, issueKey, planId } from '../../helpers/keys';
import { redisUrl } from '../../helpers/services';
import { registerUser, type TestUser } from '../../helpers/users';
import { UIDS } from '../../../src/plugins/api-suite/server/src/constants';

/**
 * Plans hold consumers, whatever the credential: a consumer's JWT, keys and OAuth tokens share one
 * plan and one pool; an administrator may grant a plan; a key never writes more than its owner's
 * role allows; and the switch from per-key quotas loses and gives no allowance.
 */
let app: TestApp;
let admin: TestUser;

beforeAll(async () => {
  app = await startApp();
  admin = await administratorOf(app);
});

afterAll(async () => {
  await app?.close();
});

const bearer = (user: TestUser) => ({ Authorization: `Bearer ${user.jwt}` });
const usageOf = async (user: TestUser) => (await app.request().get('/api/v1/usage').set(bearer(user))).body.data;

describe("a consumer's JWT is held to their plan", () => {
  it('is refused outside the plan, as a key is, with the rate-limit headers', async () => {
    const carol = await registerUser(app);
    const key = await issueKey(app, carol, { scopes: ['read', 'write'] });
    for (const credential of [bearer(carol), { 'X-API-Key': key.key }]) {
      const response = await app.request().post('/api/v1/scrapers').set(credential).send({ name: 'x', url: 'https://example.com/' });
      expect(response.status).toBe(403);
      expect(response.body).toEqual({
        error: { code: 'endpoint_not_in_plan', message: 'POST /api/v1/scrapers is not included in the free plan' },
      });
      expect(response.headers['x-ratelimit-limit']).toBe('10');
    }
    const webhooks = await app.request().get('/api/webhooks/subscriptions').set(bearer(carol));
    expect(webhooks.status).toBe(403);
    expect(webhooks.body.error.code).toBe('endpoint_not_in_plan');
  });

  it('is counted in the minute and the month, with headers, and refused with 429 past the minute', async () => {
    const dave = await registerUser(app);
    await awayFromMinuteEdge();
    const statuses: number[] = [];
    let last;
    for (let i = 0; i < 11; i += 1) {
      last = await app.request().get('/api/v1/articles').set(bearer(dave));
      statuses.push(last.status);
      if (i === 0) {
        expect(last.headers).toMatchObject({
          'x-ratelimit-limit': '10',
          'x-ratelimit-remaining': '9',
          'x-ratelimit-monthly-limit': '1000',
          'x-ratelimit-monthly-remaining': '999',
        });
      }
    }
    expect(statuses).toEqual([...Array(10).fill(200), 429]);
    expect(last?.body).toEqual({ error: { code: 'rate_limited', message: 'Rate limit of 10 requests a minute exceeded' } });
    expect((await usageOf(dave)).month).toEqual({ used: 10, quota: 1000, remaining: 990 });
  });

  it("leaves the account routes open and uncounted, with the pool's headers as they stand", async () => {
    const erin = await registerUser(app);
    for (let i = 0; i < 15; i += 1) expect((await app.request().get('/api/v1/keys').set(bearer(erin))).status).toBe(200);
    const usage = await app.request().get('/api/v1/usage').set(bearer(erin));
    expect(usage.status).toBe(200);
    expect(usage.headers['x-ratelimit-remaining']).toBe('10');
    expect(usage.body.data.month).toEqual({ used: 0, quota: 1000, remaining: 1000 });
    expect((await app.request().get('/api/webhooks/event-types').set(bearer(erin))).status).toBe(200);
    expect((await app.request().get('/api/v1/billing/subscription').set(bearer(erin))).status).not.toBe(403);
  });
});

describe('one pool per consumer and plan', () => {
  it('two keys and a JWT share one minute and one month; usage shows the pool, never a sum', async () => {
    const frank = await registerUser(app);
    const [one, two] = [await issueKey(app, frank), await issueKey(app, frank)];
    await awayFromMinuteEdge();
    const credentials = [{ 'X-API-Key': one.key }, { 'X-API-Key': two.key }, bearer(frank)];
    const statuses: number[] = [];
    const remaining: string[] = [];
    for (let i = 0; i < 12; i += 1) {
      const response = await app
        .request()
        .get('/api/v1/articles')
        .set(credentials[i % 3]);
      statuses.push(response.status);
      remaining.push(response.headers['x-ratelimit-remaining']);
    }
    expect(statuses).toEqual([...Array(10).fill(200), 429, 429]);
    expect(remaining.slice(0, 10)).toEqual(['9', '8', '7', '6', '5', '4', '3', '2', '1', '0']);
    const usage = await usageOf(frank);
    expect(usage.month).toEqual({ used: 10, quota: 1000, remaining: 990 });
    expect(usage.plan).toEqual({ id: await planId(app, 'free'), name: 'free', own_limits: false });
    // key_id narrows the activity to one key, never the quota.
    await (app.strapi.plugin('api-suite').service('usage') as { flush(): Promise<void> }).flush();
    const narrowed = (await app.request().get(`/api/v1/usage?key_id=${one.id}`).set(bearer(frank))).body.data;
    expect(narrowed.total).toBe(4);
    expect(narrowed.month).toEqual({ used: 10, quota: 1000, remaining: 990 });
  });

  it('counts a key with limits of its own on its own', async () => {
    const gina = await registerUser(app);
    const [own, plain] = [await issueKey(app, gina), await issueKey(app, gina)];
    const limited = await app.request().patch(`/api/v1/keys/${own.id}`).set(bearer(admin)).send({ requests_per_minute: 2 });
    expect(limited.status).toBe(200);
    await awayFromMinuteEdge();
    expect((await app.request().get('/api/v1/articles').set('X-API-Key', plain.key)).headers['x-ratelimit-remaining']).toBe('9');
    const first = await app.request().get('/api/v1/articles').set('X-API-Key', own.key);
    expect([first.headers['x-ratelimit-limit'], first.headers['x-ratelimit-remaining']]).toEqual(['2', '1']);
    expect((await app.request().get('/api/v1/articles').set(bearer(gina))).headers['x-ratelimit-remaining']).toBe('8');
    const keyUsage = (await app.request().get(`/api/v1/usage?key_id=${own.id}`).set(bearer(gina))).body.data;
    expect(keyUsage.plan.own_limits).toBe(true);
  });
});

describe('plans granted by an administrator', () => {
  it('moves the consumer, their JWT and their keys, and only an administrator may grant', async () => {
    const hank = await registerUser(app);
    const key = await issueKey(app, hank, { scopes: ['read', 'write'] });
    const pro = await planId(app, 'pro');
    const free = await planId(app, 'free');

    const refused = await app.request().patch(`/api/v1/consumers/${hank.id}`).set(bearer(hank)).send({ plan_id: pro });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ error: { code: 'forbidden', message: 'Only administrators may grant plans' } });
    expect((await app.request().patch(`/api/v1/consumers/${hank.id}`).set(bearer(admin)).send({ plan_id: 99_999 })).status).toBe(422);
    expect((await app.request().patch('/api/v1/consumers/99999').set(bearer(admin)).send({ plan_id: pro })).status).toBe(404);
    expect((await app.request().patch(`/api/v1/consumers/${hank.id}`).set(bearer(admin)).send({ plan: pro })).status).toBe(400);

    const granted = await app.request().patch(`/api/v1/consumers/${hank.id}`).set(bearer(admin)).send({ plan_id: pro });
    expect(granted.status).toBe(200);
    expect(granted.body).toEqual({ data: { id: hank.id, plan_id: pro, effective_plan_id: pro, plan_source: 'grant' } });

    const scraper = await app.request().post('/api/v1/scrapers').set(bearer(hank)).send({ name: 'granted', url: 'https://example.com/' });
    expect(scraper.status).toBe(201);
    const withKey = await app.request().get('/api/v1/scrapers').set('X-API-Key', key.key);
    expect([withKey.status, withKey.headers['x-ratelimit-limit']]).toEqual([200, '100']);
    const keys = (await app.request().get('/api/v1/keys').set(bearer(hank))).body.data;
    expect(keys.map((listed: { plan_id: number }) => listed.plan_id)).toEqual([pro]);
    // New keys follow the consumer's plan too.
    expect((await issueKey(app, hank)).plan_id).toBe(pro);

    const cleared = await app.request().patch(`/api/v1/consumers/${hank.id}`).set(bearer(admin)).send({ plan_id: null });
    expect(cleared.body).toEqual({ data: { id: hank.id, plan_id: null, effective_plan_id: free, plan_source: 'default' } });
    expect((await app.request().get('/api/v1/scrapers').set(bearer(hank))).status).toBe(403);
  });

  it('leaves a key an administrator issued on an explicit plan on that plan', async () => {
    const ivy = await registerUser(app);
    const enterprise = await planId(app, 'enterprise');
    const special = await issueKey(app, admin, { user_id: ivy.id, plan_id: enterprise });
    expect(special.plan_id).toBe(enterprise);
    await grantPlan(app, ivy, 'pro');
    const response = await app.request().get('/api/v1/articles').set('X-API-Key', special.key);
    expect(response.headers['x-ratelimit-limit']).toBe('1000');
    const listed = (await app.request().get('/api/v1/keys').set(bearer(ivy))).body.data;
    expect(listed[0].plan_id).toBe(enterprise);
  });
});

describe('a key never does more than its owner', () => {
  it("refuses article writes with a pro key whose owner's role may not write articles", async () => {
    const jack = await registerUser(app);
    await grantPlan(app, jack, 'pro');
    const key = await issueKey(app, jack, { scopes: ['read', 'write'] });
    const token = (
      await app
        .request()
        .post('/api/v1/oauth/token')
        .send({ grant_type: 'client_credentials', client_id: key.client_id, client_secret: key.key })
    ).body.access_token;
    for (const credential of [{ 'X-API-Key': key.key }, { Authorization: `Bearer ${token}` }, bearer(jack)]) {
      const response = await app.request().post('/api/v1/articles').set(credential).send({ title: 'Not mine to write' });
      expect(response.status).toBe(403);
      expect(response.body).toEqual({ error: { code: 'forbidden', message: 'Your role may not create articles' } });
    }
    expect((await app.request().get('/api/v1/articles').set('X-API-Key', key.key)).status).toBe(200);
  });

  it("lets the key write once the owner's role may", async () => {
    const writers = await app.strapi.db
      .query('plugin::users-permissions.role')
      .create({ data: { name: 'Writers', type: 'writers', description: 'may write articles' } });
    await app.strapi.db
      .query('plugin::users-permissions.permission')
      .create({ data: { action: 'api::article.article.create', role: writers.id } });
    const kim = await registerUser(app);
    await app.strapi.db.query(UIDS.user).update({ where: { id: kim.id }, data: { role: writers.id } });
    await grantPlan(app, kim, 'pro');
    const key = await issueKey(app, kim, { scopes: ['read', 'write'] });
    const created = await app.request().post('/api/v1/articles').set('X-API-Key', key.key).send({ title: 'Written with a key' });
    expect(created.status).toBe(201);
    const update = await app.request().patch(`/api/v1/articles/${created.body.data.id}`).set('X-API-Key', key.key).send({ title: 'y' });
    expect(update.body).toEqual({ error: { code: 'forbidden', message: 'Your role may not update articles' } });
  });
});

describe('a blocked consumer', () => {
  it('gets no OAuth token for their key', async () => {
    const leo = await registerUser(app);
    const key = await issueKey(app, leo);
    await app.strapi.db.query(UIDS.user).update({ where: { id: leo.id }, data: { blocked: true } });
    await (app.strapi.plugin('api-suite').service('keys') as { invalidate(id: number | '*'): Promise<void> }).invalidate('*');
    const response = await app
      .request()
      .post('/api/v1/oauth/token')
      .send({ grant_type: 'client_credentials', client_id: key.client_id, client_secret: key.key });
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ error: 'invalid_client', error_description: "the key's owner is blocked" });
  });
});

describe('the switch from per-key quotas', () => {
  it("makes keys on their owner's plan follow it, keeps the others, and carries the month over", async () => {
    const mia = await registerUser(app);
    const free = await planId(app, 'free');
    const tier = await createPlan(app, { name: 'migrated-tier', requests_per_month: 500, requests_per_minute: 50, endpoints: ['* *'] });
    const [onDefault, onOther] = [await issueKey(app, mia), await issueKey(app, admin, { user_id: mia.id, plan_id: tier })];
    // The state the previous release left: every key stores its plan, usage records name only their key.
    await app.strapi.db.query(UIDS.apiKey).update({ where: { id: onDefault.id }, data: { plan: free } });
    await app.request().get('/api/v1/articles').set('X-API-Key', onDefault.key).expect(200);
    await (app.strapi.plugin('api-suite').service('usage') as { flush(): Promise<void> }).flush();
    const usageTable = app.strapi.db.metadata.get(UIDS.usageRecord).tableName;
    await app.strapi.db.connection(usageTable).where({ api_key_id: onDefault.id }).update({ user_id: null });
    await app.strapi.store({ type: 'plugin', name: 'api-suite', key: 'access-model' }).delete({});
    const month = new Date().toISOString().slice(0, 7).replace('-', '');
    const redis = redisUrl ? new (await import('ioredis')).default(redisUrl) : null;
    const prefix = app.env.JOBS_PREFIX as string;
    if (redis) {
      await redis.del(`${prefix}:quota:pools-migrated`);
      await redis.set(`${prefix}:quota:mon:${onDefault.id}:${month}`, '7');
      await redis.set(`${prefix}:quota:mon:${onOther.id}:${month}`, '5');
    }

    // A boot on this database migrates it.
    const second = await startInstance(app);
    try {
      const stored = await app.strapi.db
        .query(UIDS.apiKey)
        .findMany({ where: { id: { $in: [onDefault.id, onOther.id] } }, populate: { plan: { select: ['id'] } }, orderBy: { id: 'asc' } });
      expect(stored.map((row: { plan: { id: number } | null }) => row.plan?.id ?? null)).toEqual([null, tier]);
      const missing = await app.strapi.db
        .connection(usageTable)
        .where({ api_key_id: onDefault.id })
        .whereNull('user_id')
        .count({ n: '*' })
        .first();
      expect(Number(missing?.n)).toBe(0);
      const backfilled = await app.strapi.db
        .connection(usageTable)
        .where({ api_key_id: onDefault.id, user_id: mia.id })
        .count({ n: '*' })
        .first();
      expect(Number(backfilled?.n)).toBeGreaterThan(0);
      if (redis) {
        const onPlan = await second.request().get('/api/v1/articles').set('X-API-Key', onDefault.key);
        // The per-key month (7) went into the consumer's pool on the free plan, which already held
        // the request made above to leave a usage record; plus this request.
        expect(onPlan.headers['x-ratelimit-monthly-remaining']).toBe(String(1000 - 7 - 1 - 1));
        const onTier = await second.request().get('/api/v1/articles').set('X-API-Key', onOther.key);
        expect(onTier.headers['x-ratelimit-monthly-remaining']).toBe(String(500 - 6));
      }
    } finally {
      await second.stop();
      await redis?.quit();
    }
  });
});
