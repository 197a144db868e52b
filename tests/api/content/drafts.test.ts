import { startApp, type TestApp } from '../../helpers/app';
import { createPlan, issueKey, type IssuedKey } from '../../helpers/keys';
import { adminSession, fullAccessToken, grantPlan, makeAdministrator, registerUser, type TestUser } from '../../helpers/users';

/**
 * Drafts stay private on the site's content API (docs/content-api.md#drafts). Strapi lets any
 * role that may `find` a draft & publish type read its drafts with `?status=draft` (any status but
 * `published`, in fact); the plugin answers 403 `drafts_not_allowed` to everyone but staff: the
 * Public role, a consumer's API key, a consumer's JWT. Staff (a Strapi API token, the plugin's
 * administrators, a role named in `CONTENT_DRAFT_READERS`) keep Strapi's behaviour. Pages are
 * the demo's draft & publish type; authors, comments and articles have none.
 */
let app: TestApp;
let token: string;
let consumer: TestUser;
let key: IssuedKey;
let writer: TestUser;
let writerKey: IssuedKey;
let administrator: TestUser;
let previewer: TestUser;
const ids: Record<string, string> = {};

const PAGES = 'api::page.page';
const REFUSED = {
  error: {
    code: 'drafts_not_allowed',
    message: "Drafts are only served to the site's staff: leave out status, or ask for status=published",
  },
};

async function grant(roleId: number, actions: string[]): Promise<void> {
  for (const action of actions) {
    await app.strapi.db.query('plugin::users-permissions.permission').create({ data: { action, role: roleId } });
  }
}

async function roleOf(type: string): Promise<{ id: number }> {
  return app.strapi.db.query('plugin::users-permissions.role').findOne({ where: { type } });
}

beforeAll(async () => {
  app = await startApp({ env: { CONTENT_DRAFT_READERS: 'preview' } });
  // The draft readers' role exists before anyone asks who is staff (the staff roles are kept for a second).
  const preview = await app.strapi.db
    .query('plugin::users-permissions.role')
    .create({ data: { name: 'Preview', type: 'preview', description: "The preview frontend's role" } });
  await grant(preview.id, [`${PAGES}.find`, `${PAGES}.findOne`]);
  await grant((await roleOf('administrator')).id, [`${PAGES}.find`, `${PAGES}.findOne`]);
  // An ordinary signed-in consumer may read everything and write pages: what they may not do is see drafts.
  await grant((await roleOf('authenticated')).id, [
    ...['api::author.author', 'api::comment.comment', 'api::article.article'].flatMap((uid) => [`${uid}.find`, `${uid}.findOne`]),
    ...['find', 'findOne', 'create', 'update', 'delete'].map((action) => `${PAGES}.${action}`),
    'api::author.author.create',
  ]);

  token = await fullAccessToken(app);
  const auth = { Authorization: `Bearer ${token}` };
  const about = await app
    .request()
    .post('/api/pages')
    .set(auth)
    .send({ data: { title: 'About', slug: 'about', body: 'Hello' } });
  expect(about.status).toBe(201);
  ids.about = about.body.data.documentId;
  // The published page's next version, not yet published.
  const edited = await app
    .request()
    .put(`/api/pages/${ids.about}?status=draft`)
    .set(auth)
    .send({ data: { title: 'About (next version)' } });
  expect(edited.status).toBe(200);
  // A page that has never been published, made as an editor makes one: a draft in the Content Manager.
  const careers = await app
    .request()
    .post(`/content-manager/collection-types/${PAGES}`)
    .set('Authorization', `Bearer ${(await adminSession(app)).token}`)
    .send({ title: 'Careers', slug: 'careers', body: 'Soon' });
  expect(careers.status).toBe(201);
  ids.careers = careers.body.data.documentId;

  consumer = await registerUser(app, { plan: 'pro' });
  key = await issueKey(app, consumer);
  // Writing pages is sold with a plan that reaches the content API.
  await createPlan(app, { name: 'content', requests_per_month: 1_000, requests_per_minute: 100, endpoints: ['@content'] });
  writer = await registerUser(app);
  await grantPlan(app, writer, 'content');
  writerKey = await issueKey(app, writer, { scopes: ['read', 'write'] });
  administrator = await makeAdministrator(app, await registerUser(app));
  previewer = await registerUser(app);
  await app.strapi.db.query('plugin::users-permissions.user').update({ where: { id: previewer.id }, data: { role: preview.id } });
});

afterAll(async () => {
  await app?.close();
});

type Headers = Record<string, string>;
const bearer = (credential: string): Headers => ({ Authorization: `Bearer ${credential}` });
const titles = (body: { data: Array<{ title: string }> }) => body.data.map((page) => page.title).sort();

/** Everyone but staff: the Public role (no credential), a consumer's API key on the pro plan, a consumer's JWT. */
const outsiders = (): Array<[string, Headers]> => [
  ['no credential', {}],
  ['a consumer’s API key', { 'X-API-Key': key.key }],
  ['a consumer’s JWT', bearer(consumer.jwt)],
];

describe('everyone but staff', () => {
  it('is refused drafts: status=draft, any other status, on the list and on one page', async () => {
    for (const [who, headers] of outsiders()) {
      for (const path of [
        '/api/pages?status=draft',
        '/api/pages?status=anything',
        '/api/pages?status[0]=draft',
        '/api/pages?status=draft&populate=*',
        `/api/pages/${ids.careers}?status=draft`,
        `/api/pages/${ids.about}?status=draft`,
        `/api/pages/${ids.about}?status=anything`,
      ]) {
        const response = await app.request().get(path).set(headers);
        expect({ who, path, status: response.status, body: response.body }).toEqual({ who, path, status: 403, body: REFUSED });
      }
    }
  });

  it('reads the published version without a status, or with status=published', async () => {
    for (const [who, headers] of outsiders()) {
      for (const query of ['', '?status=published']) {
        const list = await app.request().get(`/api/pages${query}`).set(headers);
        expect({ who, query, status: list.status, titles: titles(list.body) }).toEqual({ who, query, status: 200, titles: ['About'] });
        const one = await app.request().get(`/api/pages/${ids.about}${query}`).set(headers);
        expect({ who, query, title: one.body.data?.title }).toEqual({ who, query, title: 'About' });
        expect((await app.request().get(`/api/pages/${ids.careers}${query}`).set(headers)).status).toBe(404);
      }
    }
  });

  it('is refused writes of a draft (POST and PUT ?status=draft), which write nothing', async () => {
    const drafts = () => app.strapi.db.query(PAGES).count({ where: { publishedAt: null } });
    const before = await drafts();
    for (const [who, headers] of [
      ['a consumer’s API key', { 'X-API-Key': writerKey.key }],
      ['a consumer’s JWT', bearer(writer.jwt)],
    ] as Array<[string, Headers]>) {
      const created = await app
        .request()
        .post('/api/pages?status=draft')
        .set(headers)
        .send({ data: { title: `By ${who}`, slug: 'by-an-outsider' } });
      expect({ who, status: created.status, body: created.body }).toEqual({ who, status: 403, body: REFUSED });
      const updated = await app
        .request()
        .put(`/api/pages/${ids.careers}?status=draft`)
        .set(headers)
        .send({ data: { title: 'Careers, rewritten' } });
      expect({ who, status: updated.status, body: updated.body }).toEqual({ who, status: 403, body: REFUSED });
      const deleted = await app.request().delete(`/api/pages/${ids.careers}?status=draft`).set(headers);
      expect({ who, status: deleted.status, body: deleted.body }).toEqual({ who, status: 403, body: REFUSED });
    }
    expect(await drafts()).toBe(before);
    const careers = await app.strapi.documents(PAGES).findOne({ documentId: ids.careers, status: 'draft' });
    expect(careers?.title).toBe('Careers');
  });
});

describe('staff keep Strapi’s behaviour', () => {
  const staff = (): Array<[string, Headers]> => [
    ['a full-access API token', bearer(token)],
    ['an administrator’s JWT', bearer(administrator.jwt)],
    ['a draft reader’s JWT (CONTENT_DRAFT_READERS=preview)', bearer(previewer.jwt)],
  ];

  it('read drafts with status=draft, and with any status but published, as Strapi does', async () => {
    for (const [who, headers] of staff()) {
      for (const status of ['draft', 'anything']) {
        const list = await app.request().get(`/api/pages?status=${status}`).set(headers);
        expect({ who, status, answer: list.status, titles: titles(list.body) }).toEqual({
          who,
          status,
          answer: 200,
          titles: ['About (next version)', 'Careers'],
        });
      }
      const careers = await app.request().get(`/api/pages/${ids.careers}?status=draft`).set(headers);
      expect({ who, status: careers.status, title: careers.body.data?.title }).toEqual({ who, status: 200, title: 'Careers' });
      const published = await app.request().get('/api/pages').set(headers);
      expect({ who, titles: titles(published.body) }).toEqual({ who, titles: ['About'] });
    }
  });

  it('while an ordinary signed-in user of the same site is refused', async () => {
    const ordinary = await registerUser(app);
    const response = await app.request().get('/api/pages?status=draft').set(bearer(ordinary.jwt));
    expect({ status: response.status, body: response.body }).toEqual({ status: 403, body: REFUSED });
  });

  it('write drafts with status=draft', async () => {
    const created = await app
      .request()
      .post('/api/pages?status=draft')
      .set(bearer(token))
      .send({ data: { title: 'Press', slug: 'press' } });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ title: 'Press', publishedAt: null });
    const deleted = await app.request().delete(`/api/pages/${created.body.data.documentId}`).set(bearer(token));
    expect(deleted.status).toBe(204);
  });
});

describe('types without draft & publish', () => {
  beforeAll(async () => {
    const auth = bearer(token);
    const create = async (plural: string, data: Record<string, unknown>) => {
      const response = await app.request().post(`/api/${plural}`).set(auth).send({ data });
      if (response.status !== 201) throw new Error(`create ${plural}: ${response.status} ${JSON.stringify(response.body)}`);
      return response.body.data.documentId as string;
    };
    ids.ada = await create('authors', { name: 'Ada Okafor' });
    ids.live = await create('articles', { title: 'Live notes', slug: 'live', status: 'published', author: ids.ada });
    ids.draft = await create('articles', { title: 'Secret draft', slug: 'secret', status: 'draft', author: ids.ada });
    ids.onDraft = await create('comments', { body: 'On draft', author_name: 'Eli', article: ids.draft });
  });

  it('answer 200 whatever status is asked, with only published related documents', async () => {
    for (const [who, headers] of outsiders()) {
      for (const status of ['draft', 'anything']) {
        const authors = await app.request().get(`/api/authors?status=${status}&populate=articles`).set(headers);
        expect({
          who,
          status,
          answer: authors.status,
          articles: authors.body.data?.map((a: { articles: Array<{ title: string }> }) => a.articles.map((article) => article.title)),
        }).toEqual({
          who,
          status,
          answer: 200,
          articles: [['Live notes']],
        });
        const comment = await app.request().get(`/api/comments/${ids.onDraft}?status=${status}&populate=*`).set(headers);
        expect({ who, status, answer: comment.status, article: comment.body.data?.article }).toEqual({
          who,
          status,
          answer: 200,
          article: null,
        });
      }
    }
  });

  it('answer a write that populates, read as published, without waiting on the write’s own transaction', async () => {
    // Deciding who is staff reads the database inside the transaction the content changes open
    // around a write: on SQLite, beside it, that read would wait for its only connection.
    const created = await app
      .request()
      .post('/api/authors?status=draft&populate=articles')
      .set(bearer(writer.jwt))
      .send({ data: { name: 'Written by a consumer' } });
    expect({ status: created.status, articles: created.body.data?.articles?.map((article: { title: string }) => article.title) }).toEqual({
      status: 201,
      articles: [],
    });
  });
});
