import { startApp, type TestApp } from '../../helpers/app';
import { createPlan, issueKey, planId, type IssuedKey } from '../../helpers/keys';
import { allowArticleWrites, fullAccessToken, makeAdministrator, registerUser, type TestUser } from '../../helpers/users';

/** /api/v1/articles (docs/articles.md): envelopes, status codes, filters and paging. */
let app: TestApp;
let alice: TestUser;
let proKey: IssuedKey;
let freeKey: IssuedKey;
let readKey: IssuedKey;
let authors: { ada: number; bruno: number };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

beforeAll(async () => {
  app = await startApp();
  alice = await registerUser(app);
  // A key never writes more than its owner's role allows: Alice's role writes articles.
  await allowArticleWrites(app, alice);
  const admin = await makeAdministrator(app, await registerUser(app));
  // The suite makes hundreds of requests a minute: its working key is on a plan that never refuses.
  const unmetered = await createPlan(app, {
    name: 'unmetered',
    requests_per_month: -1,
    requests_per_minute: 1_000_000,
    endpoints: ['* /api/v1/articles*'],
  });
  proKey = await issueKey(app, admin, { plan_id: unmetered, user_id: alice.id, scopes: ['read', 'write'] });
  readKey = await issueKey(app, admin, { plan_id: await planId(app, 'pro'), user_id: alice.id, scopes: ['read'] });
  freeKey = await issueKey(app, alice, { scopes: ['read', 'write'] });
  const token = await fullAccessToken(app);
  const author = async (name: string) =>
    (await app.request().post('/api/authors').set('Authorization', `Bearer ${token}`).send({ data: { name } })).body.data.id as number;
  authors = { ada: await author('Ada'), bruno: await author('Bruno') };
});

afterAll(async () => {
  await app?.close();
});

const api = () => ({
  get: (path: string) => app.request().get(path).set('X-API-Key', proKey.key),
  post: (path: string, body: unknown) =>
    app
      .request()
      .post(path)
      .set('X-API-Key', proKey.key)
      .send(body as object),
  put: (path: string, body: unknown) =>
    app
      .request()
      .put(path)
      .set('X-API-Key', proKey.key)
      .send(body as object),
  patch: (path: string, body: unknown) =>
    app
      .request()
      .patch(path)
      .set('X-API-Key', proKey.key)
      .send(body as object),
  delete: (path: string) => app.request().delete(path).set('X-API-Key', proKey.key),
});

async function create(body: Record<string, unknown>) {
  const response = await api().post('/api/v1/articles', body);
  if (response.status !== 201) throw new Error(`create: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body.data as { id: string; slug: string; title: string };
}

describe('credentials', () => {
  it('answers 401 without credentials and 403 outside the plan or scope', async () => {
    const none = await app.request().get('/api/v1/articles');
    expect(none.status).toBe(401);
    expect(none.body.error.code).toBe('api_key_required');
    expect((await app.request().get('/api/v1/articles').set('X-API-Key', freeKey.key)).status).toBe(200);
    const freeWrite = await app.request().post('/api/v1/articles').set('X-API-Key', freeKey.key).send({ title: 'x' });
    expect(freeWrite.status).toBe(403);
    expect(freeWrite.body.error.code).toBe('endpoint_not_in_plan');
    const readOnly = await app.request().post('/api/v1/articles').set('X-API-Key', readKey.key).send({ title: 'x' });
    expect(readOnly.status).toBe(403);
    expect(readOnly.body.error.code).toBe('insufficient_scope');
  });

  it("lets any signed-in user read with a JWT, and holds their writes to their role's permissions", async () => {
    // On a plan that reaches article writes, so what refuses him is his role.
    const bob = await registerUser(app, { plan: 'pro' });
    const draft = await api().post('/api/v1/articles', { title: 'A draft Bob may read', status: 'draft' });
    expect(draft.status).toBe(201);
    const list = await app.request().get('/api/v1/articles').set('Authorization', `Bearer ${bob.jwt}`);
    expect(list.status).toBe(200);
    // The same view a key holder has: every status.
    const withKey = await app.request().get('/api/v1/articles').set('X-API-Key', freeKey.key);
    expect(list.body).toEqual(withKey.body);
    expect(list.body.data).toContainEqual(draft.body.data);
    const one = await app.request().get(`/api/v1/articles/${draft.body.data.id}`).set('Authorization', `Bearer ${bob.jwt}`);
    expect(one.body).toEqual({ data: draft.body.data });
    expect(
      (await app.request().get(`/api/v1/articles/${draft.body.data.id}/comments`).set('Authorization', `Bearer ${bob.jwt}`)).status
    ).toBe(200);
    const refused = await app.request().post('/api/v1/articles').set('Authorization', `Bearer ${bob.jwt}`).send({ title: 'x' });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ error: { code: 'forbidden', message: 'Your role may not create articles' } });
    const role = await app.strapi.db.query('plugin::users-permissions.role').findOne({ where: { type: 'authenticated' } });
    await app.strapi.db
      .query('plugin::users-permissions.permission')
      .create({ data: { action: 'api::article.article.create', role: role.id } });
    const created = await app
      .request()
      .post('/api/v1/articles')
      .set('Authorization', `Bearer ${bob.jwt}`)
      .send({ title: 'Written by Bob' });
    expect(created.status).toBe(201);
    const patched = await app
      .request()
      .patch(`/api/v1/articles/${created.body.data.id}`)
      .set('Authorization', `Bearer ${bob.jwt}`)
      .send({ title: 'y' });
    expect(patched.status).toBe(403);
    expect(patched.body).toEqual({ error: { code: 'forbidden', message: 'Your role may not update articles' } });
    expect((await app.request().delete(`/api/v1/articles/${created.body.data.id}`).set('Authorization', `Bearer ${bob.jwt}`)).status).toBe(
      403
    );
    await api().delete(`/api/v1/articles/${created.body.data.id}`);
    await api().delete(`/api/v1/articles/${draft.body.data.id}`);
    const invalid = await app.request().get('/api/v1/articles').set('Authorization', 'Bearer not.a.jwt');
    expect(invalid.status).toBe(401);
  });
});

describe('create, read, update, delete', () => {
  it('creates an article with a UUID, a slug from its title, and the draft status by default', async () => {
    const response = await api().post('/api/v1/articles', { title: 'Hello, Wörld!', excerpt: 'Short', author_id: authors.ada });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      data: {
        id: expect.stringMatching(UUID),
        title: 'Hello, Wörld!',
        slug: 'hello-world',
        status: 'draft',
        excerpt: 'Short',
        body: null,
        author_id: authors.ada,
        createdAt: expect.stringMatching(ISO),
        updatedAt: expect.stringMatching(ISO),
      },
    });
    const again = await create({ title: 'Hello, World' });
    expect(again.slug).toBe('hello-world-2');
  });

  it('gives an article saved without a slug (as the admin panel allows) one from its title', async () => {
    const token = await fullAccessToken(app);
    const created = await app
      .request()
      .post('/api/articles')
      .set('Authorization', `Bearer ${token}`)
      .send({ data: { title: 'No Slug Given', status: 'draft' } });
    expect(created.status).toBe(201);
    expect(created.body.data.slug).toBe('no-slug-given');
  });

  it('reads one article by UUID or by numeric id, with includes', async () => {
    const article = await create({ title: 'Readable', slug: 'readable', status: 'published', author_id: authors.bruno });
    const byUuid = await api().get(`/api/v1/articles/${article.id}?include=author,comments`);
    expect(byUuid.status).toBe(200);
    expect(byUuid.body.data).toMatchObject({ id: article.id, author: { id: authors.bruno, name: 'Bruno' }, comments: [] });
    const row = await app.strapi.db.query('api::article.article').findOne({ where: { uuid: article.id } });
    const byId = await api().get(`/api/v1/articles/${row.id}`);
    expect(byId.body.data.id).toBe(article.id);
    expect(byId.body.data.author).toBeUndefined();
  });

  it('answers 404 in the error envelope for unknown ids', async () => {
    for (const id of ['00000000-0000-4000-8000-000000000000', '999999', '99999999999', 'nonsense']) {
      const response = await api().get(`/api/v1/articles/${id}`);
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ error: { code: 'not_found', message: 'Article not found' } });
    }
  });

  it('refuses invalid bodies with 400 naming the field, and stores nothing', async () => {
    const before = await app.strapi.db.query('api::article.article').count({});
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ title: 'x'.repeat(201) }, 'title'],
      [{}, 'title'],
      [{ title: 'ok', status: 'live' }, 'status'],
      [{ title: 'ok', slug: 'has spaces' }, 'slug'],
      [{ title: 'ok', author_id: 'one' }, 'author_id'],
      [{ title: 'ok', colour: 'red' }, '(body)'],
      [{ title: 42 }, 'title'],
    ];
    for (const [body, field] of cases) {
      const response = await api().post('/api/v1/articles', body);
      expect(response.status).toBe(400);
      expect(response.body.error.code).toBe('validation_error');
      expect(response.body.error.details).toEqual(expect.arrayContaining([expect.objectContaining({ field })]));
      expect(response.body.error.message).toContain(field);
    }
    expect(await app.strapi.db.query('api::article.article').count({})).toBe(before);
  });

  it('answers 409 for a duplicate slug and 422 for an unknown author', async () => {
    await create({ title: 'Unique', slug: 'unique-slug' });
    const duplicate = await api().post('/api/v1/articles', { title: 'Other', slug: 'unique-slug' });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body.error).toMatchObject({
      code: 'slug_taken',
      message: 'The slug "unique-slug" is already used by another article',
    });
    const unknownAuthor = await api().post('/api/v1/articles', { title: 'Orphan', author_id: 999999 });
    expect(unknownAuthor.status).toBe(422);
    expect(unknownAuthor.body.error).toMatchObject({ code: 'unknown_author', message: 'Author 999999 does not exist' });
  });

  it('replaces with PUT, which needs every required field', async () => {
    const article = await create({ title: 'Before', slug: 'put-me', excerpt: 'old', author_id: authors.ada });
    const missing = await api().put(`/api/v1/articles/${article.id}`, { title: 'After' });
    expect(missing.status).toBe(400);
    expect(missing.body.error.details).toEqual([{ field: 'status', message: expect.any(String) }]);
    const response = await api().put(`/api/v1/articles/${article.id}`, { title: 'After', status: 'published' });
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({
      id: article.id,
      title: 'After',
      status: 'published',
      slug: 'put-me',
      excerpt: null,
      author_id: null,
    });
  });

  it('changes only what PATCH names', async () => {
    const article = await create({ title: 'Patch me', excerpt: 'keep', author_id: authors.ada });
    const response = await api().patch(`/api/v1/articles/${article.id}`, { status: 'archived' });
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({ title: 'Patch me', excerpt: 'keep', status: 'archived', author_id: authors.ada });
    expect((await api().patch(`/api/v1/articles/${article.id}`, {})).status).toBe(400);
    expect((await api().patch(`/api/v1/articles/${article.id}`, { slug: 'unique-slug' })).status).toBe(409);
    expect((await api().patch(`/api/v1/articles/${article.id}`, { author_id: 424242 })).status).toBe(422);
    expect((await api().patch('/api/v1/articles/00000000-0000-4000-8000-000000000000', { title: 'x' })).status).toBe(404);
    // An unknown article is 404 whatever the body: the article is looked for before the body is read.
    for (const method of ['patch', 'put'] as const) {
      const unknown = await api()[method]('/api/v1/articles/00000000-0000-4000-8000-000000000000', { title: 42, status: 'nonsense' });
      expect({ method, status: unknown.status, code: unknown.body.error?.code }).toEqual({ method, status: 404, code: 'not_found' });
    }
  });

  it('deletes with 204, after which the article is gone', async () => {
    const article = await create({ title: 'Short-lived' });
    const response = await api().delete(`/api/v1/articles/${article.id}`);
    expect(response.status).toBe(204);
    expect(response.text).toBe('');
    expect((await api().get(`/api/v1/articles/${article.id}`)).status).toBe(404);
    expect((await api().delete(`/api/v1/articles/${article.id}`)).status).toBe(404);
  });

  it("lists an article's comments with paging", async () => {
    const article = await create({ title: 'Discussed', status: 'published' });
    const token = await fullAccessToken(app);
    const row = await app.strapi.db.query('api::article.article').findOne({ where: { uuid: article.id }, select: ['documentId'] });
    for (const body of ['one', 'two', 'three']) {
      await app
        .request()
        .post('/api/comments')
        .set('Authorization', `Bearer ${token}`)
        .send({ data: { body, author_name: 'Dana', article: row.documentId } })
        .expect(201);
    }
    const response = await api().get(`/api/v1/articles/${article.id}/comments?limit=2`);
    expect(response.status).toBe(200);
    expect(response.body.meta).toEqual({ page: 1, limit: 2, total: 3, pages: 2 });
    expect(response.body.data).toEqual([
      { id: expect.any(Number), body: 'one', author_name: 'Dana', article_id: article.id, createdAt: expect.stringMatching(ISO) },
      { id: expect.any(Number), body: 'two', author_name: 'Dana', article_id: article.id, createdAt: expect.stringMatching(ISO) },
    ]);
    expect((await api().get('/api/v1/articles/00000000-0000-4000-8000-000000000000/comments')).status).toBe(404);
  });
});

describe('listing', () => {
  let list: Array<{ id: string; title: string; status: string; author_id: number | null }>;

  beforeAll(async () => {
    for (const [title, status, author] of [
      ['List alpha', 'published', authors.ada],
      ['List beta', 'draft', authors.bruno],
      ['List gamma', 'archived', authors.ada],
    ] as const) {
      await create({ title, status, author_id: author });
    }
    list = (await api().get('/api/v1/articles?limit=100')).body.data;
  });

  it('pages with page, limit and per_page, newest first by default', async () => {
    const all = await api().get('/api/v1/articles?limit=100');
    const total = all.body.meta.total as number;
    const response = await api().get('/api/v1/articles?page=2&per_page=3');
    expect(response.status).toBe(200);
    expect(response.body.meta).toEqual({ page: 2, limit: 3, total, pages: Math.ceil(total / 3) });
    expect(response.body.data.map((a: { id: string }) => a.id)).toEqual(list.slice(3, 6).map((a) => a.id));
    const first = await api().get('/api/v1/articles');
    expect(first.body.meta.limit).toBe(20);
  });

  it('filters by status, author_id and created_after', async () => {
    const drafts = await api().get('/api/v1/articles?status=draft&limit=100');
    expect(drafts.body.data.every((a: { status: string }) => a.status === 'draft')).toBe(true);
    expect(drafts.body.data.map((a: { title: string }) => a.title)).toContain('List beta');
    const byBruno = await api().get(`/api/v1/articles?author_id=${authors.bruno}&limit=100`);
    expect(byBruno.body.data.every((a: { author_id: number }) => a.author_id === authors.bruno)).toBe(true);
    const future = await api().get('/api/v1/articles?created_after=2999-01-01');
    expect(future.body).toEqual({ data: [], meta: { page: 1, limit: 20, total: 0, pages: 0 } });
  });

  it('sorts by an allowed field in either order', async () => {
    const asc = await api().get('/api/v1/articles?sort=title&order=asc&limit=100');
    const titles = asc.body.data.map((a: { title: string }) => a.title);
    expect(titles).toEqual([...titles].sort((a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)));
  });

  it('refuses bad list parameters with 400 naming them', async () => {
    const cases: Array<[string, string]> = [
      ['limit=0', 'limit'],
      ['limit=101', 'limit'],
      ['per_page=500', 'per_page'],
      ['page=0', 'page'],
      ['status=live', 'status'],
      ['sort=body', 'sort'],
      ['order=sideways', 'order'],
      ['author_id=abc', 'author_id'],
      ['created_after=yesterday', 'created_after'],
      ['include=author,editor', 'include'],
      ['limit=10&per_page=20', 'per_page'],
    ];
    for (const [query, field] of cases) {
      const response = await api().get(`/api/v1/articles?${query}`);
      expect({ query, status: response.status }).toEqual({ query, status: 400 });
      expect(response.body.error.details).toEqual(expect.arrayContaining([expect.objectContaining({ field })]));
    }
    const unknownInclude = await api().get('/api/v1/articles?include=editor');
    expect(unknownInclude.body.error.message).toContain('"editor"');
  });
});

describe('keyset paging', () => {
  const KEYSET_COUNT = 250;
  let ids: string[];
  let writer: number;

  beforeAll(async () => {
    const token = await fullAccessToken(app);
    writer = (
      await app
        .request()
        .post('/api/authors')
        .set('Authorization', `Bearer ${token}`)
        .send({ data: { name: 'Keyset writer' } })
    ).body.data.id;
    const created: string[] = [];
    for (let i = 0; i < KEYSET_COUNT; i += 1)
      created.push((await create({ title: `Keyset ${String(i).padStart(3, '0')}`, status: 'published', author_id: writer })).id);
    // Equal createdAt values in groups of 25: ties that only the id can order.
    const knex = app.strapi.db.connection;
    const table = app.strapi.db.metadata.get('api::article.article').tableName;
    for (let group = 0; group < KEYSET_COUNT / 25; group += 1) {
      await knex(table)
        .whereIn('uuid', created.slice(group * 25, group * 25 + 25))
        .update({ created_at: new Date(Date.UTC(2020, 0, 1 + group)) });
    }
    ids = created;
  });

  const walk = async (sort: string, order: string, between?: (page: number) => Promise<void>) => {
    const seen: string[] = [];
    const base = `/api/v1/articles?author_id=${writer}&status=published&limit=20&sort=${sort}&order=${order}`;
    let response = await api().get(base);
    seen.push(...response.body.data.map((a: { id: string }) => a.id));
    let after = response.body.data.at(-1)?.id;
    for (let page = 1; after; page += 1) {
      await between?.(page);
      response = await api().get(`${base}&after_id=${after}`);
      expect(response.status).toBe(200);
      expect(response.body.meta).toEqual({
        limit: 20,
        next_after_id: response.body.meta.has_more ? response.body.data.at(-1).id : null,
        has_more: expect.any(Boolean),
      });
      seen.push(...response.body.data.map((a: { id: string }) => a.id));
      after = response.body.meta.has_more ? response.body.meta.next_after_id : undefined;
    }
    return seen;
  };

  it('walks every article exactly once with limit=20, despite equal createdAt values', async () => {
    for (const order of ['desc', 'asc']) {
      const seen = await walk('createdAt', order);
      expect(seen).toHaveLength(KEYSET_COUNT);
      expect(new Set(seen)).toEqual(new Set(ids));
    }
  });

  it('gives the same sequence as offset paging', async () => {
    const keyset = await walk('createdAt', 'desc');
    const offset: string[] = [];
    for (let page = 1; page <= Math.ceil(KEYSET_COUNT / 20); page += 1) {
      const response = await api().get(
        `/api/v1/articles?author_id=${writer}&status=published&limit=20&sort=createdAt&order=desc&page=${page}`
      );
      offset.push(...response.body.data.map((a: { id: string }) => a.id));
    }
    expect(keyset).toEqual(offset);
  });

  it('sees each article exactly once even when rows are inserted between pages', async () => {
    const inserted: string[] = [];
    const seen = await walk('createdAt', 'desc', async () => {
      // New articles are newer than everything: in descending order they belong before the
      // pages already read, so a keyset walk must not see them shift the rest.
      inserted.push((await create({ title: `Late ${inserted.length}`, status: 'published', author_id: writer })).id);
    });
    const original = seen.filter((id) => !inserted.includes(id));
    expect(original).toHaveLength(KEYSET_COUNT);
    expect(new Set(original)).toEqual(new Set(ids));
    for (const id of inserted) await api().delete(`/api/v1/articles/${id}`).expect(204);
  });

  it('walks by title too, and refuses an after_id that names no article', async () => {
    const seen = await walk('title', 'asc');
    expect(new Set(seen)).toEqual(new Set(ids));
    const response = await api().get('/api/v1/articles?after_id=00000000-0000-4000-8000-000000000000');
    expect(response.status).toBe(400);
    expect(response.body.error.details).toEqual([{ field: 'after_id', message: 'does not name an article' }]);
    expect((await api().get(`/api/v1/articles?after_id=${ids[0]}&page=2`)).status).toBe(400);
  });
});
