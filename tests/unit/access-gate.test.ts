import type { Core } from '@strapi/strapi';
import type { Context } from 'koa';
import accessService from '../../src/plugins/api-suite/server/src/features/access/services/access';
import { errors as strapiErrors } from '@strapi/utils';
import { ApiError, bodyParserError, faultStatus } from '../../src/plugins/api-suite/server/src/http/errors';

/**
 * The access gate's answer to the body parser's refusals (strapi::body runs inside it): each one
 * the family's own, as `bodyParserError` names it, on `/api/v1` (nested) and `/api/webhooks` (flat).
 * A body cut short (`request.size.invalid`, `request.aborted`) is one of them.
 */
const SHARED_KEY = 'shared-key-for-unit-tests-0123456789';

const strapi = {
  config: { get: () => ({ access: { routePrefixes: ['/api/v1', '/api/webhooks'], sharedKey: SHARED_KEY } }) },
  plugin: () => ({ service: () => ({ apiRequest: () => undefined }) }),
} as unknown as Core.Strapi;

interface Answer {
  status: number;
  body: unknown;
}

async function answerTo(path: string, fault: unknown): Promise<Answer> {
  const headers: Record<string, string> = { 'x-api-key': SHARED_KEY };
  const ctx = {
    method: 'POST',
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

describe('the access gate and the body parser', () => {
  it.each(FAULTS.map((fault) => [(fault as { type?: string }).type ?? fault.name, fault] as const))(
    'answers %s in the /api/v1 shape, as bodyParserError names it',
    async (_type, fault) => {
      const expected = bodyParserError(fault);
      expect(expected).toBeDefined();
      expect(await answerTo('/api/v1/keys', fault)).toEqual({
        status: expected?.status,
        body: { error: { code: expected?.code, message: expected?.message } },
      });
    }
  );

  it.each(FAULTS.map((fault) => [(fault as { type?: string }).type ?? fault.name, fault] as const))(
    'answers %s in the flat /api/webhooks shape',
    async (_type, fault) => {
      const expected = bodyParserError(fault);
      expect(await answerTo('/api/webhooks/subscriptions', fault)).toEqual({
        status: expected?.status,
        body: { error: expected?.message, code: expected?.code },
      });
    }
  );

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
