import { createHash } from 'node:crypto';
import { startApp, type TestApp } from '../../helpers/app';
import { awayFromMinuteEdge, createPlan, issueKey, planId } from '../../helpers/keys';
import { adminSession, makeAdministrator, registerUser, type TestUser } from '../../helpers/users';
import { UIDS } from '../../../src/plugins/api-suite/server/src/constants';

/** Keys: issue, list, revoke, and plans (docs/access.md#keys-and-plans). */
let app: TestApp;
let alice: TestUser;
let bob: TestUser;
let admin: TestUser;

beforeAll(async () => {
  app = await startApp();
  alice = await registerUser(app);
  bob = await registerUser(app);
  admin = await makeAdministrator(app, await registerUser(app));
});

afterAll(async () => {
  await app?.close();
});

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('POST /api/v1/keys', () => {
  it('issues a key on the default plan, shown once, with read scope by default', async () => {
    const response = await app.request().post('/api/v1/keys').set('Authorization', `Bearer ${alice.jwt}`).send({ name: 'laptop' });
    expect(response.status).toBe(201);
    const free = await planId(app, 'free');
    expect(response.body).toEqual({
      data: {
        id: expect.any(Number),
        name: 'laptop',
        key: expect.stringMatching(/^sk_[A-Za-z0-9]{48}$/),
        key_prefix: response.body.data.key.slice(0, 8),
        client_id: expect.stringMatching(/^ci_[A-Za-z0-9]{24}$/),
        plan_id: free,
        user_id: alice.id,
        scopes: ['read'],
        status: 'active',
        expires_at: null,
        created_at: expect.stringMatching(ISO),
      },
    });
  });

  it('never stores the key itself: the database holds only its SHA-256 and prefix', async () => {
    const issued = await issueKey(app, alice, { scopes: ['read', 'write'] });
    const knex = app.strapi.db.connection;
    const table = app.strapi.db.metadata.get(UIDS.apiKey).tableName;
    const row = await knex(table).where({ id: issued.id }).first();
    const everyValue = JSON.stringify(row);
    expect(everyValue).not.toContain(issued.key);
    expect(everyValue).not.toContain(issued.key.slice(3));
    expect(row.key_hash).toBe(createHash('sha256').update(issued.key).digest('hex'));
    expect(row.key_prefix).toBe(issued.key.slice(0, 8));
    // And no other table picked it up either (usage records, logs kept in the database...).
    for (const tableName of await listTables(app)) {
      const rows = await knex(tableName).select('*');
      expect(JSON.stringify(rows)).not.toContain(issued.key);
    }
  });

  it('keeps the key out of every later answer', async () => {
    const issued = await issueKey(app, alice);
    const list = await app.request().get('/api/v1/keys').set('Authorization', `Bearer ${alice.jwt}`);
    expect(JSON.stringify(list.body)).not.toContain(issued.key);
    expect(list.body.data.find((key: { id: number }) => key.id === issued.id)).toEqual({
      id: issued.id,
      name: null,
      key_prefix: issued.key_prefix,
      client_id: issued.client_id,
      plan_id: issued.plan_id,
      user_id: alice.id,
      scopes: ['read'],
      status: 'active',
      expires_at: null,
      revoked_at: null,
      created_at: issued.created_at,
    });
  });

  it('refuses bad bodies with 400 and stores nothing', async () => {
    const before = await app.strapi.db.query(UIDS.apiKey).count({});
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ scopes: ['admin'] }, 'scopes.0'],
      [{ scopes: [] }, 'scopes'],
      [{ scopes: 'read' }, 'scopes'],
      [{ expires_at: 'tomorrow' }, 'expires_at'],
      [{ expires_at: '2001-01-01T00:00:00Z' }, 'expires_at'],
      [{ name: 'x'.repeat(101) }, 'name'],
      [{ colour: 'blue' }, '(body)'],
    ];
    for (const [body, field] of cases) {
      const response = await app.request().post('/api/v1/keys').set('Authorization', `Bearer ${alice.jwt}`).send(body);
      expect(response.status).toBe(400);
      expect(response.body.error).toMatchObject({ code: 'validation_error', message: expect.stringContaining(field) });
      expect(response.body.error.details).toEqual(expect.arrayContaining([expect.objectContaining({ field })]));
    }
    const notJson = await app
      .request()
      .post('/api/v1/keys')
      .set('Authorization', `Bearer ${alice.jwt}`)
      .set('Content-Type', 'application/json')
      .send('{"name":');
    expect(notJson.status).toBe(400);
    expect(await app.strapi.db.query(UIDS.apiKey).count({})).toBe(before);
  });

  it('lets only administrators choose plan_id and user_id', async () => {
    const enterprise = await planId(app, 'enterprise');
    const refused = await app.request().post('/api/v1/keys').set('Authorization', `Bearer ${alice.jwt}`).send({ plan_id: enterprise });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ error: { code: 'forbidden', message: 'Only administrators may choose plan_id or user_id' } });

    const forBob = await issueKey(app, admin, { plan_id: enterprise, user_id: bob.id, scopes: ['read', 'write'] });
    expect(forBob).toMatchObject({ plan_id: enterprise, user_id: bob.id, scopes: ['read', 'write'] });
    const bobsKeys = await app.request().get('/api/v1/keys').set('Authorization', `Bearer ${bob.jwt}`);
    expect(bobsKeys.body.data.map((key: { id: number }) => key.id)).toContain(forBob.id);

    const unknownPlan = await app.request().post('/api/v1/keys').set('Authorization', `Bearer ${admin.jwt}`).send({ plan_id: 999999 });
    expect(unknownPlan.status).toBe(422);
    expect(unknownPlan.body.error.code).toBe('unknown_plan');
    const unknownUser = await app.request().post('/api/v1/keys').set('Authorization', `Bearer ${admin.jwt}`).send({ user_id: 999999 });
    expect(unknownUser.status).toBe(422);
    expect(unknownUser.body.error.code).toBe('unknown_user');
  });

  it('does not let a key mint a key with more scopes than it has', async () => {
    const writer = await issueKey(app, alice, { scopes: ['write'] });
    const response = await app
      .request()
      .post('/api/v1/keys')
      .set('X-API-Key', writer.key)
      .send({ scopes: ['read', 'write'] });
    expect(response.status).toBe(403);
    expect(response.body.error.code).toBe('insufficient_scope');
    const ok = await app
      .request()
      .post('/api/v1/keys')
      .set('X-API-Key', writer.key)
      .send({ scopes: ['write'] });
    expect(ok.status).toBe(201);
  });
});

describe('how many keys a consumer may hold', () => {
  let dave: TestUser;
  const asDave = () => ({ Authorization: `Bearer ${dave.jwt}` });
  const make = () => app.request().post('/api/v1/keys').set(asDave()).send({ name: 'one more' });
  const live = () => app.strapi.db.query(UIDS.apiKey).count({ where: { user: { id: dave.id }, status: 'active' } });

  it('refuses a key beyond 20 live ones with 409 too_many_keys, even when 25 are asked for at once', async () => {
    dave = await registerUser(app);
    const answers = await Promise.all(
      Array.from({ length: 25 }, (_, i) =>
        app
          .request()
          .post('/api/v1/keys')
          .set(asDave())
          .send({ name: `k${i}` })
      )
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([...Array(20).fill(201), ...Array(5).fill(409)]);
    const refused = answers.find((answer) => answer.status === 409);
    expect(refused?.body).toEqual({ error: { code: 'too_many_keys', message: expect.stringContaining('20'), details: { limit: 20 } } });
    expect(await live()).toBe(20);
  });

  it('counts live keys only: revoking one or letting one expire makes room', async () => {
    const list = await app.request().get('/api/v1/keys?limit=100').set(asDave());
    const [first, second] = list.body.data as Array<{ id: number }>;
    expect((await app.request().delete(`/api/v1/keys/${first.id}`).set(asDave())).status).toBe(204);
    expect((await make()).status).toBe(201);
    expect((await make()).status).toBe(409);
    await app.strapi.db.query(UIDS.apiKey).update({ where: { id: second.id }, data: { expires_at: new Date(Date.now() - 1000) } });
    expect((await make()).status).toBe(201);
    expect((await make()).status).toBe(409);
  });

  it('counts the old key of a reroll while its grace lasts: at the cap only a reroll with grace 0 goes through', async () => {
    const list = await app.request().get('/api/v1/keys?limit=100').set(asDave());
    const key = (list.body.data as Array<{ id: number; status: string }>).find((candidate) => candidate.status === 'active');
    const graced = await app.request().post(`/api/v1/keys/${key?.id}/reroll`).set(asDave()).send({});
    expect([graced.status, graced.body.error?.code, graced.body.error?.details]).toEqual([409, 'too_many_keys', { limit: 20 }]);
    const replaced = await app.request().post(`/api/v1/keys/${key?.id}/reroll`).set(asDave()).send({ grace_seconds: 0 });
    expect(replaced.status).toBe(201);
    expect((await make()).status).toBe(409);
  });

  it('does not cap administrators', async () => {
    expect((await issueKey(app, admin, { user_id: dave.id })).user_id).toBe(dave.id);
    expect((await make()).status).toBe(409);
    for (let i = 0; i < 21; i += 1) await issueKey(app, admin);
  });
});

describe('GET /api/v1/keys', () => {
  it("pages the caller's own keys, newest first", async () => {
    const carol = await registerUser(app);
    const issued = [];
    for (let i = 0; i < 3; i += 1) issued.push(await issueKey(app, carol, { name: `k${i}` }));
    const page1 = await app.request().get('/api/v1/keys?page=1&limit=2').set('Authorization', `Bearer ${carol.jwt}`);
    expect(page1.status).toBe(200);
    expect(page1.body.meta).toEqual({ page: 1, limit: 2, total: 3 });
    expect(page1.body.data.map((key: { name: string }) => key.name)).toEqual(['k2', 'k1']);
    const page2 = await app.request().get('/api/v1/keys?page=2&limit=2').set('Authorization', `Bearer ${carol.jwt}`);
    expect(page2.body.data.map((key: { name: string }) => key.name)).toEqual(['k0']);
    expect((await app.request().get('/api/v1/keys?limit=0').set('Authorization', `Bearer ${carol.jwt}`)).status).toBe(400);
  });

  it("shows administrators every consumer's keys", async () => {
    const all = await app.request().get('/api/v1/keys?limit=100').set('Authorization', `Bearer ${admin.jwt}`);
    const owners = new Set(all.body.data.map((key: { user_id: number }) => key.user_id));
    expect(owners.has(alice.id) && owners.has(bob.id)).toBe(true);
    const onlyBob = await app.request().get(`/api/v1/keys?user_id=${bob.id}`).set('Authorization', `Bearer ${admin.jwt}`);
    expect(onlyBob.body.data.every((key: { user_id: number }) => key.user_id === bob.id)).toBe(true);
  });
});

describe('DELETE /api/v1/keys/:id', () => {
  it('revokes the key and keeps its record', async () => {
    const issued = await issueKey(app, alice);
    expect((await app.request().get('/api/v1/keys').set('X-API-Key', issued.key)).status).toBe(200);
    const revoked = await app.request().delete(`/api/v1/keys/${issued.id}`).set('Authorization', `Bearer ${alice.jwt}`);
    expect(revoked.status).toBe(204);
    expect(revoked.text).toBe('');
    const again = await app.request().get('/api/v1/keys').set('X-API-Key', issued.key);
    expect(again.status).toBe(403);
    expect(again.body).toEqual({ error: { code: 'key_revoked', message: 'The API key has been revoked' } });
    const list = await app.request().get('/api/v1/keys?limit=100').set('Authorization', `Bearer ${alice.jwt}`);
    expect(list.body.data.find((key: { id: number }) => key.id === issued.id)).toMatchObject({
      status: 'revoked',
      revoked_at: expect.stringMatching(ISO),
    });
    expect((await app.request().delete(`/api/v1/keys/${issued.id}`).set('Authorization', `Bearer ${alice.jwt}`)).status).toBe(204);
  });

  it('takes effect at once when an editor revokes a key in the admin panel', async () => {
    const issued = await issueKey(app, alice);
    expect((await app.request().get('/api/v1/keys').set('X-API-Key', issued.key)).status).toBe(200); // now cached
    // On the API access page: keys are never edited in the Content Manager.
    const session = await adminSession(app);
    const revoked = await app.request().delete(`/api-suite/access/keys/${issued.id}`).set('Authorization', `Bearer ${session.token}`);
    expect(revoked.status).toBe(204);
    const refused = await app.request().get('/api/v1/keys').set('X-API-Key', issued.key);
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('key_revoked');
  });

  it("answers 404 for another consumer's key and for nonsense ids", async () => {
    const bobs = await issueKey(app, bob);
    const response = await app.request().delete(`/api/v1/keys/${bobs.id}`).set('Authorization', `Bearer ${alice.jwt}`);
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ error: { code: 'not_found', message: 'API key not found' } });
    expect((await app.request().get('/api/v1/keys').set('X-API-Key', bobs.key)).status).toBe(200);
    expect((await app.request().delete('/api/v1/keys/abc').set('Authorization', `Bearer ${alice.jwt}`)).status).toBe(404);
    expect((await app.request().delete(`/api/v1/keys/${bobs.id}`).set('Authorization', `Bearer ${admin.jwt}`)).status).toBe(204);
  });
});

describe('GET /api/v1/plans', () => {
  it('lists the three tiers with their endpoints resolved, to anybody', async () => {
    const response = await app.request().get('/api/v1/plans');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      data: [
        {
          id: expect.any(Number),
          name: 'free',
          requests_per_month: 1000,
          requests_per_minute: 10,
          endpoints: ['GET /api/v1/articles*'],
          price_monthly: 0,
        },
        {
          id: expect.any(Number),
          name: 'pro',
          requests_per_month: 100000,
          requests_per_minute: 100,
          endpoints: ['GET /api/v1/articles*', '* /api/v1/articles*', '* /api/v1/scrapers*', 'POST /api/v1/webhooks', '* /api/webhooks/*'],
          price_monthly: 49,
        },
        {
          id: expect.any(Number),
          name: 'enterprise',
          requests_per_month: -1,
          requests_per_minute: 1000,
          endpoints: ['* *'],
          price_monthly: 499,
        },
      ],
    });
  });
});

describe('plans edited in the admin panel', () => {
  it('apply to cached keys at once', async () => {
    // The two requests must fall in one minute's window: a new minute would start the count afresh.
    await awayFromMinuteEdge();
    const editable = await createPlan(app, { name: 'editable', requests_per_month: -1, requests_per_minute: 100, endpoints: ['* *'] });
    const issued = await issueKey(app, admin, { plan_id: editable, user_id: alice.id });
    const first = await app.request().get('/api/v1/articles').set('X-API-Key', issued.key); // the key and its plan are now cached
    expect(first.headers['x-ratelimit-limit']).toBe('100');
    const session = await adminSession(app);
    const row = await app.strapi.db.query(UIDS.plan).findOne({ where: { id: editable }, select: ['documentId'] });
    const edit = await app
      .request()
      .put(`/content-manager/collection-types/${UIDS.plan}/${row.documentId}`)
      .set('Authorization', `Bearer ${session.token}`)
      .send({ requests_per_minute: 1 });
    expect(edit.status).toBe(200);
    const limited = await app.request().get('/api/v1/articles').set('X-API-Key', issued.key);
    expect(limited.status).toBe(429);
    expect(limited.headers['x-ratelimit-limit']).toBe('1');
  });
});

async function listTables(target: TestApp): Promise<string[]> {
  const knex = target.strapi.db.connection;
  if (target.strapi.db.dialect.client === 'postgres') {
    const rows = await knex('information_schema.tables').select('table_name').where({ table_schema: 'public' });
    return rows.map((row: { table_name: string }) => row.table_name);
  }
  if (target.strapi.db.dialect.client === 'mysql') {
    const rows = await knex('information_schema.tables')
      .select({ name: 'TABLE_NAME' })
      .where({ TABLE_SCHEMA: knex.raw('DATABASE()') });
    return rows.map((row: { name: string }) => row.name);
  }
  const rows = await knex('sqlite_master').select('name').where({ type: 'table' }).whereNot('name', 'like', 'sqlite_%');
  return rows.map((row: { name: string }) => row.name);
}
