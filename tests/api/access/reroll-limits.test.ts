import { startApp, type TestApp } from '../../helpers/app';
import { awayFromMinuteEdge, issueKey, planId } from '../../helpers/keys';
import { adminSession, makeAdministrator, registerUser, type TestUser } from '../../helpers/users';

/**
 * Key reroll with a grace period (as Unkey has it) and a key's own limits set by administrators
 * (as in Unkey and Kong); see docs/access.md#keys-and-plans.
 */
let app: TestApp;
let alice: TestUser;
let bob: TestUser;
let admin: TestUser;

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const as = (user: TestUser) => ({ Authorization: `Bearer ${user.jwt}` });
/** A plan-governed route, so each request is counted (the account routes are not). */
const withKey = (key: string) => app.request().get('/api/v1/articles').set('X-API-Key', key);

beforeAll(async () => {
  app = await startApp();
  alice = await registerUser(app);
  bob = await registerUser(app);
  admin = await makeAdministrator(app, await registerUser(app));
});

afterAll(async () => {
  await app?.close();
});

describe('POST /api/v1/keys/{id}/reroll', () => {
  it('makes a new key with the same name, plan, scopes, owner and expiry, shown once; the old one works through the grace period', async () => {
    const expires = new Date(Date.now() + 30 * 86_400_000).toISOString();
    const old = await issueKey(app, alice, { name: 'ci', scopes: ['read', 'write'], expires_at: expires });
    const before = Date.now();
    const response = await app.request().post(`/api/v1/keys/${old.id}/reroll`).set(as(alice)).send({});
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      data: {
        id: expect.any(Number),
        name: 'ci',
        key: expect.stringMatching(/^sk_[A-Za-z0-9]{48}$/),
        key_prefix: expect.stringMatching(/^sk_/),
        client_id: expect.stringMatching(/^ci_/),
        plan_id: await planId(app, 'free'),
        user_id: alice.id,
        scopes: ['read', 'write'],
        status: 'active',
        expires_at: old.expires_at,
        created_at: expect.stringMatching(ISO),
        replaces: old.id,
        old_expires_at: expect.stringMatching(ISO),
      },
    });
    const fresh = response.body.data;
    expect(fresh.id).not.toBe(old.id);
    expect(fresh.key).not.toBe(old.key);
    // A day by default.
    const grace = new Date(fresh.old_expires_at).getTime() - before;
    expect(grace).toBeGreaterThanOrEqual(86_400_000 - 1000);
    expect(grace).toBeLessThanOrEqual(86_400_000 + 5000);
    expect((await withKey(old.key)).status).toBe(200);
    expect((await withKey(fresh.key)).status).toBe(200);
    const list = await app.request().get('/api/v1/keys').set(as(alice));
    expect(JSON.stringify(list.body)).not.toContain(fresh.key);
    expect(list.body.data.find((key: { id: number }) => key.id === old.id)).toMatchObject({
      status: 'active',
      expires_at: fresh.old_expires_at,
    });
  });

  it('ends the old key at once with grace 0: it answers 403 key_expired', async () => {
    const old = await issueKey(app, alice, { name: 'leaked' });
    const response = await app.request().post(`/api/v1/keys/${old.id}/reroll`).set(as(alice)).send({ grace_seconds: 0 });
    expect(response.status).toBe(201);
    const refused = await withKey(old.key);
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ error: { code: 'key_expired', message: 'The API key has expired' } });
    expect((await withKey(response.body.data.key)).status).toBe(200);
    const list = await app.request().get('/api/v1/keys').set(as(alice));
    expect(list.body.data.find((key: { id: number }) => key.id === old.id).status).toBe('expired');
  });

  it('never extends the old key past its own expiry', async () => {
    const soon = new Date(Date.now() + 60_000).toISOString();
    const old = await issueKey(app, alice, { expires_at: soon });
    const response = await app.request().post(`/api/v1/keys/${old.id}/reroll`).set(as(alice)).send({ grace_seconds: 3600 });
    expect(response.status).toBe(201);
    expect(response.body.data.old_expires_at).toBe(old.expires_at);
  });

  it('refuses a revoked, expired or already rerolled key with 409, and makes one new key when rerolls race', async () => {
    const revoked = await issueKey(app, alice);
    await app.request().delete(`/api/v1/keys/${revoked.id}`).set(as(alice));
    const racing = await issueKey(app, alice, { name: 'racing' });
    const answers = await Promise.all(
      [1, 2, 3, 4].map(() => app.request().post(`/api/v1/keys/${racing.id}/reroll`).set(as(alice)).send({}))
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 409, 409, 409]);
    expect(answers.filter((answer) => answer.status === 409).map((answer) => answer.body.error.code)).toEqual([
      'key_not_active',
      'key_not_active',
      'key_not_active',
    ]);
    const list = await app.request().get('/api/v1/keys?limit=100').set(as(alice));
    expect(list.body.data.filter((key: { name: string | null }) => key.name === 'racing')).toHaveLength(2);
    for (const id of [revoked.id, racing.id]) {
      const response = await app.request().post(`/api/v1/keys/${id}/reroll`).set(as(alice)).send({});
      expect(response.status).toBe(409);
      expect(response.body.error.code).toBe('key_not_active');
    }
  });

  it("answers 404 for another consumer's key and 400 for a bad body, changing nothing", async () => {
    const bobs = await issueKey(app, bob);
    const foreign = await app.request().post(`/api/v1/keys/${bobs.id}/reroll`).set(as(alice)).send({});
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ error: { code: 'not_found', message: 'API key not found' } });
    for (const body of [
      { grace_seconds: -1 },
      { grace_seconds: 2_592_001 },
      { grace_seconds: 'soon' },
      { grace_seconds: 1.5 },
      { extra: true },
    ]) {
      const response = await app.request().post(`/api/v1/keys/${bobs.id}/reroll`).set(as(bob)).send(body);
      expect([JSON.stringify(body), response.status, response.body.error.code]).toEqual([JSON.stringify(body), 400, 'validation_error']);
    }
    expect((await withKey(bobs.key)).status).toBe(200);
    const list = await app.request().get('/api/v1/keys').set(as(bob));
    expect(list.body.data).toHaveLength(1);
  });

  it("lets an administrator reroll anyone's key", async () => {
    const bobs = await issueKey(app, bob, { name: 'bob-2' });
    const response = await app.request().post(`/api/v1/keys/${bobs.id}/reroll`).set(as(admin)).send({ grace_seconds: 60 });
    expect(response.status).toBe(201);
    expect(response.body.data).toMatchObject({ user_id: bob.id, name: 'bob-2', replaces: bobs.id });
  });
});

describe("PATCH /api/v1/keys/{id}: a key's own limits", () => {
  it("lets administrators set them; quotas and headers follow from the next request; null goes back to the plan's", async () => {
    const key = await issueKey(app, alice, { name: 'limited' });
    await awayFromMinuteEdge();
    expect((await withKey(key.key)).headers['x-ratelimit-limit']).toBe('10');
    const response = await app
      .request()
      .patch(`/api/v1/keys/${key.id}`)
      .set(as(admin))
      .send({ requests_per_minute: 3, requests_per_month: 500 });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      data: {
        id: key.id,
        name: 'limited',
        key_prefix: key.key_prefix,
        client_id: key.client_id,
        plan_id: key.plan_id,
        user_id: alice.id,
        scopes: ['read'],
        status: 'active',
        expires_at: null,
        revoked_at: null,
        created_at: key.created_at,
        requests_per_minute: 3,
        requests_per_month: 500,
      },
    });
    const second = await withKey(key.key);
    expect([second.status, second.headers['x-ratelimit-limit'], second.headers['x-ratelimit-monthly-limit']]).toEqual([200, '3', '500']);
    // A key with limits of its own is counted on its own, from its first request under them.
    expect(second.headers['x-ratelimit-remaining']).toBe('2');
    expect((await withKey(key.key)).status).toBe(200);
    expect((await withKey(key.key)).status).toBe(200);
    const refused = await withKey(key.key);
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe('rate_limited');

    const reset = await app
      .request()
      .patch(`/api/v1/keys/${key.id}`)
      .set(as(admin))
      .send({ requests_per_minute: null, requests_per_month: null });
    expect(reset.body.data).toMatchObject({ requests_per_minute: null, requests_per_month: null });
    const back = await withKey(key.key);
    expect([back.status, back.headers['x-ratelimit-limit'], back.headers['x-ratelimit-monthly-limit']]).toEqual([200, '10', '1000']);
  });

  it('refuses consumers with 403, unknown keys with 404 and bad bodies with 400', async () => {
    const key = await issueKey(app, alice);
    const forbidden = await app.request().patch(`/api/v1/keys/${key.id}`).set(as(alice)).send({ requests_per_minute: 1000 });
    expect(forbidden.status).toBe(403);
    expect(forbidden.body).toEqual({ error: { code: 'forbidden', message: "Only administrators may set a key's own limits" } });
    const unknown = await app.request().patch('/api/v1/keys/999999').set(as(admin)).send({ requests_per_minute: 5 });
    expect(unknown.status).toBe(404);
    for (const body of [{}, { requests_per_minute: 0 }, { requests_per_month: -2 }, { requests_per_minute: 'many' }, { plan_id: 1 }]) {
      const response = await app.request().patch(`/api/v1/keys/${key.id}`).set(as(admin)).send(body);
      expect([JSON.stringify(body), response.status, response.body.error.code]).toEqual([JSON.stringify(body), 400, 'validation_error']);
    }
  });

  it("carries a key's own limits over to its reroll", async () => {
    const key = await issueKey(app, alice, { name: 'carried' });
    await app.request().patch(`/api/v1/keys/${key.id}`).set(as(admin)).send({ requests_per_minute: 7 });
    const rerolled = await app.request().post(`/api/v1/keys/${key.id}/reroll`).set(as(alice)).send({});
    expect(rerolled.status).toBe(201);
    expect((await withKey(rerolled.body.data.key)).headers['x-ratelimit-limit']).toBe('7');
  });

  it("carries on the old key's pool: rerolling with grace 0 gives no fresh month, however often", async () => {
    const key = await issueKey(app, alice, { name: 'five a month' });
    await app.request().patch(`/api/v1/keys/${key.id}`).set(as(admin)).send({ requests_per_month: 5 });
    for (let used = 1; used <= 5; used += 1) {
      const response = await withKey(key.key);
      expect([response.status, response.headers['x-ratelimit-monthly-remaining']]).toEqual([200, String(5 - used)]);
    }
    expect((await withKey(key.key)).body.error.code).toBe('monthly_quota_exceeded');
    let current = key.id;
    for (const round of [1, 2, 3]) {
      const rerolled = await app.request().post(`/api/v1/keys/${current}/reroll`).set(as(alice)).send({ grace_seconds: 0 });
      expect([round, rerolled.status]).toEqual([round, 201]);
      const refused = await withKey(rerolled.body.data.key);
      expect([round, refused.status, refused.body.error?.code, refused.headers['x-ratelimit-monthly-remaining']]).toEqual([
        round,
        429,
        'monthly_quota_exceeded',
        '0',
      ]);
      current = rerolled.body.data.id;
    }
  });

  it('shares one pool between the old key and the new one through the grace period, minute and month', async () => {
    const key = await issueKey(app, alice, { name: 'shared pool' });
    await app.request().patch(`/api/v1/keys/${key.id}`).set(as(admin)).send({ requests_per_minute: 4, requests_per_month: 100 });
    await awayFromMinuteEdge();
    expect((await withKey(key.key)).status).toBe(200);
    expect((await withKey(key.key)).status).toBe(200);
    const rerolled = await app.request().post(`/api/v1/keys/${key.id}/reroll`).set(as(alice)).send({ grace_seconds: 3600 });
    const fresh = await withKey(rerolled.body.data.key);
    expect([fresh.status, fresh.headers['x-ratelimit-remaining'], fresh.headers['x-ratelimit-monthly-remaining']]).toEqual([
      200,
      '1',
      '97',
    ]);
    const old = await withKey(key.key);
    expect([old.status, old.headers['x-ratelimit-remaining'], old.headers['x-ratelimit-monthly-remaining']]).toEqual([200, '0', '96']);
    const refused = await withKey(rerolled.body.data.key);
    expect([refused.status, refused.body.error.code]).toEqual([429, 'rate_limited']);
    // The usage report of either key shows the one pool.
    const usage = await app.request().get(`/api/v1/usage?key_id=${rerolled.body.data.id}`).set(as(alice));
    expect(usage.body.data.month).toEqual({ used: 4, quota: 100, remaining: 96 });
  });

  it('shows own limits and "replaced by" in the admin panel, which edits the limits too', async () => {
    const owner = await adminSession(app);
    const key = await issueKey(app, bob, { name: 'panel' });
    const edited = await app
      .request()
      .put(`/api-suite/access/keys/${key.id}`)
      .set('Authorization', `Bearer ${owner.token}`)
      .send({ requests_per_minute: 4, requests_per_month: -1 });
    expect(edited.status).toBe(200);
    expect(edited.body.data).toMatchObject({ id: key.id, requests_per_minute: 4, requests_per_month: -1 });
    const rerolled = await app.request().post(`/api/v1/keys/${key.id}/reroll`).set(as(bob)).send({});
    const listed = await app
      .request()
      .get(`/api-suite/access/keys?user_id=${bob.id}&limit=100`)
      .set('Authorization', `Bearer ${owner.token}`);
    expect(listed.status).toBe(200);
    const entry = (id: number) => listed.body.data.find((candidate: { id: number }) => candidate.id === id);
    expect(entry(key.id)).toMatchObject({
      replaced_by: rerolled.body.data.id,
      replaced_by_prefix: rerolled.body.data.key_prefix,
      requests_per_minute: 4,
      requests_per_month: -1,
    });
    expect(entry(rerolled.body.data.id)).toMatchObject({ replaced_by: null, requests_per_minute: 4, requests_per_month: -1 });
    const bad = await app
      .request()
      .put(`/api-suite/access/keys/${key.id}`)
      .set('Authorization', `Bearer ${owner.token}`)
      .send({ requests_per_minute: 0 });
    expect(bad.status).toBe(400);
  });
});
