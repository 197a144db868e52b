import type { Core } from '@strapi/strapi';
import type { Context } from 'koa';
import accessService from '../../src/plugins/api-suite/server/src/features/access/services/access';
import { oauthErrors } from '../../src/plugins/api-suite/server/src/features/access/middlewares/oauth-errors';
import { DependencyUnavailableError } from '../../src/plugins/api-suite/server/src/dependencies';
import { errors as strapiErrors } from '@strapi/utils';
import { ApiError, bodyParserError, errorMiddlewares, faultStatus } from '../../src/plugins/api-suite/server/src/http/errors';

/**
 * The access gate's answer to the body parser's refusals (strapi::body runs inside it) and to a
 * dependency's fault: each in the error shape of the family of the route the request reaches,
 * as its error middleware declares it, whatever the route's URL: `/api/v1` (nested),
 * `/api/webhooks` (flat), the token route (RFC 6749). Its own refusals keep the nested shape,
 * but on the token route. A body cut short (`request.size.invalid`, `request.aborted`) is one of them.
 */
const SHARED_KEY = 'shared-key-for-unit-tests-0123456789';

/** A route table as the plugin declares it, with two routes put in the family their URL does not promise. */
const ROUTES = [
  { method: 'POST', path: '/v1/keys', family: 'nested-errors' },
  { method: 'POST', path: '/webhooks/subscriptions', family: 'flat-errors' },
  { method: 'POST', path: '/v1/oauth/token', family: 'oauth-errors' },
  { method: 'POST', path: '/webhooks/misplaced', family: 'nested-errors' },
  { method: 'POST', path: '/v1/misplaced', family: 'flat-errors' },
].map(({ method, path, family }) => ({
  method,
  path,
  handler: 'x.y',
  config: { auth: false, prefix: '', middlewares: ['plugin::api-suite.access-guard', `plugin::api-suite.${family}`] },
}));

const MIDDLEWARES: Record<string, unknown> = {
  'plugin::api-suite.nested-errors': errorMiddlewares['nested-errors'],
  'plugin::api-suite.flat-errors': errorMiddlewares['flat-errors'],
  'plugin::api-suite.oauth-errors': oauthErrors,
  'plugin::api-suite.access-guard': () => undefined,
};

/** Strapi's router as `match` answers: the routes on the path, and those of the method among them. */
const LAYERS = ROUTES.map((route) => ({ path: `/api${route.path}`, methods: [route.method] }));
const router = {
  match: (path: string, method: string) => {
    const onPath = LAYERS.filter((layer) => layer.path === path);
    return { path: onPath, pathAndMethod: onPath.filter((layer) => layer.methods.includes(method)) };
  },
};

const strapi = {
  config: { get: () => ({ access: { routePrefixes: ['/api/v1', '/api/webhooks'], sharedKey: SHARED_KEY } }) },
  plugin: () => ({ service: () => ({ apiRequest: () => undefined }), routes: { 'content-api': { routes: ROUTES } } }),
  middleware: (name: string) => MIDDLEWARES[name],
  server: { router },
} as unknown as Core.Strapi;

interface Answer {
  status: number;
  body: unknown;
}

async function answerTo(path: string, fault: unknown, request: { method?: string; credential?: boolean } = {}): Promise<Answer> {
  const headers: Record<string, string> = request.credential === false ? {} : { 'x-api-key': SHARED_KEY };
  const ctx = {
    method: request.method ?? 'POST',
    path,
    query: {},
    state: {},
    status: 404,
    body: undefined as unknown,
    get: (name: string) => headers[name.toLowerCase()] ?? '',
    set: () => undefined,
  };
  await accessService({ strapi }).handle(ctx as unknown as Context, async () => {
    throw fault;
  });
  return { status: ctx.status, body: ctx.body };
}

/** What raw-body and co-body throw: an http-errors error with a `type`. */
const parserFault = (type: string, status: number, message: string) => Object.assign(new Error(message), { type, status, expose: true });

const FAULTS = [
  parserFault('entity.parse.failed', 400, 'Unexpected end of JSON input'),
  Object.assign(new SyntaxError('Unexpected token } in JSON'), { status: 400 }),
  parserFault('entity.too.large', 413, 'request entity too large'),
  parserFault('encoding.unsupported', 415, 'unsupported content encoding "br2"'),
  parserFault('charset.unsupported', 415, 'unsupported charset "KOI9"'),
  parserFault('request.size.invalid', 400, 'request size did not match content length'),
  parserFault('request.aborted', 400, 'request aborted'),
];
const EACH_FAULT = FAULTS.map((fault) => [(fault as { type?: string }).type ?? fault.name, fault] as const);

const nested = (error: ApiError) => ({ error: { code: error.code, message: error.message } });
const flat = (error: ApiError) => ({ error: error.message, code: error.code });

describe('the access gate and the body parser', () => {
  it.each(EACH_FAULT)('answers %s in the /api/v1 shape, as bodyParserError names it', async (_type, fault) => {
    const expected = bodyParserError(fault) as ApiError;
    expect(expected).toBeDefined();
    expect(await answerTo('/api/v1/keys', fault)).toEqual({ status: expected.status, body: nested(expected) });
  });

  it.each(EACH_FAULT)('answers %s in the flat /api/webhooks shape', async (_type, fault) => {
    const expected = bodyParserError(fault) as ApiError;
    expect(await answerTo('/api/webhooks/subscriptions', fault)).toEqual({ status: expected.status, body: flat(expected) });
  });

  it.each(EACH_FAULT)("answers %s in the token route's RFC 6749 shape", async (_type, fault) => {
    const expected = bodyParserError(fault) as ApiError;
    expect(await answerTo('/api/v1/oauth/token', fault, { credential: false })).toEqual({
      status: expected.status,
      body: { error: 'invalid_request', error_description: expected.message },
    });
  });

  it('answers a body cut short with 400 invalid_body', async () => {
    expect(await answerTo('/api/v1/keys', parserFault('request.aborted', 400, 'request aborted'))).toEqual({
      status: 400,
      body: { error: { code: 'invalid_body', message: 'The request body was incomplete' } },
    });
  });

  it("leaves any other fault to Strapi's error middleware", async () => {
    const fault = new Error('the database went away');
    await expect(answerTo('/api/v1/keys', fault)).rejects.toBe(fault);
  });
});

describe("the shape is the route family's, not the URL's", () => {
  const unparsable = parserFault('entity.parse.failed', 400, 'Unexpected end of JSON input');
  const invalidBody = bodyParserError(unparsable) as ApiError;

  it('follows the family a route is put in, wherever its URL points', async () => {
    expect((await answerTo('/api/webhooks/misplaced', unparsable)).body).toEqual(nested(invalidBody));
    expect((await answerTo('/api/v1/misplaced', unparsable)).body).toEqual(flat(invalidBody));
  });

  it("answers a dependency's fault in the family's shape, with its 503", async () => {
    const away = new DependencyUnavailableError('database');
    const refusal = { code: 'dependency_unavailable', message: away.message } as ApiError;
    expect(await answerTo('/api/webhooks/subscriptions', away)).toEqual({ status: 503, body: flat(refusal) });
    expect(await answerTo('/api/v1/keys', away)).toEqual({ status: 503, body: nested(refusal) });
    expect(await answerTo('/api/v1/oauth/token', away, { credential: false })).toEqual({
      status: 503,
      body: { error: 'temporarily_unavailable', error_description: away.message },
    });
  });

  it('keeps its own refusals in the /api/v1 shape, but on the token route, whose family takes them', async () => {
    const required = { error: { code: 'api_key_required', message: expect.any(String) } };
    expect(await answerTo('/api/webhooks/subscriptions', unparsable, { credential: false })).toEqual({ status: 401, body: required });
    expect(await answerTo('/api/v1/misplaced', unparsable, { credential: false })).toEqual({ status: 401, body: required });
    // GET on the token route is not the open POST: refused for its missing key, in the route's body.
    expect(await answerTo('/api/v1/oauth/token', unparsable, { method: 'GET', credential: false })).toEqual({
      status: 401,
      body: { error: 'invalid_request', error_description: expect.stringMatching(/^An API key is required/) },
    });
  });

  it('answers in the /api/v1 shape where no route of the plugin answers the path', async () => {
    expect((await answerTo('/api/webhooks/nobody-here', unparsable)).body).toEqual(nested(invalidBody));
  });
});

describe('faultStatus', () => {
  it("is the status Strapi's error middleware answers a fault with, which usage records then hold", () => {
    expect(faultStatus(new Error('a crash'))).toBe(500);
    expect(faultStatus(new TypeError("Cannot read properties of undefined (reading 'id')"))).toBe(500);
    expect(faultStatus('thrown text')).toBe(500);
    expect(faultStatus(Object.assign(new Error('no such thing'), { status: 404 }))).toBe(404);
    expect(faultStatus(Object.assign(new Error('upstream'), { statusCode: 503 }))).toBe(503);
    expect(faultStatus(Object.assign(new Error('not an HTTP status'), { status: 200 }))).toBe(500);
    expect(faultStatus(new strapiErrors.ForbiddenError())).toBe(403);
    expect(faultStatus(new strapiErrors.NotFoundError())).toBe(404);
    expect(faultStatus(new strapiErrors.ValidationError('bad'))).toBe(400);
    expect(faultStatus(new strapiErrors.PolicyError())).toBe(403);
    expect(faultStatus(new ApiError(409, 'conflict', 'taken'))).toBe(409);
  });
});
