import { startApp, type TestApp } from '../../helpers/app';
import { fullAccessToken } from '../../helpers/users';

/**
 * GET /api/search (docs/search-feed-cors.md#search): public, the 2-character rule, default and
 * explicit collections, case-insensitive containment on any searched field, at most 5 per
 * collection, and nothing a visitor could not see in the content API.
 */
let app: TestApp;
let token: string;
const ids: Record<string, number> = {};

beforeAll(async () => {
  app = await startApp();
  token = await fullAccessToken(app);
  const create = async (plural: string, data: Record<string, unknown>, query = '') => {
    const response = await app.request().post(`/api/${plural}${query}`).set('Authorization', `Bearer ${token}`).send({ data });
    if (response.status !== 201) throw new Error(`create ${plural}: ${response.status} ${JSON.stringify(response.body)}`);
    return response.body.data as { documentId: string; id: number };
  };
  for (const [key, article] of Object.entries(ARTICLES)) ids[key] = (await create('articles', article)).id;
  for (const [key, product] of Object.entries(PRODUCTS)) ids[key] = (await create('products', product)).id;
  ids.about = (await create('pages', { title: 'About the Teapot company', slug: 'about' }, '?status=published')).id;
  await create('pages', { title: 'Teapot careers', slug: 'careers' }, '?status=draft');
  // A published page whose draft was rewritten since: only the published title is searched.
  const pricing = await create('pages', { title: 'Pricing', slug: 'pricing' }, '?status=published');
  const rewrite = await app
    .request()
    .put(`/api/pages/${pricing.documentId}?status=draft`)
    .set('Authorization', `Bearer ${token}`)
    .send({ data: { title: 'Pricing rewritten in secret' } });
  if (rewrite.status !== 200) throw new Error(`page draft update: ${rewrite.status}`);
  const published = await app.request().get(`/api/pages/${pricing.documentId}`);
  ids.pricing = published.body.data.id;
  // Seven published articles about kettles: more than a collection's share.
  for (let i = 1; i <= 7; i += 1)
    ids[`kettle${i}`] = (await create('articles', { title: `Kettle review ${i}`, slug: `kettle-${i}`, status: 'published' })).id;
});

afterAll(async () => {
  await app?.close();
});

const ARTICLES = {
  brewing: { title: 'Brewing green TEA at home', slug: 'brewing', status: 'published', excerpt: 'Water at 80 degrees' },
  ceremony: { title: 'The ceremony', slug: 'ceremony', status: 'published', excerpt: 'A short history of matcha tea' },
  draft: { title: 'Tea secrets (draft)', slug: 'tea-draft', status: 'draft', excerpt: 'Unpublished tea notes' },
  archived: { title: 'Old tea prices', slug: 'tea-archived', status: 'archived', excerpt: 'Archived' },
  percent: { title: 'Save 100% on shipping_costs', slug: 'percent', status: 'published', excerpt: null },
};

const PRODUCTS = {
  teapot: { name: 'Cast iron teapot', slug: 'teapot', price: 45, stock: 3, published: true, deleted: false, description: 'Keeps tea hot' },
  cups: { name: 'Cups', slug: 'cups', price: 12, stock: 3, published: true, deleted: false, description: 'Six cups for TEA or coffee' },
  prototype: { name: 'Prototype tea robot', slug: 'robot', price: 999, stock: 1, published: false, deleted: false, description: null },
  gone: { name: 'Discontinued tea tin', slug: 'tin', price: 5, stock: 0, published: true, deleted: true, description: null },
};

const search = (query: string) => app.request().get(`/api/search${query}`);

describe('the 2-character rule', () => {
  it('answers { data: [] } without q, or with q shorter than 2 characters once trimmed', async () => {
    for (const query of ['', '?q=', '?q=t', '?q=%20t%20%20', '?q=%20%20%20', '?collections=articles']) {
      const response = await search(query);
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ data: [] });
    }
  });

  it('searches from 2 characters', async () => {
    const response = await search('?q=ea&collections=products');
    expect(response.body.data.map((item: { name: string }) => item.name)).toEqual(['Cast iron teapot', 'Cups']);
  });
});

describe('collections', () => {
  it('searches articles and products by default, each item with its id, searched fields and _collection', async () => {
    const response = await search('?q=tea');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      data: [
        { id: ids.brewing, title: 'Brewing green TEA at home', excerpt: 'Water at 80 degrees', _collection: 'articles' },
        { id: ids.ceremony, title: 'The ceremony', excerpt: 'A short history of matcha tea', _collection: 'articles' },
        { id: ids.teapot, name: 'Cast iron teapot', description: 'Keeps tea hot', _collection: 'products' },
        { id: ids.cups, name: 'Cups', description: 'Six cups for TEA or coffee', _collection: 'products' },
      ],
    });
  });

  it('searches the collections named, in the order named, and ignores unknown ones', async () => {
    const response = await search('?q=TEAPOT&collections=pages,unknown,products,pages');
    expect(response.body).toEqual({
      data: [
        { id: ids.about, title: 'About the Teapot company', _collection: 'pages' },
        { id: ids.teapot, name: 'Cast iron teapot', description: 'Keeps tea hot', _collection: 'products' },
      ],
    });
    expect((await search('?q=tea&collections=unknown')).body).toEqual({ data: [] });
    expect((await search('?q=teapot&collections=%20pages%20,')).body.data).toEqual([
      { id: ids.about, title: 'About the Teapot company', _collection: 'pages' },
    ]);
  });

  it('takes the collections parameter repeated too', async () => {
    const response = await search('?q=tea&collections=pages&collections=products');
    expect(response.body.data.map((item: { _collection: string }) => item._collection)).toEqual(['pages', 'products', 'products']);
  });
});

describe('matching', () => {
  it('is case-insensitive containment on any searched field', async () => {
    const byExcerpt = await search('?q=MATCHA&collections=articles');
    expect(byExcerpt.body.data).toEqual([
      { id: ids.ceremony, title: 'The ceremony', excerpt: 'A short history of matcha tea', _collection: 'articles' },
    ]);
    const byDescription = await search('?q=Coffee&collections=products');
    expect(byDescription.body.data.map((item: { id: number }) => item.id)).toEqual([ids.cups]);
  });

  it('takes % and _ literally', async () => {
    expect((await search('?q=100%25&collections=articles')).body.data.map((item: { id: number }) => item.id)).toEqual([ids.percent]);
    expect((await search('?q=g_c&collections=articles')).body.data.map((item: { id: number }) => item.id)).toEqual([ids.percent]);
    expect((await search('?q=%25%25&collections=articles')).body).toEqual({ data: [] });
    expect((await search('?q=a_e&collections=articles')).body).toEqual({ data: [] });
  });

  it('returns at most 5 items per collection, the first by id', async () => {
    const response = await search('?q=kettle&collections=articles');
    expect(response.body.data.map((item: { id: number }) => item.id)).toEqual([1, 2, 3, 4, 5].map((i) => ids[`kettle${i}`]));
  });
});

describe('published entries only', () => {
  it('never returns draft or archived articles, unpublished or deleted products, or drafts of pages', async () => {
    const everything = await search('?q=tea&collections=articles,products,pages');
    const returned = everything.body.data.map((item: { id: number; _collection: string }) => `${item._collection}:${item.id}`);
    for (const hidden of [`articles:${ids.draft}`, `articles:${ids.archived}`, `products:${ids.prototype}`, `products:${ids.gone}`]) {
      expect(returned).not.toContain(hidden);
    }
    expect((await search('?q=careers&collections=pages')).body).toEqual({ data: [] });
    expect((await search('?q=rewritten&collections=pages')).body).toEqual({ data: [] });
    expect((await search('?q=pricing&collections=pages')).body).toEqual({
      data: [{ id: ids.pricing, title: 'Pricing', _collection: 'pages' }],
    });
  });
});

describe('bad queries', () => {
  it('400 for q given twice or longer than 200 characters', async () => {
    const twice = await search('?q=tea&q=pot');
    expect(twice.status).toBe(400);
    expect(twice.body).toEqual({ errors: [{ message: 'q must be given once, as text' }] });
    const long = await search(`?q=${'a'.repeat(201)}`);
    expect(long.status).toBe(400);
    expect(long.body).toEqual({ errors: [{ message: 'q must be at most 200 characters' }] });
    expect((await search(`?q=${'a'.repeat(200)}`)).status).toBe(200);
  });
});
