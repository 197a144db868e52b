import { PassThrough } from 'node:stream';
import { transports } from 'winston';
import { startApp, type TestApp } from '../../helpers/app';
import { issueKey } from '../../helpers/keys';
import { fullAccessToken, registerUser, type TestUser } from '../../helpers/users';
import { eventually } from '../../helpers/wait';
import { UIDS } from '../../../src/plugins/api-suite/server/src/constants';

/**
 * Bad input never reaches a 500 and never stores anything: wrong content types, NUL characters
 * and unpaired surrogates, JSON nested too deep, nested filter operators on Strapi's own routes, reserved headers on
 * scrapers; and an API key sent in a query string never reaches a log line.
 */
let app: TestApp;
let alice: TestUser;
let log = '';

beforeAll(async () => {
  app = await startApp({ env: { LOG_LEVEL: 'http' } });
  alice = await registerUser(app, { plan: 'pro' });
  const stream = new PassThrough();
  stream.on('data', (chunk: Buffer) => (log += chunk.toString()));
  (app.strapi.log as unknown as { add(transport: unknown): void }).add(new transports.Stream({ stream }));
});

afterAll(async () => {
  await app?.close();
});

const bearer = (user: TestUser) => ({ Authorization: `Bearer ${user.jwt}` });
const countOf = (uid: string) => app.strapi.db.query(uid as never).count({});

describe("Strapi's own routes", () => {
  it.each(['articles', 'products', 'pages', 'authors', 'comments'])(
    'answers 400, not 500, to a filter operator given more operators on /api/%s',
    async (plural) => {
      const response = await app.request().get(`/api/${plural}?filters[title][$eq][$ne]=x`);
      expect(response.status).toBe(400);
      expect(response.body).toEqual({
        data: null,
        error: {
          status: 400,
          name: 'ValidationError',
          message: 'Invalid filter at filters[title][$eq]: an operator takes a value, not more operators',
          details: {},
        },
      });
      expect((await app.request().get(`/api/${plural}?filters[$or][0][id][$eq]=1`)).status).toBe(200);
    }
  );

  it.each([
    '/api/auth/local',
    '/api/auth/local/register',
    '/api/auth/forgot-password',
    '/api/auth/reset-password',
    '/api/auth/send-email-confirmation',
  ])('answers 400 to an XML body on %s', async (path) => {
    const users = await countOf(UIDS.user);
    const response = await app.request().post(path).set('Content-Type', 'application/xml').send('<identifier>a</identifier>');
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      data: null,
      error: {
        status: 400,
        name: 'ValidationError',
        message: 'Send the body as JSON (Content-Type: application/json) or as a form',
        details: {},
      },
    });
    expect(await countOf(UIDS.user)).toBe(users);
  });
});

describe('writes whose body is not JSON', () => {
  it("are 415 on /api/v1, /api/webhooks and /api/checkout, each in its family's shape, and store nothing", async () => {
    const keys = await countOf(UIDS.apiKey);
    const key = await app.request().post('/api/v1/keys').set(bearer(alice)).set('Content-Type', 'text/plain').send('name=laptop');
    expect(key.status).toBe(415);
    expect(key.body).toEqual({
      error: { code: 'unsupported_media_type', message: 'Send the body as JSON, with Content-Type: application/json' },
    });
    const untyped = await app.request().post('/api/v1/keys').set(bearer(alice)).set('Content-Type', '').send(Buffer.from('{"name":"x"}'));
    expect(untyped.status).toBe(415);
    expect(await countOf(UIDS.apiKey)).toBe(keys);

    const hook = await app
      .request()
      .post('/api/webhooks/subscriptions')
      .set(bearer(alice))
      .set('Content-Type', 'text/plain')
      .send('endpoint_url=http://127.0.0.1/');
    expect(hook.status).toBe(415);
    expect(hook.body).toEqual({ error: 'Send the body as JSON, with Content-Type: application/json', code: 'unsupported_media_type' });
    const cart = await app.request().post('/api/checkout').set(bearer(alice)).set('Content-Type', 'application/xml').send('<items/>');
    expect(cart.status).toBe(415);
    expect(cart.body).toEqual({ errors: [{ message: 'Send the body as JSON, with Content-Type: application/json' }] });
  });

  it("leaves bodiless writes and the token endpoint's form alone", async () => {
    const issued = await issueKey(app, alice);
    expect((await app.request().delete(`/api/v1/keys/${issued.id}`).set(bearer(alice))).status).toBe(204);
    const form = await app
      .request()
      .post('/api/v1/oauth/token')
      .type('form')
      .send({ grant_type: 'client_credentials', client_id: 'ci_x', client_secret: 'sk_y' });
    expect(form.status).toBe(401);
  });
});

describe('NUL characters and unpaired surrogates', () => {
  it.each([
    ['a NUL', 'a\u0000b'],
    ['a lone high surrogate', 'a\uD800b'],
    ['a lone low surrogate', '\uDC00'],
  ])('are refused with 400 in %s, on every family, storing nothing', async (_what, text) => {
    const keys = await countOf(UIDS.apiKey);
    const key = await app.request().post('/api/v1/keys').set(bearer(alice)).send({ name: text });
    expect(key.status).toBe(400);
    expect(key.body).toEqual({
      error: {
        code: 'validation_error',
        message: 'name: must not hold NUL characters or unpaired surrogates',
        details: [{ field: 'name', message: 'must not hold NUL characters or unpaired surrogates' }],
      },
    });
    expect(await countOf(UIDS.apiKey)).toBe(keys);

    const hook = await app
      .request()
      .post('/api/webhooks/subscriptions')
      .set(bearer(alice))
      .send({ endpoint_url: 'http://127.0.0.1:9/', events: ['*'], description: text });
    expect(hook.status).toBe(400);
    expect(hook.body.code).toBe('validation_error');

    const token = await fullAccessToken(app);
    const authors = await countOf('api::author.author');
    const author = await app
      .request()
      .post('/api/authors')
      .set('Authorization', `Bearer ${token}`)
      .send({ data: { name: text } });
    expect(author.status).toBe(400);
    expect(author.body.error).toMatchObject({
      status: 400,
      name: 'ValidationError',
      details: { errors: [{ path: ['data', 'name'], message: 'must not hold NUL characters or unpaired surrogates' }] },
    });
    expect(await countOf('api::author.author')).toBe(authors);
  });

  it('are refused in a query string too, where PostgreSQL would fail comparing with them', async () => {
    const response = await app.request().get('/api/articles?filters[title][$eq]=a%00b');
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({
      status: 400,
      name: 'ValidationError',
      message: 'filters.title.$eq: must not hold NUL characters or unpaired surrogates',
    });
    const v1 = await app.request().get('/api/v1/scrapers?page=%00').set(bearer(alice));
    expect(v1.status).toBe(400);
    expect(v1.body.error.code).toBe('validation_error');
  });

  it('lets a well-formed pair through (an emoji)', async () => {
    const key = await app.request().post('/api/v1/keys').set(bearer(alice)).send({ name: 'laptop \uD83D\uDE80' });
    expect(key.status).toBe(201);
    expect(key.body.data.name).toBe('laptop 🚀');
  });
});

describe('deeply nested JSON', () => {
  /** `[[[…]]]`, `levels` arrays deep: 8,000 in 16 KB overflow the stack of any recursive walk. */
  const nested = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);
  const post = (path: string, body: string) => app.request().post(path).set('Content-Type', 'application/json').send(body);
  const TOO_DEEP = 'must not be nested more than 64 levels deep';

  it("is refused with 400 on every family's routes, in its shape, never a 500, storing nothing", async () => {
    const keys = await countOf(UIDS.apiKey);
    const key = await post('/api/v1/keys', `{"name":${nested(8_000)}}`).set(bearer(alice));
    expect(key.status).toBe(400);
    expect(key.body).toEqual({
      error: { code: 'validation_error', message: `name: ${TOO_DEEP}`, details: [{ field: 'name', message: TOO_DEEP }] },
    });
    const whole = await post('/api/v1/keys', nested(8_000)).set(bearer(alice));
    expect(whole.status).toBe(400);
    expect(whole.body.error).toMatchObject({ code: 'validation_error', message: `0: ${TOO_DEEP}` });
    expect(await countOf(UIDS.apiKey)).toBe(keys);

    const hook = await post('/api/webhooks/subscriptions', `{"endpoint_url":"http://127.0.0.1:9/","events":${nested(8_000)}}`).set(
      bearer(alice)
    );
    expect(hook.status).toBe(400);
    expect(hook.body).toEqual({
      error: `events: ${TOO_DEEP}`,
      code: 'validation_error',
      details: [{ field: 'events', message: TOO_DEEP }],
    });

    const token = await post('/api/v1/oauth/token', `{"grant_type":${nested(8_000)}}`);
    expect(token.status).toBe(400);
    expect(token.body).toEqual({ error: 'invalid_request', error_description: `grant_type: ${TOO_DEEP}` });

    const cart = await post('/api/checkout', `{"items":${nested(8_000)}}`).set(bearer(alice));
    expect(cart.status).toBe(400);
    expect(cart.body.errors[0]).toMatchObject({ message: `items: ${TOO_DEEP}` });

    // Strapi's own content API, before any permission is looked at, and with one that may write.
    const strapiBody = {
      data: null,
      error: {
        status: 400,
        name: 'ValidationError',
        message: `data: ${TOO_DEEP}`,
        details: { errors: [{ path: ['data'], message: TOO_DEEP, name: 'ValidationError' }] },
      },
    };
    const anonymous = await post('/api/articles', `{"data":${nested(8_000)}}`);
    expect({ status: anonymous.status, body: anonymous.body }).toEqual({ status: 400, body: strapiBody });
    const authors = await countOf('api::author.author');
    const token2 = await fullAccessToken(app);
    const author = await post('/api/authors', `{"data":{"name":"x","bio":${nested(8_000)}}}`).set('Authorization', `Bearer ${token2}`);
    expect(author.status).toBe(400);
    expect(author.body.error).toMatchObject({ status: 400, name: 'ValidationError', message: `data: ${TOO_DEEP}` });
    const update = await app
      .request()
      .put('/api/authors/anything')
      .set('Authorization', `Bearer ${token2}`)
      .set('Content-Type', 'application/json')
      .send(`{"data":${nested(8_000)}}`);
    expect(update.status).toBe(400);
    expect(await countOf('api::author.author')).toBe(authors);
  });

  it('lets 64 levels through to the route, which answers for itself', async () => {
    // The body's object is the first level: its field holds 63 more.
    const atLimit = await post('/api/v1/keys', `{"name":${nested(63)}}`).set(bearer(alice));
    expect(atLimit.status).toBe(400);
    expect(atLimit.body.error.message).not.toContain('nested');
    const beyond = await post('/api/v1/keys', `{"name":${nested(64)}}`).set(bearer(alice));
    expect(beyond.body.error.message).toBe(`name: ${TOO_DEEP}`);
    // Strapi's own validation of a content write takes 64 levels without a 500 either.
    const token = await fullAccessToken(app);
    const authors = await countOf('api::author.author');
    const author = await post('/api/authors', `{"data":{"name":${nested(62)}}}`).set('Authorization', `Bearer ${token}`);
    expect(author.status).toBe(400);
    expect(author.body.error.message).not.toContain('nested');
    expect(await countOf('api::author.author')).toBe(authors);
  });
});

describe('scraper headers', () => {
  it.each(['host', 'Transfer-Encoding', 'expect', 'upgrade', 'keep-alive', 'Webhook_Signature', 'content_type'])(
    'refuses %s as webhooks do',
    async (name) => {
      const response = await app
        .request()
        .post('/api/v1/scrapers')
        .set(bearer(alice))
        .send({ name: 'h', url: 'https://example.com/', headers: { [name]: 'x' } });
      expect(response.status).toBe(400);
      expect(response.body.error.details).toEqual(expect.arrayContaining([expect.objectContaining({ field: 'headers' })]));
    }
  );

  it('refuses Webhook_Signature on a webhook subscription too', async () => {
    const response = await app
      .request()
      .post('/api/webhooks/subscriptions')
      .set(bearer(alice))
      .send({ endpoint_url: 'http://127.0.0.1:9/', events: ['*'], headers: { Webhook_Signature: 'v1,forged' } });
    expect(response.status).toBe(400);
  });
});

describe('the request log', () => {
  it('never holds an API key sent in the query string', async () => {
    const issued = await issueKey(app, alice);
    expect((await app.request().get(`/api/v1/keys?api_key=${issued.key}`)).status).toBe(200);
    await app.request().get('/api/v1/keys?api_key=sk_not_a_real_key_but_secret_anyway');
    // Both requests' lines, however their query reads.
    await eventually(
      () => ((log.match(/GET \/api\/v1\/keys\?api_key=/g) ?? []).length >= 2 ? true : undefined),
      5_000,
      'both requests logged'
    );
    expect(log).toContain(`GET /api/v1/keys?api_key=[redacted]`);
    expect(log).not.toContain(issued.key);
    expect(log).not.toContain(issued.key.slice(8));
    expect(log).not.toContain('sk_not_a_real_key_but_secret_anyway');
  });
});
