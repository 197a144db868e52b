import type { OpenApiDocument } from '../../../src/plugins/api-suite/server/src/contract/openapi';
import { watchedTypes } from '../../../src/plugins/api-suite/server/src/features/content/watched';
import { startApp, type TestApp } from '../../helpers/app';
import { createPlan, issueKey, UNKNOWN_KEY, type IssuedKey } from '../../helpers/keys';
import {
  documentedOperations,
  expectResponseToMatchSpec,
  expectToMatchSchema,
  useOpenApiDocument,
  type SpecResponse,
} from '../../helpers/openapi';
import { allowArticleWrites, fullAccessToken, registerUser } from '../../helpers/users';

/**
 * The site's own content API (Strapi's REST routes of the watched content types) in the OpenAPI
 * document: every core route Strapi serves for them is described, and real answers, the Public
 * role's, an API token's and a consumer key's, successes and refusals, match it. Redocly's lint of
 * the whole document, these paths included, is in openapi.test.ts.
 */
let app: TestApp;
let document: OpenApiDocument;
let token: string;

beforeAll(async () => {
  app = await startApp();
  document = (await app.request().get('/api/v1/openapi.json')).body as OpenApiDocument;
  useOpenApiDocument(document);
  token = await fullAccessToken(app);
});

afterAll(async () => {
  await app?.close();
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- supertest types every body as any; each test reads what it checks
type Answer = SpecResponse & { body: any };
const check = (response: Answer, method: string, template: string): Answer => {
  expectResponseToMatchSpec(response, method, template);
  return response;
};
const withToken = () => ({ Authorization: `Bearer ${token}` });

type Parameter = { name: string; in: string; style?: string; explode?: boolean };
const operation = (method: string, template: string) =>
  document.paths[template]?.[method as 'get'] as
    { operationId: string; tags: string[]; security: Array<Record<string, string[]>>; parameters?: Parameter[] } | undefined;
const queryNames = (method: string, template: string) =>
  (operation(method, template)?.parameters ?? []).filter((parameter) => parameter.in === 'query').map((parameter) => parameter.name);

describe('the document', () => {
  it("describes each watched type's routes with its own tag, components and operationIds", () => {
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining(['/api/authors', '/api/authors/{id}', '/api/pages', '/api/pages/{id}'])
    );
    expect(
      Object.fromEntries(
        ['get /api/authors', 'post /api/authors', 'get /api/authors/{id}', 'put /api/authors/{id}', 'delete /api/authors/{id}'].map(
          (entry) => {
            const [method, template] = entry.split(' ');
            return [entry, operation(method, template)?.operationId];
          }
        )
      )
    ).toEqual({
      'get /api/authors': 'listAuthorDocuments',
      'post /api/authors': 'createAuthorDocument',
      'get /api/authors/{id}': 'getAuthorDocument',
      'put /api/authors/{id}': 'updateAuthorDocument',
      'delete /api/authors/{id}': 'deleteAuthorDocument',
    });
    expect(operation('get', '/api/authors')?.tags).toEqual(['Content: Author']);
    expect(document.tags.map((tag) => tag.name)).toEqual(
      expect.arrayContaining(['Content: Article', 'Content: Author', 'Content: Comment', 'Content: Page', 'Content: Product', 'Articles'])
    );
    expect(operation('get', '/api/authors')?.security).toContainEqual({ oauth2: ['read'] });
    expect(operation('post', '/api/authors')?.security).toContainEqual({ oauth2: ['write'] });
    // The host's /api/v1/articles keep their own names; the content API's are apart.
    expect(operation('get', '/api/v1/articles')?.operationId).toBe('listArticles');
    expect(operation('get', '/api/articles')?.operationId).toBe('listArticleDocuments');
    for (const name of ['AuthorDocument', 'AuthorInput', 'PageDocument', 'PageInput', 'ContentApiError', 'ContentApiPagination']) {
      expect(document.components.schemas[name]).toBeDefined();
    }
  });

  it('says how callers are admitted once, under the first content type, and points there from the others', () => {
    const content = (document.tags as Array<{ name: string; description?: string }>).filter((tag) => tag.name.startsWith('Content: '));
    expect(content.length).toBeGreaterThan(1);
    const full = content.filter((tag) => tag.description?.includes("Strapi's own REST API, not `/api/v1`."));
    expect(full.map((tag) => tag.name)).toEqual([content[0].name]);
    for (const tag of content.slice(1))
      expect(tag.description).toContain(`Credentials and errors as for every content type (see "${content[0].name}").`);
  });

  it("reads the components from the type's schema: private attributes are written but never answered", () => {
    const answered = Object.keys(document.components.schemas.AuthorDocument.properties as object);
    expect(answered).toEqual(expect.arrayContaining(['id', 'documentId', 'name', 'articles', 'createdAt', 'updatedAt', 'publishedAt']));
    expect(answered).not.toContain('email');
    expect(Object.keys(document.components.schemas.AuthorInput.properties as object).sort()).toEqual(['articles', 'email', 'name']);
  });

  it("gives Strapi's query parameters, `status` only to draft-and-publish types and `locale` only to localized ones", () => {
    expect(queryNames('get', '/api/authors')).toEqual([
      'filters',
      'sort',
      'pagination[page]',
      'pagination[pageSize]',
      'fields',
      'populate',
    ]);
    expect(queryNames('get', '/api/pages')).toEqual([
      'filters',
      'sort',
      'pagination[page]',
      'pagination[pageSize]',
      'fields',
      'populate',
      'status',
    ]);
    expect(queryNames('get', '/api/pages/{id}')).toEqual(['fields', 'populate', 'status']);
    expect(queryNames('get', '/api/authors/{id}')).toEqual(['fields', 'populate']);
    expect(operation('get', '/api/pages')?.parameters?.find((parameter) => parameter.name === 'filters')).toMatchObject({
      in: 'query',
      style: 'deepObject',
      explode: true,
    });
    // No type of this site is localized.
    for (const { method, path } of documentedOperations()) expect(queryNames(method.toLowerCase(), path)).not.toContain('locale');
  });

  it('describes every route Strapi serves under the watched types, and nothing it does not serve', () => {
    const bases = watchedTypes(app.strapi).map((type) => type.basePath);
    const under = (template: string) => bases.some((base) => template === base || template.startsWith(`${base}/`));
    const served = new Set<string>();
    for (const layer of app.strapi.server.listRoutes() as Array<{ path: string; methods: string[] }>) {
      const template = layer.path.replace(/:(\w+)/g, '{$1}');
      if (!under(template)) continue;
      for (const method of layer.methods) if (method !== 'HEAD') served.add(`${method} ${template}`);
    }
    const documented = documentedOperations()
      .filter(({ path }) => under(path))
      .map(({ method, path }) => `${method} ${path}`);
    expect(new Set(documented).size).toBe(documented.length);
    expect([...served].sort()).toEqual([...documented].sort());
    expect(served.size).toBe(bases.length * 5);
  });
});

describe('answers', () => {
  let ada: { documentId: string };

  beforeAll(async () => {
    ada = await app.strapi.documents('api::author.author').create({ data: { name: 'Ada Lovelace', email: 'ada@example.test' } });
  });

  it('the Public role lists and reads authors without credentials, as documented', async () => {
    const listed = check(await app.request().get('/api/authors'), 'GET', '/api/authors');
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((author: { name: string }) => author.name)).toContain('Ada Lovelace');
    expect(listed.body.data[0].email).toBeUndefined();
    expect(listed.body.meta.pagination).toMatchObject({ page: 1, pageSize: 25 });
    const queried = check(
      await app.request().get('/api/authors').query({
        'filters[name][$eq]': 'Ada Lovelace',
        sort: 'name:asc',
        'pagination[page]': 1,
        'pagination[pageSize]': 5,
        fields: 'name',
        populate: 'articles',
      }),
      'GET',
      '/api/authors'
    );
    expect(queried.body.data).toHaveLength(1);
    expect(queried.body.data[0]).toMatchObject({ name: 'Ada Lovelace', articles: [] });
    expect(queried.body.meta.pagination).toEqual({ page: 1, pageSize: 5, pageCount: 1, total: 1 });
    const one = check(await app.request().get(`/api/authors/${ada.documentId}`), 'GET', '/api/authors/{id}');
    expect(one.body.data).toMatchObject({ documentId: ada.documentId, name: 'Ada Lovelace' });
    expectToMatchSchema(one.body.data, 'AuthorDocument');

    const missing = check(await app.request().get('/api/authors/no-such-document'), 'GET', '/api/authors/{id}');
    expect(missing).toMatchObject({ status: 404, body: { data: null, error: { status: 404, name: 'NotFoundError' } } });
    const badQuery = check(await app.request().get('/api/authors?sort=nope:asc'), 'GET', '/api/authors');
    expect(badQuery).toMatchObject({ status: 400, body: { error: { name: 'ValidationError' } } });
  });

  it('an API token creates, changes and deletes; without credentials, Strapi refuses in its own shape', async () => {
    const created = check(
      await app
        .request()
        .post('/api/authors')
        .set(withToken())
        .send({ data: { name: 'Grace Hopper', email: 'grace@example.test', articles: [] } }),
      'POST',
      '/api/authors'
    );
    expect(created.status).toBe(201);
    const id: string = created.body.data.documentId;
    const invalid = check(
      await app
        .request()
        .post('/api/authors')
        .set(withToken())
        .send({ data: { colour: 'red' } }),
      'POST',
      '/api/authors'
    );
    expect(invalid).toMatchObject({ status: 400, body: { data: null, error: { name: 'ValidationError' } } });
    const changed = check(
      await app
        .request()
        .put(`/api/authors/${id}`)
        .set(withToken())
        .send({ data: { name: 'Rear Admiral Hopper' } }),
      'PUT',
      '/api/authors/{id}'
    );
    expect(changed.body.data.name).toBe('Rear Admiral Hopper');
    const gone = check(
      await app
        .request()
        .put('/api/authors/no-such-document')
        .set(withToken())
        .send({ data: { name: 'x' } }),
      'PUT',
      '/api/authors/{id}'
    );
    expect(gone.status).toBe(404);

    const anonymous = check(
      await app
        .request()
        .post('/api/authors')
        .send({ data: { name: 'Nobody' } }),
      'POST',
      '/api/authors'
    );
    expect(anonymous).toMatchObject({ status: 403, body: { data: null, error: { name: 'ForbiddenError' } } });
    const unknownKey = check(
      await app
        .request()
        .post('/api/authors')
        .set('X-API-Key', UNKNOWN_KEY)
        .send({ data: { name: 'Nobody' } }),
      'POST',
      '/api/authors'
    );
    expect(unknownKey).toMatchObject({ status: 401, body: { error: { code: 'invalid_api_key' } } });
    const badJwt = check(
      await app.request().delete(`/api/authors/${id}`).set('Authorization', 'Bearer not.a.jwt'),
      'DELETE',
      '/api/authors/{id}'
    );
    expect(badJwt).toMatchObject({ status: 401, body: { error: { code: 'invalid_token' } } });

    const deleted = check(await app.request().delete(`/api/authors/${id}`).set(withToken()), 'DELETE', '/api/authors/{id}');
    expect(deleted.status).toBe(204);
    expect(check(await app.request().get(`/api/authors/${id}`), 'GET', '/api/authors/{id}').status).toBe(404);
  });

  it('a consumer key is held to its plan: refused in the /api/v1 shape without @content, answered with the rate headers with it', async () => {
    const keyOn = async (endpoints: string[]): Promise<IssuedKey> => {
      const name = `openapi-content-${endpoints.join('-').replace(/[^a-z]/g, '') || 'none'}`;
      await createPlan(app, { name, requests_per_month: 1000, requests_per_minute: 100, endpoints });
      const user = await registerUser(app, { plan: name });
      // Keys never write more than their owner's role allows: this role may write articles.
      await allowArticleWrites(app, user);
      return issueKey(app, user, { scopes: ['read', 'write'] });
    };
    const article = { data: { title: 'Through the content API', status: 'published' } };

    const outside = await keyOn(['GET /api/v1/plans']);
    const refused = check(await app.request().post('/api/articles').set('X-API-Key', outside.key).send(article), 'POST', '/api/articles');
    expect(refused).toMatchObject({ status: 403, body: { error: { code: 'endpoint_not_in_plan' } } });

    const inside = await keyOn(['@content']);
    const created = check(await app.request().post('/api/articles').set('X-API-Key', inside.key).send(article), 'POST', '/api/articles');
    expect(created.status).toBe(201);
    expect(created.headers['x-ratelimit-limit']).toBe('100');
    const read = check(
      await app.request().get(`/api/articles/${created.body.data.documentId}`).set('X-API-Key', inside.key),
      'GET',
      '/api/articles/{id}'
    );
    expect(read.body.data.title).toBe('Through the content API');
  });

  it("pages: the published and the draft version (refused without staff credentials), and Strapi's find of products", async () => {
    const draft = check(
      await app
        .request()
        .post('/api/pages?status=draft')
        .set(withToken())
        .send({ data: { title: 'Soon', slug: 'soon', body: 'Not yet' } }),
      'POST',
      '/api/pages'
    );
    expect(draft.body.data.publishedAt).toBeNull();
    const published = check(await app.request().get('/api/pages?status=published'), 'GET', '/api/pages');
    expect(published.body.data).toEqual([]);
    const drafts = check(await app.request().get('/api/pages?status=draft').set(withToken()), 'GET', '/api/pages');
    expect(drafts.body.data.map((page: { title: string }) => page.title)).toEqual(['Soon']);
    const one = check(
      await app.request().get(`/api/pages/${draft.body.data.documentId}?status=draft`).set(withToken()),
      'GET',
      '/api/pages/{id}'
    );
    expect(one.body.data.slug).toBe('soon');
    // Drafts asked for without being staff: the refusal the document describes, in the /api/v1 shape.
    const refused = check(await app.request().get('/api/pages?status=draft'), 'GET', '/api/pages');
    expect({ status: refused.status, code: refused.body.error.code }).toEqual({ status: 403, code: 'drafts_not_allowed' });

    await app.strapi.documents('api::product.product').create({
      data: { name: 'Mug', slug: 'mug', price: 12.5, stock: 3, published: true, deleted: false },
    });
    const products = check(await app.request().get('/api/products?populate=image'), 'GET', '/api/products');
    expect(products.body.data).toEqual([expect.objectContaining({ name: 'Mug', image: null })]);
  });
});
