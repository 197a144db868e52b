import path from 'node:path';
import { build } from 'esbuild';
import { z } from 'zod';
import { createScraperBody } from '../../src/plugins/api-suite/server/src/features/scrapers/validation';
import { scraperBodies } from '../../src/plugins/api-suite/server/src/features/scrapers/validation/requests';
import {
  entryNames,
  parseFilterText,
  suggestedFields,
  typesReceived,
  typeToTry,
  withCondition,
  textWithCondition,
} from '../../src/plugins/api-suite/shared/filter-editing';
import { contractClient, contractPath } from '../../src/plugins/api-suite/shared/client';
import { ApiProblem, asProblem, fieldError, placedError, problemOf } from '../../src/plugins/api-suite/shared/http';
import { formatNamedLines, parseHeaderLines, parseSelectorFields } from '../../src/plugins/api-suite/shared/named-lines';

/** The browsers' shared layer (shared/): the input grammars, the error-body reader, and the browser-safe scraper schemas. */

describe('selector fields', () => {
  it('reads both `name: selector` and `name=selector`, the first separator of a line separating', () => {
    expect(parseSelectorFields('title: h2\nlink=a@href\n\n  price : .price \nfirst: li:first-child\nnext=a[rel=next]@href')).toEqual({
      title: 'h2',
      link: 'a@href',
      price: '.price',
      first: 'li:first-child',
      next: 'a[rel=next]@href',
    });
  });

  it('keeps a line without a separator as a name without a selector, for the server to name', () => {
    expect(parseSelectorFields('title')).toEqual({ title: '' });
  });

  it('writes `name: selector`, which reads back the same', () => {
    const fields = { title: 'h2', first: 'li:first-child', next: 'a[rel=next]@href' };
    expect(formatNamedLines(fields)).toBe('title: h2\nfirst: li:first-child\nnext: a[rel=next]@href');
    expect(parseSelectorFields(formatNamedLines(fields))).toEqual(fields);
  });

  it('splits headers at the first colon only, so a value may hold `=`', () => {
    expect(parseHeaderLines('x-token: a=b\naccept-language: en')).toEqual({ 'x-token': 'a=b', 'accept-language': 'en' });
  });
});

describe('error bodies', () => {
  it('reads the /api/v1 family', () => {
    const problem = problemOf(400, {
      error: { code: 'validation_error', message: 'Invalid', details: [{ field: 'name', message: 'must not be empty' }] },
    });
    expect(problem).toBeInstanceOf(ApiProblem);
    expect([problem.status, problem.code, problem.message, problem.fields]).toEqual([
      400,
      'validation_error',
      'Invalid',
      { name: 'must not be empty' },
    ]);
  });

  it('reads the admin routes and users-permissions family, first message per field, none for the body as a whole', () => {
    const problem = problemOf(400, {
      error: {
        status: 400,
        name: 'ValidationError',
        message: '2 errors',
        details: {
          errors: [
            { path: ['selectors', 'fields', 'title'], message: 'bad' },
            { path: ['selectors', 'fields', 'title'], message: 'worse' },
            { path: [], message: 'the body' },
          ],
        },
      },
    });
    expect([problem.code, problem.fields]).toEqual(['ValidationError', { 'selectors.fields.title': 'bad' }]);
    expect(fieldError(problem, 'selectors')).toBe('fields.title: bad');
    expect(fieldError(problem, 'name')).toBeUndefined();
  });

  it('reads the /api/webhooks family, naming the unknown events', () => {
    const problem = problemOf(422, { error: 'Unknown events', code: 'invalid_events', invalid_events: ['a.b', 'c.d'] });
    expect([problem.code, problem.message, problem.fields]).toEqual([
      'invalid_events',
      'Unknown events',
      { events: 'unknown or inactive: a.b, c.d' },
    ]);
  });

  it('puts a refusal that names its place (invalid_filter) at that place, in both families that answer one', () => {
    const message = 'The filter cannot be applied at filter.total.$gt: "x" is a string: total of order.created holds numbers';
    const flat = problemOf(422, { error: message, code: 'invalid_filter', path: 'filter.total.$gt' });
    expect([flat.code, flat.fields]).toEqual(['invalid_filter', { 'filter.total.$gt': message }]);
    const admin = problemOf(422, {
      data: null,
      error: { status: 422, name: 'invalid_filter', message, details: { path: 'filter.total.$gt' } },
    });
    expect([admin.code, admin.fields]).toEqual(['invalid_filter', { 'filter.total.$gt': message }]);
    // The message names the place itself: shown as it is, not prefixed with it again.
    expect(placedError(flat, 'filter')).toBe(message);
    expect(placedError({ fields: { filter: 'must be an object' } }, 'filter')).toBe('must be an object');
    expect(placedError(flat, 'events')).toBeUndefined();
  });

  it('reads the checkout family, and falls back when a body says nothing', () => {
    expect(problemOf(400, { errors: [{ message: 'Cart is empty' }] }).message).toBe('Cart is empty');
    expect(problemOf(502, 'Bad gateway').message).toBe('The server answered 502.');
    expect(problemOf(500, null, 'Request failed').message).toBe('Request failed');
  });

  it('turns anything thrown into a problem', () => {
    const problem = new ApiProblem(404, 'not_found', 'Not found');
    expect(asProblem(problem, 'x')).toBe(problem);
    expect(asProblem(new Error('boom'), 'x').message).toBe('boom');
    expect(asProblem('boom', 'Something went wrong.').message).toBe('Something went wrong.');
  });
});

describe('the typed client', () => {
  it("sends a call by its contract's key: method, path with its params filled in, the query's set parameters, the body", async () => {
    const sent: unknown[] = [];
    const call = contractClient(async (method, path, body) => {
      sent.push([method, path, body]);
      return { data: [] };
    });
    await call('GET /api/v1/keys', { query: { page: 2, limit: 10 } });
    await call('PATCH /api/webhooks/subscriptions/{id}', { params: { id: 'a b/c' }, body: { is_active: false } });
    await call('GET /api-suite/scrapers/{id}/results', { params: { id: 3 }, query: { run_id: 9, change: '', page: undefined } });
    expect(sent).toEqual([
      ['GET', '/api/v1/keys?page=2&limit=10', undefined],
      ['PATCH', '/api/webhooks/subscriptions/a%20b%2Fc', { is_active: false }],
      ['GET', '/api-suite/scrapers/3/results?run_id=9', undefined],
    ]);
  });

  it('gives the path of a route read another way (a download, a stream)', () => {
    expect(contractPath('GET /api/v1/account/export')).toBe('/api/v1/account/export');
    expect(contractPath('GET /api/v1/scrapers/{id}/results', { params: { id: 4 }, query: { run_id: 2, format: 'csv' } })).toBe(
      '/api/v1/scrapers/4/results?run_id=2&format=csv'
    );
  });

  it('refuses a path parameter left out rather than calling a wrong path', async () => {
    const call = contractClient(async () => undefined);
    // @ts-expect-error the contract names {id}
    await expect(call('GET /api/v1/scrapers/{id}', { params: {} })).rejects.toThrow('no value for {id}');
  });
});

describe('scraper request schemas', () => {
  const browser = scraperBodies().createScraperBody;

  it('leave the server-only checks (cron, CSS) to the server, which words them as before', () => {
    const body = { name: 'Shop', url: 'https://example.com/', schedule: 'every minute', selectors: { fields: { title: 'h2[' } } };
    expect(browser.safeParse(body).success).toBe(true);
    const refused = createScraperBody.safeParse(body);
    expect(refused.success).toBe(false);
    expect(refused.error?.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([
      ['schedule', 'must be a cron expression of 5 fields (minute first) or 6 (second first)'],
      ['selectors', 'fields.title: "h2[" is not a valid CSS selector'],
    ]);
  });

  it('describe the same body to the OpenAPI document', () => {
    expect(z.toJSONSchema(browser, { io: 'input', unrepresentable: 'any' })).toEqual(
      z.toJSONSchema(createScraperBody, { io: 'input', unrepresentable: 'any' })
    );
  });

  it('bundle for a browser with nothing but zod and pure modules', async () => {
    const plugin = path.resolve(__dirname, '../../src/plugins/api-suite');
    const result = await build({
      entryPoints: [path.join(plugin, 'server/src/features/scrapers/validation/requests.ts')],
      bundle: true,
      write: false,
      platform: 'browser',
      format: 'esm',
      metafile: true,
      logLevel: 'silent',
    });
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs.filter((input) => input.includes('node_modules') && !/node_modules\/zod\//.test(input))).toEqual([]);
    expect(inputs.filter((input) => /\/(jobs|services|outbound)\//.test(input))).toEqual([]);
  });
});

describe('filter fields', () => {
  const order = {
    name: 'order.created',
    schema: {
      type: 'object',
      properties: {
        total: { type: 'number' },
        status: { type: 'string', enum: ['pending', 'paid'] },
        customer: { type: 'object', properties: { name: { type: 'string' } } },
      },
    },
    example_payload: { total: 25, status: 'pending', customer: { name: 'Ada' } },
  };
  const article = {
    name: 'article.created',
    schema: { type: 'object', properties: { title: { type: 'string' } } },
    example_payload: { title: 'Hello' },
  };

  it('reads empty text (or null) as no filter, and names text that is not a JSON object', () => {
    expect(parseFilterText('  ')).toEqual({ kind: 'none' });
    expect(parseFilterText('null')).toEqual({ kind: 'none' });
    expect(parseFilterText('{ "total": { "$gte": 10 } }')).toEqual({ kind: 'filter', filter: { total: { $gte: 10 } } });
    expect(parseFilterText('{ "total": ')).toMatchObject({
      kind: 'invalid',
      reason: 'json',
      message: expect.stringMatching(/^Not valid JSON/),
    });
    expect(parseFilterText('[1]')).toMatchObject({ kind: 'invalid', reason: 'not-object' });
  });

  it('reads events entries as the server does: a name, *, or a prefix ending in .*', () => {
    expect(entryNames('order.*', 'order.created')).toBe(true);
    expect(entryNames('order.*', 'orders.created')).toBe(false);
    expect(entryNames('*', 'article.created')).toBe(true);
    expect(typesReceived(['order.*'], [article, order]).map((type) => type.name)).toEqual(['order.created']);
  });

  it("suggests the fields of the types' data, nested ones by their dotted path", () => {
    expect(suggestedFields([order, article]).map((field) => field.path)).toEqual(['total', 'status', 'customer', 'customer.name', 'title']);
  });

  it('tries a filter on the first type named by its name that it fits', () => {
    expect(typeToTry({ total: { $gt: 1 } }, ['article.created', 'order.created'], [article, order])?.name).toBe('order.created');
    expect(typeToTry({ nowhere: 1 }, ['article.created', 'order.created'], [article, order])?.name).toBe('article.created');
    expect(typeToTry({ total: 1 }, ['*', 'order.*'], [article, order])).toBeUndefined();
  });

  it("adds a condition on a suggested field, nested, equal to the example's value", () => {
    const [total, , , name] = suggestedFields([order]);
    expect(withCondition({}, total, [order.example_payload])).toEqual({ total: { $eq: 25 } });
    expect(withCondition({ customer: { id: 1 } }, name, [order.example_payload])).toEqual({ customer: { id: 1, name: { $eq: 'Ada' } } });
    expect(withCondition({ total: { $gt: 3 } }, total)).toEqual({ total: { $gt: 3 } });
    expect(withCondition({}, total)).toEqual({ total: { $eq: 0 } });
  });

  it("gives a filter field's new text once a field is clicked, and leaves text that is not a filter alone", () => {
    const [total] = suggestedFields([order]);
    expect(JSON.parse(textWithCondition(parseFilterText(''), total, [order]) ?? 'null')).toEqual({ total: { $eq: 25 } });
    expect(JSON.parse(textWithCondition(parseFilterText('{"status":"paid"}'), total, [order]) ?? 'null')).toEqual({
      status: 'paid',
      total: { $eq: 25 },
    });
    expect(textWithCondition(parseFilterText('{ not json'), total, [order])).toBeUndefined();
  });
});
