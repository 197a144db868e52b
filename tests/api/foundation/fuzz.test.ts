import { startApp, type TestApp } from '../../helpers/app';
import { administratorOf } from '../../helpers/keys';
import { fullAccessToken, registerUser, type TestUser } from '../../helpers/users';
import { UIDS } from '../../../src/plugins/api-suite/server/src/constants';

/**
 * Every route of the generated OpenAPI document and of Strapi's content API, sent what a careless
 * or hostile client sends: malformed JSON, the wrong content type, NUL and control characters,
 * unpaired surrogates, nested filter operators, arrays where objects belong, absurd ids. None may
 * answer 500 (or any 5xx the operation does not document), and nothing may be stored.
 */
let app: TestApp;
let consumer: TestUser;
let admin: TestUser;
let strapiToken: string;

beforeAll(async () => {
  app = await startApp();
  consumer = await registerUser(app, { plan: 'enterprise' });
  admin = await administratorOf(app);
  strapiToken = await fullAccessToken(app);
  // The TypeScript types are generated once per process, on the first request (seconds of CPU, more on
  // a loaded machine): made here, so the fuzzing below times how each route meets hostile input, not that.
  expect((await app.request().get('/api/v1/openapi.d.ts').timeout({ response: 60_000 })).status).toBe(200);
}, 120_000);

afterAll(async () => {
  await app?.close();
});

/** What must not change: every table a write could reach. */
const WATCHED = [
  UIDS.apiKey,
  UIDS.plan,
  UIDS.webhookSubscription,
  UIDS.webhookEventType,
  UIDS.scraper,
  UIDS.scraperRun,
  UIDS.order,
  UIDS.user,
  'api::article.article',
  'api::author.author',
  'api::comment.comment',
  'api::product.product',
  'api::page.page',
];

async function counts(): Promise<Record<string, number>> {
  const entries = await Promise.all(WATCHED.map(async (uid) => [uid, await app.strapi.db.query(uid as never).count({})] as const));
  return Object.fromEntries(entries);
}

interface Operation {
  method: string;
  path: string;
  documented5xx: Set<string>;
}

const BAD_IDS = ['99999999999999999999', 'abc', '1%00', '%F0%9F'];

/** Bodies no route should take. Strings keep their raw form; objects go out as JSON. */
const BAD_JSON_BODIES: Array<[string, unknown]> = [
  [
    'a NUL in every likely field',
    Object.fromEntries(
      ['name', 'url', 'endpoint_url', 'title', 'description', 'type', 'plan_id', 'since'].map((field) => [field, `x\u0000y`])
    ),
  ],
  ['unpaired surrogates', { name: '\uD800', events: ['\uDFFF'], payload: { a: '\uD83D' } }],
  ['control characters', { name: '\u0001\u0007\u001b[31m', url: 'http://127.0.0.1/\r\nX-Injected: 1', headers: { 'X-A': 'a\r\nb' } }],
  ['an array instead of an object', [1, 2, 3]],
  ['a bare string', 'just a string'],
  ['null', null],
  [
    'wrong types everywhere',
    { name: 42, scopes: 'read', events: { a: 1 }, plan_id: 'pro', limit: -5, expires_at: 12, items: 'many', grace_seconds: 1e308 },
  ],
  ['deep nesting', JSON.parse(`${'{"a":'.repeat(200)}1${'}'.repeat(200)}`)],
  ['operators in a body', { name: { $ne: null }, url: { $gt: '' }, user_id: { $in: [1, 2] } }],
  ['prototype keys', JSON.parse('{"__proto__":{"isAdmin":true},"constructor":{"prototype":{"x":1}}}')],
];

const BAD_QUERIES = [
  'page[$eq][$ne]=1&limit=%00&filters[title][$eq][$ne]=x',
  'page=-1&limit=1e9&status[]=a&status[]=b',
  'from=%F0%9F&to=%01&include=author%00&key_id[$gt]=1',
  `q=${'a'.repeat(5000)}`,
];

function operationsOf(document: { paths: Record<string, Record<string, { responses?: Record<string, unknown> }>> }): Operation[] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    ['get', 'post', 'put', 'patch', 'delete']
      .filter((method) => item[method] !== undefined)
      .map((method) => ({
        method: method.toUpperCase(),
        path,
        documented5xx: new Set(Object.keys(item[method].responses ?? {}).filter((status) => status.startsWith('5'))),
      }))
  );
}

const fill = (path: string, id: string) => path.replace(/\{[^}]+\}/g, id);

function send(method: string, url: string, headers: Record<string, string>, body?: { type: string; raw: string }) {
  // A hang is as bad as a 500: every answer must start within 10 s.
  const request = app
    .request()
    [method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete'](url)
    .set(headers)
    .timeout({ response: 10_000 });
  if (!body) return request;
  return request.set('Content-Type', body.type).send(body.raw);
}

it('no route of the OpenAPI document answers an undocumented 5xx to hostile input, and nothing is stored', async () => {
  const document = (await app.request().get('/api/v1/openapi.json')).body;
  // Event streams answer for as long as the client listens: their validation is the JSON route's (usage.test.ts).
  const operations = operationsOf(document).filter((operation) => !operation.path.endsWith('/stream'));
  expect(operations.length).toBeGreaterThan(40);
  const before = await counts();
  const failures: string[] = [];
  let sent = 0;

  // The consumer sends everything; an administrator, who passes more checks, sends the bodies again.
  const consumerCredential = { Authorization: `Bearer ${consumer.jwt}` };
  const adminCredential = { Authorization: `Bearer ${admin.jwt}` };
  for (const operation of operations) {
    const check = async (credential: Record<string, string>, label: string, url: string, body?: { type: string; raw: string }) => {
      sent += 1;
      const response = await send(operation.method, url, credential, body).catch((error: Error) => ({ status: 599, body: error.message }));
      const status = String(response.status);
      if (status.startsWith('5') && !operation.documented5xx.has(status))
        failures.push(`${operation.method} ${url} (${label}) → ${status} ${JSON.stringify(response.body).slice(0, 200)}`);
    };
    const ids = operation.path.includes('{') ? BAD_IDS : [''];
    // A write without a body is a real request (POST /api/v1/keys makes a key): writes get a malformed one.
    const junk = operation.method === 'GET' || operation.method === 'DELETE' ? undefined : { type: 'application/json', raw: '{"name":' };
    for (const id of ids) {
      const url = fill(operation.path, id);
      await check(consumerCredential, `id ${id}`, url, junk);
      for (const query of BAD_QUERIES) await check(consumerCredential, `query ${query.slice(0, 40)}`, `${url}?${query}`, junk);
    }
    if (operation.method === 'GET' || operation.method === 'DELETE') continue;
    // Bodies go to a real-looking id (1) as well as to the bad ones' first, so validation is reached.
    for (const url of operation.path.includes('{') ? [fill(operation.path, '1'), fill(operation.path, BAD_IDS[1])] : [operation.path]) {
      for (const credential of [consumerCredential, adminCredential]) {
        await check(credential, 'malformed JSON', url, { type: 'application/json', raw: '{"name":' });
        await check(credential, 'text/plain', url, { type: 'text/plain', raw: 'name=x' });
        await check(credential, 'xml', url, { type: 'application/xml', raw: '<a>1</a>' });
        await check(credential, 'form', url, { type: 'application/x-www-form-urlencoded', raw: 'name=%00&scopes[]=read' });
        for (const [label, body] of BAD_JSON_BODIES)
          await check(credential, label, url, { type: 'application/json', raw: JSON.stringify(body) });
      }
    }
  }
  expect(failures).toEqual([]);
  expect(await counts()).toEqual(before);
  expect(sent).toBeGreaterThan(1500);
}, 240_000);

it("Strapi's content API answers hostile queries and bodies without a 5xx, storing nothing", async () => {
  const before = await counts();
  const failures: string[] = [];
  const queries = [
    'filters[title][$eq][$ne]=x',
    'filters[$or][0][$and][0][id][$in][0][$eq]=1',
    'filters[id][$between][0][$gt]=1',
    'filters[id][$null][$eq]=true',
    'sort[$ne]=id',
    'sort[0][$eq]=id',
    'populate[$eq]=x',
    'populate[author][populate][$ne]=x',
    'fields[0][$eq]=title',
    'pagination[page]=abc&pagination[pageSize]=-1',
    'pagination[page][$gt]=1',
    'filters[title][$eq]=%00',
    'filters[title][$containsi]=\uD800',
    'locale[$ne]=en',
    'status[$eq]=published',
  ];
  for (const plural of ['articles', 'products', 'pages', 'authors', 'comments']) {
    for (const headers of [{}, { Authorization: `Bearer ${strapiToken}` }] as Array<Record<string, string>>) {
      for (const query of queries) {
        for (const url of [`/api/${plural}?${query}`, `/api/${plural}/1?${query}`]) {
          const response = await app.request().get(url).set(headers);
          if (response.status >= 500) failures.push(`GET ${url} → ${response.status}`);
        }
      }
      for (const [label, body] of [
        ...BAD_JSON_BODIES,
        ['data holding a NUL', { data: { title: 'a\u0000', name: 'a\u0000', body: 'x' } }] as [string, unknown],
      ]) {
        for (const [method, url] of [
          ['POST', `/api/${plural}`],
          ['PUT', `/api/${plural}/1`],
        ] as const) {
          const response = await send(method, url, headers, { type: 'application/json', raw: JSON.stringify(body) });
          if (response.status >= 500)
            failures.push(`${method} ${url} (${label}) → ${response.status} ${JSON.stringify(response.body).slice(0, 200)}`);
        }
      }
      for (const type of ['text/plain', 'application/xml']) {
        const response = await send('POST', `/api/${plural}`, headers, { type, raw: '<data/>' });
        if (response.status >= 500) failures.push(`POST /api/${plural} (${type}) → ${response.status}`);
      }
    }
  }
  expect(failures).toEqual([]);
  expect(await counts()).toEqual(before);
}, 300_000);
