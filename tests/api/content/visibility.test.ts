import { startApp, type TestApp } from '../../helpers/app';
import { fullAccessToken, registerUser } from '../../helpers/users';

/**
 * The visibility sweep (docs/content-api.md#the-sweep): whatever path a content-API
 * read takes to an article (the root, `populate` in any of its shapes and depths, `filters` on a
 * relation, the v4 response format), the Public role and ordinary users see published articles
 * only. Each test is one row of the table in docs/content-api.md.
 */
let app: TestApp;
let token: string;
const ids: Record<string, string> = {};

beforeAll(async () => {
  app = await startApp();
  token = await fullAccessToken(app);
  const create = async (plural: string, data: Record<string, unknown>) => {
    const response = await app.request().post(`/api/${plural}`).set('Authorization', `Bearer ${token}`).send({ data });
    if (response.status !== 201) throw new Error(`create ${plural}: ${response.status} ${JSON.stringify(response.body)}`);
    return response.body.data as { documentId: string };
  };
  ids.ada = (await create('authors', { name: 'Ada Okafor' })).documentId;
  ids.bruno = (await create('authors', { name: 'Bruno Lindqvist' })).documentId;
  ids.live = (await create('articles', { title: 'Live notes', slug: 'live', status: 'published', author: ids.ada })).documentId;
  ids.draft = (await create('articles', { title: 'Secret draft', slug: 'secret', status: 'draft', author: ids.ada })).documentId;
  ids.archived = (await create('articles', { title: 'Old archive', slug: 'old', status: 'archived', author: ids.ada })).documentId;
  ids.brunoDraft = (await create('articles', { title: 'Bruno draft', slug: 'bruno-draft', status: 'draft', author: ids.bruno })).documentId;
  ids.onLive = (await create('comments', { body: 'On live', author_name: 'Dana', article: ids.live })).documentId;
  ids.onDraft = (await create('comments', { body: 'On draft', author_name: 'Eli', article: ids.draft })).documentId;
  ids.mug = (await create('products', { name: 'Mug', slug: 'mug', price: 12.5, stock: 3, published: true, deleted: false })).documentId;
  ids.prototype = (
    await create('products', { name: 'Prototype', slug: 'prototype', price: 9, stock: 1, published: false, deleted: false })
  ).documentId;
  ids.gone = (await create('products', { name: 'Gone', slug: 'gone', price: 9, stock: 0, published: true, deleted: true })).documentId;
  const page = async (title: string, status: string) => {
    const response = await app
      .request()
      .post(`/api/pages?status=${status}`)
      .set('Authorization', `Bearer ${token}`)
      .send({ data: { title, slug: title.toLowerCase() } });
    if (response.status !== 201) throw new Error(`create page: ${response.status} ${JSON.stringify(response.body)}`);
    return response.body.data.documentId as string;
  };
  ids.about = await page('About', 'published');
  ids.careers = await page('Careers', 'draft');
});

afterAll(async () => {
  await app?.close();
});

type Doc = Record<string, unknown> & { title?: string };
const get = (path: string, query?: Record<string, unknown> | string) => {
  const request = app.request().get(path);
  return query === undefined ? request : request.query(query);
};
const titles = (articles: Doc[] | undefined) => (articles ?? []).map((article) => article.title).sort();

describe('authors → articles', () => {
  it('populate=* on one author shows published articles only', async () => {
    const response = await get(`/api/authors/${ids.ada}`, 'populate=*');
    expect(response.status).toBe(200);
    expect(titles(response.body.data.articles)).toEqual(['Live notes']);
  });

  it('populate=* on the list, and the list names', async () => {
    const star = await get('/api/authors', { populate: '*', sort: 'name:asc' });
    expect(star.status).toBe(200);
    expect(star.body.data.map((author: Doc) => titles(author.articles as Doc[]))).toEqual([['Live notes'], []]);
    const named = await get('/api/authors', { populate: 'articles', sort: 'name:asc' });
    expect(named.body.data.map((author: Doc) => titles(author.articles as Doc[]))).toEqual([['Live notes'], []]);
  });

  it('populate[0]=articles (the array form)', async () => {
    const response = await get(`/api/authors/${ids.ada}`, 'populate[0]=articles');
    expect(response.status).toBe(200);
    expect(titles(response.body.data.articles)).toEqual(['Live notes']);
  });

  it('populate[articles]=true (the object form)', async () => {
    const response = await get(`/api/authors/${ids.ada}`, 'populate[articles]=true');
    expect(response.status).toBe(200);
    expect(titles(response.body.data.articles)).toEqual(['Live notes']);
  });

  it('populate[articles][filters] cannot ask for drafts', async () => {
    const response = await get(`/api/authors/${ids.ada}`, 'populate[articles][filters][status][$eq]=draft');
    expect(response.status).toBe(200);
    expect(response.body.data.articles).toEqual([]);
    const byTitle = await get(`/api/authors/${ids.ada}`, { populate: { articles: { filters: { title: { $eq: 'Secret draft' } } } } });
    expect(byTitle.body.data.articles).toEqual([]);
  });

  it('populate[articles][fields] shows the published ones only', async () => {
    const response = await get(`/api/authors/${ids.ada}`, 'fields[0]=name&populate[articles][fields][0]=title');
    expect(response.status).toBe(200);
    expect(response.body.data.articles).toEqual([{ id: expect.any(Number), documentId: ids.live, title: 'Live notes' }]);
  });

  it('populate[articles][count]=true counts the published ones only', async () => {
    const response = await get(`/api/authors/${ids.ada}`, 'populate[articles][count]=true');
    expect(response.status).toBe(200);
    expect(response.body.data.articles).toEqual({ count: 1 });
  });

  it('deep populate: articles → comments → article', async () => {
    const response = await get(`/api/authors/${ids.ada}`, 'populate[articles][populate][comments][populate]=article');
    expect(response.status).toBe(200);
    const articles = response.body.data.articles as Doc[];
    expect(titles(articles)).toEqual(['Live notes']);
    expect((articles[0].comments as Doc[]).map((comment) => [comment.body, (comment.article as Doc).title])).toEqual([
      ['On live', 'Live notes'],
    ]);
  });

  it('dotted populate: articles.comments', async () => {
    const response = await get(`/api/authors/${ids.ada}`, 'populate=articles.comments');
    expect(response.status).toBe(200);
    expect(titles(response.body.data.articles)).toEqual(['Live notes']);
    expect((response.body.data.articles[0].comments as Doc[]).map((comment) => comment.body)).toEqual(['On live']);
  });

  it('Strapi-Response-Format: v4 hides the same rows', async () => {
    const response = await get(`/api/authors/${ids.ada}`, 'populate=*').set('Strapi-Response-Format', 'v4');
    expect(response.status).toBe(200);
    const articles = response.body.data.attributes.articles.data as Array<{ attributes: Doc }>;
    expect(articles.map((article) => article.attributes.title)).toEqual(['Live notes']);
  });

  it('filters on the relation cannot reveal that a draft exists', async () => {
    for (const query of [
      'filters[articles][status][$eq]=draft',
      'filters[articles][status][$eq]=archived',
      'filters[articles][title][$eq]=Secret draft',
      'filters[articles][title][$containsi]=bruno',
      `filters[articles][documentId][$eq]=${ids.draft}`,
      'filters[$or][0][articles][status][$eq]=draft&filters[$or][1][name][$eq]=Nobody',
      'filters[$and][0][articles][slug][$eq]=secret',
    ]) {
      const response = await get('/api/authors', query);
      expect({ query, status: response.status, data: response.body.data }).toEqual({ query, status: 200, data: [] });
    }
    const published = await get('/api/authors', 'filters[articles][title][$eq]=Live notes');
    expect(published.body.data.map((author: Doc) => author.name)).toEqual(['Ada Okafor']);
    const anyArticle = await get('/api/authors', 'filters[articles][id][$notNull]=true');
    expect(anyArticle.body.data.map((author: Doc) => author.name)).toEqual(['Ada Okafor']);
  });

  it('negated relation filters and sorting by a relation are refused, since hidden rows would decide them', async () => {
    for (const query of [
      'filters[$not][articles][title][$eq]=Secret draft',
      'filters[articles][$null]=true',
      'sort=articles.title:asc',
      'sort[0][articles][title]=asc',
    ]) {
      const response = await get('/api/authors', query);
      expect({ query, status: response.status, name: response.body.error?.name }).toEqual({ query, status: 400, name: 'ValidationError' });
    }
  });
});

describe('comments → article, articles → author → articles', () => {
  it('a comment on a draft keeps its article hidden', async () => {
    const response = await get('/api/comments', { populate: 'article', sort: 'body:asc' });
    expect(response.status).toBe(200);
    expect(response.body.data.map((comment: Doc) => [comment.body, (comment.article as Doc | null)?.title ?? null])).toEqual([
      ['On draft', null],
      ['On live', 'Live notes'],
    ]);
    const one = await get(`/api/comments/${ids.onDraft}`, 'populate=*');
    expect(one.body.data.article).toBeNull();
  });

  it('comments → article → author → articles, three levels down', async () => {
    const response = await get(`/api/comments/${ids.onLive}`, 'populate[article][populate][author][populate]=articles');
    expect(response.status).toBe(200);
    expect(titles(response.body.data.article.author.articles)).toEqual(['Live notes']);
  });

  it("filters on a comment's article cannot find the draft", async () => {
    const response = await get('/api/comments', 'filters[article][status][$eq]=draft');
    expect(response.body.data).toEqual([]);
    const nested = await get('/api/comments', 'filters[article][author][articles][title][$eq]=Secret draft');
    expect(nested.body.data).toEqual([]);
  });

  it("an article's author shows the author's published articles only", async () => {
    const response = await get(`/api/articles/${ids.live}`, 'populate[author][populate]=articles');
    expect(response.status).toBe(200);
    expect(titles(response.body.data.author.articles)).toEqual(['Live notes']);
  });

  it('a draft is not reached as the root either, whatever it populates', async () => {
    expect((await get(`/api/articles/${ids.draft}`, 'populate=*')).status).toBe(404);
    expect((await get('/api/articles', 'filters[status][$eq]=draft&populate=*')).body.data).toEqual([]);
  });
});

describe('products and pages', () => {
  it('products: populate=* and filters keep unpublished and deleted products out', async () => {
    const star = await get('/api/products', { populate: '*', sort: 'name:asc' });
    expect(star.status).toBe(200);
    expect(star.body.data.map((product: Doc) => [product.name, product.image])).toEqual([['Mug', null]]);
    for (const query of [
      'filters[published][$eq]=false',
      'filters[deleted][$eq]=true',
      'filters[$or][0][published][$eq]=false&filters[$or][1][deleted][$eq]=true',
    ]) {
      expect((await get('/api/products', query)).body.data).toEqual([]);
    }
    expect((await get(`/api/products/${ids.prototype}`, 'populate=*')).status).toBe(404);
    expect((await get(`/api/products/${ids.gone}`)).status).toBe(404);
  });

  it('pages: the published version only, whatever filter or populate is asked; drafts asked for are refused', async () => {
    for (const query of ['populate=*', 'filters[publishedAt][$null]=true', 'filters[title][$eq]=Careers']) {
      const response = await get('/api/pages', query);
      expect({ query, titles: titles(response.body.data) }).toEqual({
        query,
        titles: query.includes('Careers') || query.includes('$null') ? [] : ['About'],
      });
    }
    expect((await get(`/api/pages/${ids.careers}`)).status).toBe(404);
    // The api-suite plugin refuses drafts to everyone but staff (tests/api/content/drafts.test.ts).
    for (const query of ['status=draft', 'filters[publishedAt][$null]=true&status=draft', 'status=draft&filters[title][$eq]=Careers']) {
      const response = await get('/api/pages', query);
      expect({ query, status: response.status, code: response.body.error?.code }).toEqual({
        query,
        status: 403,
        code: 'drafts_not_allowed',
      });
    }
    expect((await get(`/api/pages/${ids.careers}`, 'status=draft')).status).toBe(403);
  });
});

describe('who the rule applies to', () => {
  it('an ordinary signed-in user sees what the Public role sees', async () => {
    const user = await registerUser(app, { plan: 'enterprise' });
    const role = await app.strapi.db.query('plugin::users-permissions.role').findOne({ where: { type: 'authenticated' } });
    // Strapi's own permissions first: a role that may not read articles gets no articles populated at all.
    for (const action of ['api::author.author.findOne', 'api::article.article.find']) {
      await app.strapi.db.query('plugin::users-permissions.permission').create({ data: { action, role: role.id } });
    }
    const response = await get(`/api/authors/${ids.ada}`, 'populate=*').set('Authorization', `Bearer ${user.jwt}`);
    expect(response.status).toBe(200);
    expect(titles(response.body.data.articles)).toEqual(['Live notes']);
  });

  it('an admin-panel API token sees every article through the relation', async () => {
    const response = await get(`/api/authors/${ids.ada}`, 'populate=*').set('Authorization', `Bearer ${token}`);
    expect(titles(response.body.data.articles)).toEqual(['Live notes', 'Old archive', 'Secret draft']);
    const filtered = await get('/api/authors', 'filters[articles][status][$eq]=draft&sort=name:asc').set(
      'Authorization',
      `Bearer ${token}`
    );
    expect(filtered.body.data.map((author: Doc) => author.name)).toEqual(['Ada Okafor', 'Bruno Lindqvist']);
  });
});
