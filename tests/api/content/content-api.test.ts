import { startApp, type TestApp } from '../../helpers/app';
import { adminSession, fullAccessToken, makeAdministrator, registerUser } from '../../helpers/users';

/**
 * Strapi's own REST API for the host's content types (docs/content-api.md): the query
 * convention works, and nothing unpublished reaches the Public role.
 */
let app: TestApp;
let token: string;
const ids: Record<string, string> = {};

beforeAll(async () => {
  app = await startApp();
  token = await fullAccessToken(app);
  const create = async (plural: string, data: Record<string, unknown>, query = '') => {
    const response = await app.request().post(`/api/${plural}${query}`).set('Authorization', `Bearer ${token}`).send({ data });
    if (response.status !== 201) throw new Error(`create ${plural}: ${response.status} ${JSON.stringify(response.body)}`);
    return response.body.data as { documentId: string; id: number };
  };
  ids.ada = (await create('authors', { name: 'Ada Okafor', email: 'ada@example.test' })).documentId;
  ids.bruno = (await create('authors', { name: 'Bruno Lindqvist' })).documentId;
  for (const [key, article] of Object.entries(ARTICLES)) {
    ids[key] = (await create('articles', { ...article.data, author: ids[article.author] })).documentId;
  }
  await create('comments', { body: 'First!', author_name: 'Dana', article: ids.alpha });
  await create('comments', { body: 'Second', author_name: 'Eli', article: ids.alpha });
  for (const [key, product] of Object.entries(PRODUCTS)) ids[key] = (await create('products', product)).documentId;
  ids.about = (await create('pages', { title: 'About', slug: 'about', body: 'Hello' }, '?status=published')).documentId;
  // Strapi's REST API publishes on create unless asked for a draft.
  ids.careers = (await create('pages', { title: 'Careers', slug: 'careers', body: 'Soon' }, '?status=draft')).documentId;
});

afterAll(async () => {
  await app?.close();
});

const ARTICLES = {
  alpha: { author: 'ada', data: { title: 'Alpha launch notes', slug: 'alpha-launch', status: 'published', excerpt: 'The first one' } },
  beta: { author: 'ada', data: { title: 'Beta pricing', slug: 'beta-pricing', status: 'published', excerpt: null } },
  gamma: { author: 'bruno', data: { title: 'GAMMA rays explained', slug: 'gamma-rays', status: 'published', excerpt: 'Physics' } },
  secret: { author: 'bruno', data: { title: 'Alpha secret roadmap', slug: 'secret-roadmap', status: 'draft', excerpt: 'Not yet' } },
  old: { author: 'ada', data: { title: 'Alpha old pricing', slug: 'old-pricing', status: 'archived', excerpt: 'Gone' } },
};

const PRODUCTS = {
  mug: { name: 'Mug', slug: 'mug', price: 12.5, stock: 10, menuindex: 2, published: true, deleted: false },
  hat: { name: 'Hat', slug: 'hat', price: 20, stock: 5, menuindex: 1, published: true, deleted: false },
  prototype: { name: 'Prototype', slug: 'prototype', price: 99, stock: 1, menuindex: 3, published: false, deleted: false },
  gone: { name: 'Gone shirt', slug: 'gone-shirt', price: 15, stock: 0, menuindex: 4, published: true, deleted: true },
};

const titles = (body: { data: Array<{ title: string }> }) => body.data.map((item) => item.title).sort();

describe('articles for the Public role', () => {
  it('lists only published articles', async () => {
    const response = await app.request().get('/api/articles');
    expect(response.status).toBe(200);
    expect(titles(response.body)).toEqual(['Alpha launch notes', 'Beta pricing', 'GAMMA rays explained']);
    expect(response.body.meta.pagination).toEqual({ page: 1, pageSize: 25, pageCount: 1, total: 3 });
  });

  it('cannot filter its way to drafts or archived articles', async () => {
    for (const status of ['draft', 'archived']) {
      const response = await app
        .request()
        .get('/api/articles')
        .query({ filters: { status: { $eq: status } } });
      expect(response.status).toBe(200);
      expect(response.body.data).toEqual([]);
    }
    const either = await app.request().get('/api/articles?filters[$or][0][status][$eq]=draft&filters[$or][1][status][$eq]=archived');
    expect(either.status).toBe(200);
    expect(either.body.data).toEqual([]);
  });

  it('answers 404 for one draft or archived article and 200 for a published one', async () => {
    expect((await app.request().get(`/api/articles/${ids.secret}`)).status).toBe(404);
    expect((await app.request().get(`/api/articles/${ids.old}`)).status).toBe(404);
    const published = await app.request().get(`/api/articles/${ids.alpha}`);
    expect(published.status).toBe(200);
    expect(published.body.data).toMatchObject({ documentId: ids.alpha, title: 'Alpha launch notes', status: 'published' });
  });

  it('gives every article a UUID that an update cannot change', async () => {
    const before = (await app.request().get(`/api/articles/${ids.alpha}`)).body.data.uuid as string;
    expect(before).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const update = await app
      .request()
      .put(`/api/articles/${ids.alpha}`)
      .set('Authorization', `Bearer ${token}`)
      .send({ data: { uuid: '00000000-0000-4000-8000-000000000000', excerpt: 'The first one' } });
    expect(update.status).toBe(200);
    expect((await app.request().get(`/api/articles/${ids.alpha}`)).body.data.uuid).toBe(before);
  });
});

describe('the query convention', () => {
  it('filters with $eq', async () => {
    const response = await app
      .request()
      .get('/api/articles')
      .query({ filters: { slug: { $eq: 'beta-pricing' } } });
    expect(titles(response.body)).toEqual(['Beta pricing']);
  });

  it('filters with $containsi, case-insensitively', async () => {
    const response = await app
      .request()
      .get('/api/articles')
      .query({ filters: { title: { $containsi: 'gamma' } } });
    expect(titles(response.body)).toEqual(['GAMMA rays explained']);
  });

  it('filters with $in', async () => {
    const response = await app
      .request()
      .get('/api/articles')
      .query({ filters: { slug: { $in: ['alpha-launch', 'gamma-rays', 'secret-roadmap'] } } });
    expect(titles(response.body)).toEqual(['Alpha launch notes', 'GAMMA rays explained']);
  });

  it('filters with $null and $notNull', async () => {
    const empty = await app
      .request()
      .get('/api/articles')
      .query({ filters: { excerpt: { $null: true } } });
    expect(titles(empty.body)).toEqual(['Beta pricing']);
    const filled = await app
      .request()
      .get('/api/articles')
      .query({ filters: { excerpt: { $notNull: true } } });
    expect(titles(filled.body)).toEqual(['Alpha launch notes', 'GAMMA rays explained']);
  });

  it('filters with $startsWith (and $startsWithi)', async () => {
    const response = await app
      .request()
      .get('/api/articles')
      .query({ filters: { title: { $startsWith: 'Alpha' } } });
    expect(titles(response.body)).toEqual(['Alpha launch notes']);
    const insensitive = await app
      .request()
      .get('/api/articles')
      .query({ filters: { title: { $startsWithi: 'gam' } } });
    expect(titles(insensitive.body)).toEqual(['GAMMA rays explained']);
  });

  it('filters on a relation', async () => {
    const response = await app
      .request()
      .get('/api/articles')
      .query({ filters: { author: { name: { $eq: 'Bruno Lindqvist' } } } });
    expect(titles(response.body)).toEqual(['GAMMA rays explained']);
  });

  it('populates relations', async () => {
    const response = await app
      .request()
      .get('/api/articles')
      .query({ populate: 'author,comments', filters: { slug: 'alpha-launch' } });
    expect(response.status).toBe(200);
    const [article] = response.body.data;
    expect(article.author).toMatchObject({ name: 'Ada Okafor' });
    expect(article.author.email).toBeUndefined(); // private attribute
    expect(article.comments.map((comment: { body: string }) => comment.body).sort()).toEqual(['First!', 'Second']);
  });

  it('sorts', async () => {
    const ascending = await app.request().get('/api/articles').query({ sort: 'title:asc' });
    expect(ascending.body.data.map((a: { title: string }) => a.title)).toEqual([
      'Alpha launch notes',
      'Beta pricing',
      'GAMMA rays explained',
    ]);
    const descending = await app.request().get('/api/articles').query({ 'sort[0]': 'title:desc' });
    expect(descending.body.data.map((a: { title: string }) => a.title)).toEqual([
      'GAMMA rays explained',
      'Beta pricing',
      'Alpha launch notes',
    ]);
  });

  it('paginates', async () => {
    const response = await app
      .request()
      .get('/api/articles')
      .query({ sort: 'title:asc', 'pagination[page]': 2, 'pagination[pageSize]': 1 });
    expect(response.body.data.map((a: { title: string }) => a.title)).toEqual(['Beta pricing']);
    expect(response.body.meta.pagination).toEqual({ page: 2, pageSize: 1, pageCount: 3, total: 3 });
  });

  it('selects fields', async () => {
    const response = await app
      .request()
      .get('/api/articles')
      .query({ 'fields[0]': 'title', filters: { slug: 'beta-pricing' } });
    expect(Object.keys(response.body.data[0]).sort()).toEqual(['documentId', 'id', 'title']);
  });

  it('answers in the v4 format when asked with Strapi-Response-Format: v4', async () => {
    const response = await app
      .request()
      .get('/api/articles')
      .set('Strapi-Response-Format', 'v4')
      .query({ sort: 'title:asc', 'fields[0]': 'title' });
    expect(response.status).toBe(200);
    expect(response.body.data[0]).toEqual({ id: expect.any(Number), documentId: ids.alpha, attributes: { title: 'Alpha launch notes' } });
    expect(response.body.meta.pagination).toMatchObject({ total: 3 });
    const one = await app.request().get(`/api/articles/${ids.beta}`).set('Strapi-Response-Format', 'v4');
    expect(one.body.data.attributes.title).toBe('Beta pricing');
  });

  it('refuses an unknown filter field with 400', async () => {
    const response = await app
      .request()
      .get('/api/articles')
      .query({ filters: { nope: { $eq: 1 } } });
    expect(response.status).toBe(400);
  });
});

describe('products, pages, authors and comments for the Public role', () => {
  it('lists only published, non-deleted products', async () => {
    const response = await app.request().get('/api/products').query({ sort: 'menuindex:asc' });
    expect(response.status).toBe(200);
    expect(response.body.data.map((p: { name: string }) => p.name)).toEqual(['Hat', 'Mug']);
    expect((await app.request().get(`/api/products/${ids.prototype}`)).status).toBe(404);
    expect((await app.request().get(`/api/products/${ids.gone}`)).status).toBe(404);
    expect((await app.request().get(`/api/products/${ids.mug}`)).body.data).toMatchObject({ name: 'Mug', price: 12.5, stock: 10 });
  });

  it('lists only published pages, and refuses drafts when they are asked for', async () => {
    const response = await app.request().get('/api/pages');
    expect(titles(response.body)).toEqual(['About']);
    expect((await app.request().get(`/api/pages/${ids.careers}`)).status).toBe(404);
    for (const path of ['/api/pages', `/api/pages/${ids.careers}`]) {
      const drafts = await app.request().get(path).query({ status: 'draft' });
      expect({ path, status: drafts.status, code: drafts.body.error?.code }).toEqual({ path, status: 403, code: 'drafts_not_allowed' });
    }
  });

  it('lists authors and comments', async () => {
    const authors = await app.request().get('/api/authors').query({ sort: 'name:asc' });
    expect(authors.body.data.map((a: { name: string }) => a.name)).toEqual(['Ada Okafor', 'Bruno Lindqvist']);
    const comments = await app.request().get('/api/comments');
    expect(comments.body.data).toHaveLength(2);
  });

  it('does not let the Public role write', async () => {
    const response = await app
      .request()
      .post('/api/articles')
      .send({ data: { title: 'Spam', status: 'published' } });
    expect(response.status).toBe(403);
    expect((await app.request().get('/api/articles')).body.data).toHaveLength(3);
  });
});

describe('editors in the admin panel', () => {
  it('can save an article in any of its statuses, archived included', async () => {
    const session = await adminSession(app);
    const base = '/content-manager/collection-types/api::article.article';
    const stored = async (documentId: string) =>
      app.strapi.db.query('api::article.article').findOne({ where: { documentId }, select: ['title', 'status'] });
    const created = await app
      .request()
      .post(base)
      .set('Authorization', `Bearer ${session.token}`)
      .send({ title: 'Editor draft', slug: 'editor-draft', status: 'archived' });
    expect(created.status).toBe(201);
    const { documentId } = created.body.data;
    expect(await stored(documentId)).toEqual({ title: 'Editor draft', status: 'archived' });
    const edited = await app
      .request()
      .put(`${base}/${documentId}`)
      .set('Authorization', `Bearer ${session.token}`)
      .send({ title: 'Editor draft, edited', status: 'archived' });
    expect(edited.status).toBe(200);
    expect(await stored(documentId)).toEqual({ title: 'Editor draft, edited', status: 'archived' });
    const published = await app
      .request()
      .put(`${base}/${documentId}`)
      .set('Authorization', `Bearer ${session.token}`)
      .send({ status: 'published' });
    expect(published.status).toBe(200);
    expect(await stored(documentId)).toEqual({ title: 'Editor draft, edited', status: 'published' });
    expect((await app.request().get(`/api/articles/${documentId}`)).status).toBe(200);
    await app.request().delete(`${base}/${documentId}`).set('Authorization', `Bearer ${session.token}`).expect(200);
  });
});

describe('who sees everything', () => {
  it('an admin-panel API token sees drafts and archived articles', async () => {
    const response = await app.request().get('/api/articles').set('Authorization', `Bearer ${token}`);
    expect(response.body.data).toHaveLength(5);
    const draftPages = await app.request().get('/api/pages').set('Authorization', `Bearer ${token}`).query({ status: 'draft' });
    expect(titles(draftPages.body)).toEqual(['About', 'Careers']);
  });

  it('an ordinary user sees only what the Public role sees, an administrator sees everything', async () => {
    const grant = async (roleType: string) => {
      const role = await app.strapi.db.query('plugin::users-permissions.role').findOne({ where: { type: roleType } });
      await app.strapi.db
        .query('plugin::users-permissions.permission')
        .create({ data: { action: 'api::article.article.find', role: role.id } });
    };
    await grant('authenticated');
    await grant('administrator');
    const user = await registerUser(app, { plan: 'enterprise' });
    const asUser = await app.request().get('/api/articles').set('Authorization', `Bearer ${user.jwt}`);
    expect(asUser.status).toBe(200);
    expect(asUser.body.data).toHaveLength(3);

    const admin = await makeAdministrator(app, await registerUser(app));
    const asAdmin = await app.request().get('/api/articles').set('Authorization', `Bearer ${admin.jwt}`);
    expect(asAdmin.status).toBe(200);
    expect(asAdmin.body.data).toHaveLength(5);
  });
});
