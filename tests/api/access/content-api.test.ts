import { startApp, type TestApp } from '../../helpers/app';
import { UNKNOWN_KEY, createPlan, issueKey, type IssuedKey } from '../../helpers/keys';
import { fullAccessToken, grantPlan, registerUser, type TestUser } from '../../helpers/users';
import { startInstance } from '../../helpers/instance';
import { redisUrl } from '../../helpers/services';
import { eventually } from '../../helpers/wait';

/**
 * The site's own content API sold through plans (docs/access.md#the-sites-content-api). In the
 * host app the Public role may find and read every type but write none; the Authenticated role
 * is given `create` on comments here, as a site owner would in Settings → Roles. So reading is
 * open and uncounted, and writing a comment is what a plan sells.
 */

async function allowAuthenticated(app: TestApp, action: string): Promise<void> {
  const role = await app.strapi.db.query('plugin::users-permissions.role').findOne({ where: { type: 'authenticated' } });
  await app.strapi.db.query('plugin::users-permissions.permission').create({ data: { action, role: role.id } });
}

async function monthUsed(app: TestApp, user: TestUser): Promise<number> {
  const response = await app.request().get('/api/v1/usage').set('Authorization', `Bearer ${user.jwt}`);
  expect(response.status).toBe(200);
  return response.body.data.month.used as number;
}

/** Usage records are written in batches off the request path: wait for them to land. */
async function settledUsage(app: TestApp): Promise<void> {
  await (app.strapi.plugin('api-suite').service('usage') as { flush(): Promise<void> }).flush();
}

describe('the site’s content API, sold through plans', () => {
  let app: TestApp;
  let consumer: TestUser;
  let key: IssuedKey;

  beforeAll(async () => {
    app = await startApp();
    await allowAuthenticated(app, 'api::comment.comment.create');
    consumer = await registerUser(app);
    key = await issueKey(app, consumer, { scopes: ['read', 'write'] });
  });

  afterAll(async () => {
    await app?.close();
  });

  const comment = (body: string) => ({ data: { body } });

  it('answers what the Public role may call to everyone, uncounted, whatever credential is sent', async () => {
    const before = await monthUsed(app, consumer);
    for (const headers of [{}, { 'X-API-Key': key.key }, { Authorization: `Bearer ${key.key}` }, { 'X-API-Key': UNKNOWN_KEY }]) {
      const response = await app.request().get('/api/authors').set(headers);
      expect(response.status).toBe(200);
      expect(response.headers['x-ratelimit-remaining']).toBeUndefined();
    }
    await settledUsage(app);
    expect(await monthUsed(app, consumer)).toBe(before);
  });

  it('keeps Strapi’s own answer without a credential', async () => {
    const response = await app.request().post('/api/comments').send(comment('anonymous'));
    expect(response.status).toBe(403);
    expect(response.body.error).toMatchObject({ status: 403, name: 'ForbiddenError' });
  });

  it('refuses a key on a plan that does not reach the content API with endpoint_not_in_plan', async () => {
    const response = await app.request().post('/api/comments').set('X-API-Key', key.key).send(comment('free plan'));
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ error: { code: 'endpoint_not_in_plan', message: expect.stringContaining('free') } });
    expect(await app.strapi.db.query('api::comment.comment').count({ where: { body: 'free plan' } })).toBe(0);
  });

  it('refuses an unknown key in the key gate’s shape', async () => {
    const response = await app.request().post('/api/comments').set('X-API-Key', UNKNOWN_KEY).send(comment('unknown'));
    expect(response.status).toBe(401);
    expect(response.body.error.code).toBe('invalid_api_key');
  });

  describe('on a plan that reaches it', () => {
    beforeAll(async () => {
      await grantPlan(app, consumer, 'enterprise');
    });

    it('lets a key write as its owner, counted in their pool with the rate headers', async () => {
      const before = await monthUsed(app, consumer);
      for (const headers of [
        { 'X-API-Key': key.key },
        { Authorization: `Bearer ${key.key}` },
        { Authorization: `Bearer ${consumer.jwt}` },
      ]) {
        const response = await app.request().post('/api/comments').set(headers).send(comment('sold'));
        expect(response.status).toBe(201);
        expect(response.body.data).toMatchObject({ body: 'sold' });
        expect(Number(response.headers['x-ratelimit-remaining'])).toBeGreaterThan(0);
        expect(response.headers['x-ratelimit-monthly-limit']).toBe('unlimited');
      }
      await settledUsage(app);
      expect(await monthUsed(app, consumer)).toBe(before + 3);
      const records = await app.strapi.db.query('plugin::api-suite.usage-record').findMany({ where: { endpoint: '/api/comments' } });
      expect(records.length).toBeGreaterThanOrEqual(3);
    });

    it('holds a key to its scope and to its owner’s role', async () => {
      const reader = await issueKey(app, consumer, { scopes: ['read'] });
      const scoped = await app.request().post('/api/comments').set('X-API-Key', reader.key).send(comment('read only'));
      expect(scoped.status).toBe(403);
      expect(scoped.body.error.code).toBe('insufficient_scope');
      // The Authenticated role may not delete comments: Strapi's own refusal, whatever the plan.
      const [first] = await app.strapi.db.query('api::comment.comment').findMany({ where: { body: 'sold' }, limit: 1 });
      const beyond = await app.request().delete(`/api/comments/${first.documentId}`).set('X-API-Key', key.key);
      expect(beyond.status).toBe(403);
      expect(beyond.body.error).toMatchObject({ status: 403, name: 'ForbiddenError' });
    });

    it(`follows its owner's role as an administrator edits it, at once${redisUrl ? ', on another instance too' : ''}`, async () => {
      // With Redis a second instance serves the key (its owner and role kept there) while the edit is made here.
      const instance = redisUrl ? await startInstance(app) : undefined;
      try {
        const post = (body: string) => (instance ?? app).request().post('/api/comments').set('X-API-Key', key.key).send(comment(body));
        expect((await post('before the edit')).status).toBe(201);
        const role = await app.strapi.db.query('plugin::users-permissions.role').findOne({ where: { type: 'authenticated' } });
        await app.strapi.db
          .query('plugin::users-permissions.permission')
          .deleteMany({ where: { role: role.id, action: 'api::comment.comment.create' } });
        // Seen within a second wherever the key is served (a message over Redis, not the cache's expiry).
        const refused = await eventually(
          async () => {
            const response = await post('after the edit');
            return response.status === 403 ? response : undefined;
          },
          1_000,
          'the key refused once its role may no longer create comments'
        );
        expect(refused.body.error).toMatchObject({ status: 403, name: 'ForbiddenError' });
        await allowAuthenticated(app, 'api::comment.comment.create');
        await eventually(async () => ((await post('allowed again')).status === 201 ? true : undefined), 1_000, 'the key allowed again');
      } finally {
        await instance?.kill();
      }
    }, 120_000);

    it('leaves Strapi’s API tokens to the site: held to no plan', async () => {
      const token = await fullAccessToken(app);
      const response = await app.request().post('/api/comments').set('Authorization', `Bearer ${token}`).send(comment('site token'));
      expect(response.status).toBe(201);
      expect(response.headers['x-ratelimit-remaining']).toBeUndefined();
    });
  });

  it('sells the content API with a plan naming @content, resolved in the plan list', async () => {
    const buyer = await registerUser(app);
    await createPlan(app, { name: 'content-only', requests_per_month: 100, requests_per_minute: 50, endpoints: ['@content'] });
    await grantPlan(app, buyer, 'content-only');
    const buyerKey = await issueKey(app, buyer, { scopes: ['read', 'write'] });
    const response = await app.request().post('/api/comments').set('X-API-Key', buyerKey.key).send(comment('content plan'));
    expect(response.status).toBe(201);
    expect(response.headers['x-ratelimit-monthly-remaining']).toBe('99');
    const elsewhere = await app.request().get('/api/v1/articles').set('X-API-Key', buyerKey.key);
    expect(elsewhere.status).toBe(403);
    const plans = (await app.request().get('/api/v1/plans')).body.data as Array<{ name: string; endpoints: string[] }>;
    expect(plans.find((plan) => plan.name === 'content-only')?.endpoints).toEqual(
      expect.arrayContaining(['* /api/comments', '* /api/comments/*', '* /api/pages', '* /api/authors/*'])
    );
  });
});
