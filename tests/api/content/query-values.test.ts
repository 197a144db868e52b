import { startApp, type TestApp } from '../../helpers/app';

/**
 * Strapi's content API never answers a caller's mistake with a 500 (docs/content-api.md#filters-the-database-cannot-apply):
 * a value of the wrong kind for its field, or an operator the query engine cannot apply below a
 * relation, is Strapi's own 400 `ValidationError` naming the place, on SQLite and PostgreSQL
 * alike (PostgreSQL refused them with an error the API answered as a 500, its SQL in the log).
 * Anonymous callers, the Public role's routes.
 */
let app: TestApp;

beforeAll(async () => {
  app = await startApp();
});

afterAll(async () => {
  await app?.close();
});

it.each([
  ['an id that is no number', '/api/articles?filters[id][$eq]=x', 'id'],
  ['a price that is no number', '/api/products?filters[price][$gt]=abc', 'price'],
  ['a number beyond any', '/api/products?filters[stock][$eq]=1.5e999', 'stock'],
  ['a fraction for a whole number', '/api/products?filters[stock][$eq]=1.5', 'stock'],
  ['a date that is no date', '/api/articles?filters[createdAt][$gt]=yesterday', 'createdAt'],
  ['$not right below a relation', '/api/comments?filters[article][$not][title][$eq]=x', 'article'],
  ['$not right below a relation, on a list', '/api/articles?filters[comments][$not][body][$eq]=x', 'comments'],
  ['$or of a value below a relation', '/api/articles?filters[comments][$or][0]=x', 'comments'],
  ['$between right below a relation', '/api/articles?filters[comments][$between][0]=1', 'comments'],
  ['$or of values', '/api/authors?filters[$or][0]=x', '$or'],
])('%s: 400 ValidationError (%s, naming %s)', async (_what, path, place) => {
  const response = await app.request().get(path);
  expect({ status: response.status, name: response.body.error?.name }).toEqual({ status: 400, name: 'ValidationError' });
  // The field at fault is named.
  expect(response.body.error.message).toContain(place);
});

it('still answers well-formed filters of every kind', async () => {
  for (const path of [
    '/api/articles?filters[id][$eq]=1',
    '/api/products?filters[price][$gt]=10.5&filters[stock][$gte]=0',
    '/api/articles?filters[createdAt][$gt]=2020-01-01',
    '/api/articles?filters[comments][body][$containsi]=x',
    '/api/articles?filters[comments][id][$in][0]=1&filters[comments][id][$in][1]=2',
    '/api/articles?filters[$or][0][title][$eq]=a&filters[$or][1][slug][$eq]=b',
    '/api/authors?filters[articles][title][$not][$eq]=x',
  ]) {
    const response = await app.request().get(path);
    expect({ path, status: response.status }).toEqual({ path, status: 200 });
  }
});
