import { startApp, type TestApp } from '../../helpers/app';
import { fullAccessToken } from '../../helpers/users';

/**
 * The product feed on GET /api/products and CORS for the frontend's origin (docs/search-feed-cors.md);
 * the content-change webhook is the platform's, in tests/api/platform/content-webhook.test.ts.
 */

interface Created {
  id: number;
  documentId: string;
}

async function createContent(app: TestApp, token: string, plural: string, data: Record<string, unknown>, query = ''): Promise<Created> {
  const response = await app.request().post(`/api/${plural}${query}`).set('Authorization', `Bearer ${token}`).send({ data });
  if (response.status !== 201) throw new Error(`create ${plural}: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body.data as Created;
}

/** A 1×1 PNG, enough for the upload plugin to accept it as an image. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

const commaList = (value: string | undefined): string[] =>
  (value ?? '')
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);

describe('the product feed and CORS', () => {
  let app: TestApp;
  let token: string;
  const ids: Record<string, number> = {};
  let imageUrl: string;
  const BULK = 105;

  beforeAll(async () => {
    // The shop's origin comes first: product links use it; CORS allows both.
    app = await startApp({ env: { FRONTEND_ORIGIN: 'https://shop.example,http://localhost:3000' } });
    token = await fullAccessToken(app);

    const upload = await app
      .request()
      .post('/api/upload')
      .set('Authorization', `Bearer ${token}`)
      .attach('files', PNG, { filename: 'mug.png', contentType: 'image/png' });
    if (upload.status !== 201) throw new Error(`upload: ${upload.status} ${JSON.stringify(upload.body)}`);
    const [file] = upload.body as Array<{ id: number; url: string }>;
    imageUrl = file.url;

    const named: Record<string, Record<string, unknown>> = {
      hat: { name: 'Hat', slug: 'hat', price: 20, stock: 5, menuindex: 1, published: true, deleted: false },
      mug: {
        name: 'Mug',
        slug: 'mug',
        description: 'Holds coffee',
        price: 12.5,
        stock: 10,
        menuindex: 2,
        published: true,
        deleted: false,
        image: file.id,
      },
      // Same menuindex as the mug, created later: the id decides.
      travel: { name: 'Travel MUG', slug: 'travel-mug', price: 18, stock: 3, menuindex: 2, published: true, deleted: false },
      prototype: { name: 'Prototype mug', slug: 'prototype', price: 99, stock: 1, menuindex: 0, published: false, deleted: false },
      gone: { name: 'Gone mug', slug: 'gone-mug', price: 15, stock: 0, menuindex: 0, published: true, deleted: true },
    };
    for (const [key, data] of Object.entries(named)) ids[key] = (await createContent(app, token, 'products', data)).id;

    const bulk = Array.from({ length: BULK }, (_, i) => i);
    for (let start = 0; start < bulk.length; start += 15) {
      await Promise.all(
        bulk.slice(start, start + 15).map(async (i) => {
          const n = String(i).padStart(3, '0');
          ids[`bulk${n}`] = (
            await createContent(app, token, 'products', {
              name: `Bulk item ${n}`,
              slug: `bulk-${n}`,
              price: i + 0.99,
              stock: 1,
              menuindex: 10 + i,
              published: true,
              deleted: false,
            })
          ).id;
        })
      );
    }
  });

  afterAll(async () => {
    await app?.close();
  });

  const VISIBLE_TOTAL = 3 + BULK;
  const bulkKey = (i: number) => `bulk${String(i).padStart(3, '0')}`;
  /** Every visible product's id in feed order: menuindex ascending, then id. */
  const expectedOrder = () => [ids.hat, ids.mug, ids.travel, ...Array.from({ length: BULK }, (_, i) => ids[bulkKey(i)])];

  describe('action=list', () => {
    it('answers the first 20 visible products in menuindex order, with exact items', async () => {
      const response = await app.request().get('/api/products?action=list');
      expect(response.status).toBe(200);
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      expect(Object.keys(response.body).sort()).toEqual(['items', 'limit', 'offset', 'total']);
      expect(response.body).toMatchObject({ total: VISIBLE_TOTAL, limit: 20, offset: 0 });
      expect(response.body.items).toHaveLength(20);
      expect(response.body.items.slice(0, 3)).toEqual([
        { id: ids.hat, title: 'Hat', slug: 'hat', description: null, price: 20, image: null, url: 'https://shop.example/products/hat' },
        {
          id: ids.mug,
          title: 'Mug',
          slug: 'mug',
          description: 'Holds coffee',
          price: 12.5,
          image: imageUrl,
          url: 'https://shop.example/products/mug',
        },
        {
          id: ids.travel,
          title: 'Travel MUG',
          slug: 'travel-mug',
          description: null,
          price: 18,
          image: null,
          url: 'https://shop.example/products/travel-mug',
        },
      ]);
      expect(imageUrl).toMatch(/^\/uploads\/.+\.png$/);
      expect(response.body.items.map((item: { id: number }) => item.id)).toEqual(expectedOrder().slice(0, 20));
    });

    it('is the default action for any feed parameter', async () => {
      const response = await app.request().get('/api/products?limit=2');
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ total: VISIBLE_TOTAL, limit: 2, offset: 0 });
      expect(response.body.items.map((item: { title: string }) => item.title)).toEqual(['Hat', 'Mug']);
    });

    it('never lists unpublished or deleted products', async () => {
      const first = await app.request().get('/api/products?limit=100');
      const second = await app.request().get('/api/products?limit=100&offset=100');
      const listed = [...first.body.items, ...second.body.items].map((item: { id: number }) => item.id);
      expect(listed).toEqual(expectedOrder());
      expect(listed).not.toContain(ids.prototype);
      expect(listed).not.toContain(ids.gone);
    });

    it('caps the limit at 100 and says so', async () => {
      const response = await app.request().get('/api/products?limit=500');
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ total: VISIBLE_TOTAL, limit: 100, offset: 0 });
      expect(response.body.items).toHaveLength(100);
    });

    it('pages with offset', async () => {
      const response = await app.request().get('/api/products?limit=20&offset=100');
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ total: VISIBLE_TOTAL, limit: 20, offset: 100 });
      expect(response.body.items.map((item: { id: number }) => item.id)).toEqual(expectedOrder().slice(100));
      expect(response.body.items.at(-1)).toMatchObject({
        title: 'Bulk item 104',
        price: 104.99,
        url: 'https://shop.example/products/bulk-104',
      });

      const beyond = await app.request().get('/api/products?offset=1000');
      expect(beyond.body).toEqual({ total: VISIBLE_TOTAL, limit: 20, offset: 1000, items: [] });
    });

    it('answers an empty page for limit=0 with the total', async () => {
      const response = await app.request().get('/api/products?limit=0');
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ total: VISIBLE_TOTAL, limit: 0, offset: 0, items: [] });
    });

    it('searches names case-insensitively, among visible products only', async () => {
      const response = await app.request().get('/api/products?search=mUg');
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ total: 2, limit: 20, offset: 0 });
      expect(response.body.items.map((item: { title: string }) => item.title)).toEqual(['Mug', 'Travel MUG']);

      const paged = await app.request().get('/api/products?search=bulk%20item%2010&limit=3&offset=1');
      expect(paged.body.total).toBe(5); // Bulk item 100 … 104
      expect(paged.body.items.map((item: { title: string }) => item.title)).toEqual(['Bulk item 101', 'Bulk item 102', 'Bulk item 103']);
    });

    it('treats LIKE wildcards in the search as text', async () => {
      for (const search of ['%', '_', 'Bulk%104']) {
        const response = await app.request().get('/api/products').query({ search });
        expect(response.status).toBe(200);
        expect(response.body).toEqual({ total: 0, limit: 20, offset: 0, items: [] });
      }
    });

    it('uses one count and one findMany on the query engine', async () => {
      const repository = app.strapi.db.query('api::product.product');
      const count = jest.spyOn(repository, 'count');
      const findMany = jest.spyOn(repository, 'findMany');
      try {
        const response = await app.request().get('/api/products?search=mug&limit=5');
        expect(response.status).toBe(200);
        expect(count).toHaveBeenCalledTimes(1);
        expect(findMany).toHaveBeenCalledTimes(1);
      } finally {
        count.mockRestore();
        findMany.mockRestore();
      }
    });
  });

  describe('action=get', () => {
    it('answers one visible product in the list shape', async () => {
      const response = await app.request().get(`/api/products?action=get&id=${ids.mug}`);
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        id: ids.mug,
        title: 'Mug',
        slug: 'mug',
        description: 'Holds coffee',
        price: 12.5,
        image: imageUrl,
        url: 'https://shop.example/products/mug',
      });
    });

    it('answers 404 for unknown, unpublished and deleted products and for ids that are not numbers', async () => {
      for (const id of ['999999', String(ids.prototype), String(ids.gone), 'abc', '1.5', '-1', '99999999999999999999']) {
        const response = await app.request().get('/api/products').query({ action: 'get', id });
        expect({ id, status: response.status, body: response.body }).toEqual({ id, status: 404, body: { error: 'Product not found' } });
      }
    });

    it('needs an id', async () => {
      const response = await app.request().get('/api/products?action=get');
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ error: 'id is required for action=get' });
    });
  });

  describe('bad values', () => {
    it.each([
      ['limit=-1', 'limit must be a non-negative integer'],
      ['limit=abc', 'limit must be a non-negative integer'],
      ['limit=1.5', 'limit must be a non-negative integer'],
      ['limit=', 'limit must be a non-negative integer'],
      ['limit=1&limit=2', 'limit must be a non-negative integer'],
      ['offset=-3', 'offset must be a non-negative integer'],
      ['offset=x', 'offset must be a non-negative integer'],
      ['action=delete', 'Unknown action: delete'],
      ['action=list&search[name]=x', 'search must be a single string'],
    ])('%s → 400', async (query, error) => {
      const response = await app.request().get(`/api/products?${query}`);
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ error });
    });
  });

  describe("Strapi's own query convention on the same URL", () => {
    it('answers the content-API shape for pagination', async () => {
      const response = await app.request().get('/api/products?pagination[pageSize]=5');
      expect(response.status).toBe(200);
      expect(Object.keys(response.body).sort()).toEqual(['data', 'meta']);
      expect(response.body.data).toHaveLength(5);
      expect(response.body.data[0]).toMatchObject({ id: ids.hat, documentId: expect.any(String), name: 'Hat' });
      expect(response.body.meta.pagination).toEqual({
        page: 1,
        pageSize: 5,
        pageCount: Math.ceil(VISIBLE_TOTAL / 5),
        total: VISIBLE_TOTAL,
      });
    });

    it('keeps the content API for a plain GET and when Strapi parameters are mixed with feed ones', async () => {
      const plain = await app.request().get('/api/products');
      expect(plain.status).toBe(200);
      expect(plain.body.meta.pagination).toMatchObject({ total: VISIBLE_TOTAL });

      const filtered = await app.request().get('/api/products?filters[slug][$eq]=prototype&search=prototype');
      // Visibility still applies to Strapi's find.
      expect({ status: filtered.status, body: filtered.body }).toEqual({
        status: 200,
        body: { data: [], meta: { pagination: { page: 1, pageSize: 25, pageCount: 0, total: 0 } } },
      });
      const mixed = await app.request().get('/api/products?filters[slug][$eq]=hat&limit=1');
      expect(mixed.status).toBe(200);
      expect(mixed.body.data.map((product: { id: number }) => product.id)).toEqual([ids.hat]);
      expect(mixed.body.meta.pagination).toEqual({ page: 1, pageSize: 25, pageCount: 1, total: 1 });
    });
  });

  describe('CORS', () => {
    it('answers a preflight from the frontend with 204 and exactly the configured headers', async () => {
      const response = await app
        .request()
        .options('/api/v1/keys')
        .set('Origin', 'http://localhost:3000')
        .set('Access-Control-Request-Method', 'POST')
        .set('Access-Control-Request-Headers', 'Content-Type, X-API-Key');
      expect(response.status).toBe(204);
      expect(response.headers['access-control-allow-origin']).toBe('http://localhost:3000');
      expect(commaList(response.headers['access-control-allow-methods'])).toEqual(['GET', 'POST', 'PUT', 'DELETE', 'OPTIONS']);
      expect(commaList(response.headers['access-control-allow-headers'])).toEqual(['Content-Type', 'Authorization', 'X-API-Key']);
      expect(response.headers['access-control-max-age']).toBe('86400');
    });

    it('allows every configured origin', async () => {
      const response = await app
        .request()
        .options('/api/products')
        .set('Origin', 'https://shop.example')
        .set('Access-Control-Request-Method', 'GET');
      expect(response.status).toBe(204);
      expect(response.headers['access-control-allow-origin']).toBe('https://shop.example');
    });

    it('gives a disallowed origin no Access-Control-Allow-Origin', async () => {
      const preflight = await app
        .request()
        .options('/api/v1/keys')
        .set('Origin', 'http://evil.example')
        .set('Access-Control-Request-Method', 'POST');
      expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
      const simple = await app.request().get('/api/products?limit=1').set('Origin', 'http://evil.example');
      expect(simple.status).toBe(200);
      expect(simple.headers['access-control-allow-origin']).toBeUndefined();
    });

    it('sends no CORS headers to a request without an Origin, rather than empty ones', async () => {
      for (const path of ['/api/products?limit=1', '/api/v1/keys', '/api/nothing-here']) {
        const response = await app.request().get(path);
        expect(response.headers).not.toHaveProperty('access-control-allow-origin');
        expect(response.headers).not.toHaveProperty('access-control-allow-credentials');
      }
    });

    it('marks a simple GET from the frontend', async () => {
      const response = await app.request().get('/api/products?limit=1').set('Origin', 'http://localhost:3000');
      expect(response.status).toBe(200);
      expect(response.headers['access-control-allow-origin']).toBe('http://localhost:3000');
    });
  });
});
