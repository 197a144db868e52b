import type { Core } from '@strapi/strapi';
import type { Context } from 'koa';
import { z } from 'zod';
import {
  ApiError,
  errorFamily,
  errorListBody,
  errorMiddlewares,
  flatErrorBody,
  nestedErrorBody,
  strapiErrorBody,
} from '../../src/plugins/api-suite/server/src/http/errors';
import {
  ConflictError,
  FailedError,
  ForbiddenError,
  InvalidError,
  NotFoundError,
  UnauthenticatedError,
  UnavailableError,
  UnprocessableError,
} from '../../src/plugins/api-suite/server/src/errors';
import { input, routeInput, validate } from '../../src/plugins/api-suite/server/src/http/input';

/** Just enough of Koa's context for the route middlewares. */
function fakeContext(request: { params?: object; query?: object; body?: unknown } = {}) {
  const headers: Record<string, string> = {};
  const ctx = {
    method: 'POST',
    path: '/api/v1/things/1',
    params: request.params ?? {},
    query: request.query ?? {},
    request: { body: request.body },
    status: 404,
    body: undefined as unknown,
    set(values: Record<string, string>) {
      Object.assign(headers, values);
    },
  };
  return { ctx: ctx as unknown as Context & typeof ctx, headers };
}

const logged: string[] = [];
const strapi = { log: { error: (line: string) => logged.push(line) } } as unknown as Core.Strapi;
const run = (factory: Core.MiddlewareFactory, ctx: Context, next: () => Promise<unknown>) =>
  (factory({}, { strapi }) as (ctx: Context, next: () => Promise<unknown>) => Promise<void>)(ctx, next);

describe('errorFamily', () => {
  it("answers an ApiError in the family's shape, with its status and headers", async () => {
    const { ctx, headers } = fakeContext();
    await run(errorMiddlewares['nested-errors'], ctx, async () => {
      throw new ApiError(429, 'rate_limited', 'Slow down', undefined, { 'Retry-After': '3' });
    });
    expect(ctx.status).toBe(429);
    expect(ctx.body).toEqual({ error: { code: 'rate_limited', message: 'Slow down' } });
    expect(headers).toEqual({ 'Retry-After': '3' });
  });

  it('answers a ZodError as a 400 naming every field, in each family', async () => {
    const schema = z.object({ name: z.string(), size: z.number() });
    const failure = () => Promise.resolve(schema.parse({}));
    const fields = [
      { field: 'name', message: expect.any(String) },
      { field: 'size', message: expect.any(String) },
    ];
    const shapes: Array<[keyof typeof errorMiddlewares, (body: unknown) => void]> = [
      ['nested-errors', (body) => expect(body).toMatchObject({ error: { code: 'validation_error', details: fields } })],
      ['flat-errors', (body) => expect(body).toMatchObject({ code: 'validation_error', details: fields })],
      ['error-list', (body) => expect((body as { errors: unknown[] }).errors).toHaveLength(2)],
      ['strapi-errors', (body) => expect(body).toMatchObject({ data: null, error: { status: 400, name: 'validation_error' } })],
    ];
    for (const [name, check] of shapes) {
      const { ctx } = fakeContext();
      await run(errorMiddlewares[name], ctx, failure);
      expect(ctx.status).toBe(400);
      check(ctx.body);
    }
  });

  it('uses the same body builders as the rest of the plugin', async () => {
    const error = new ApiError(409, 'taken', 'Taken', [{ field: 'name', message: 'is taken' }]);
    const builders = {
      'nested-errors': nestedErrorBody,
      'flat-errors': flatErrorBody,
      'error-list': errorListBody,
      'strapi-errors': strapiErrorBody,
    };
    for (const [name, build] of Object.entries(builders)) {
      const { ctx } = fakeContext();
      await run(errorMiddlewares[name as keyof typeof builders], ctx, () => Promise.reject(error));
      expect(ctx.body).toEqual(build(error));
    }
  });

  it('lets any other fault through, unless the family answers faults in its own shape', async () => {
    const fault = new Error('disk on fire');
    const { ctx } = fakeContext();
    await expect(run(errorMiddlewares['nested-errors'], ctx, () => Promise.reject(fault))).rejects.toBe(fault);

    const checkout = errorFamily(errorListBody, (error, instance) => {
      instance.log.error(`failed: ${(error as Error).message}`);
      return new ApiError(500, 'checkout_failed', 'Checkout failed');
    });
    const answered = fakeContext().ctx;
    await run(checkout, answered, () => Promise.reject(fault));
    expect(answered.status).toBe(500);
    expect(answered.body).toEqual({ errors: [{ message: 'Checkout failed' }] });
    expect(logged).toContain('failed: disk on fire');
  });

  it('leaves a successful answer alone', async () => {
    const { ctx } = fakeContext();
    await run(errorMiddlewares['flat-errors'], ctx, async () => {
      ctx.status = 201;
      ctx.body = { ok: true };
    });
    expect(ctx.status).toBe(201);
    expect(ctx.body).toEqual({ ok: true });
  });
});

describe('validate and input', () => {
  const schemas = routeInput({
    params: z.object({ id: z.coerce.number().int().positive() }),
    notFound: 'Thing',
    query: z.object({ page: z.coerce.number().default(1) }),
    body: z.object({ name: z.string() }).strict(),
  });

  it('parses params, query and body before the handler, which reads them typed', async () => {
    const { ctx } = fakeContext({ params: { id: '7' }, query: { page: '2' }, body: { name: 'x' } });
    let seen: { id: number; page: number; name: string } | undefined;
    await validate(schemas)(ctx, async () => {
      const { params, query, body } = input(ctx, schemas);
      seen = { id: params.id, page: query.page, name: body.name };
    });
    expect(seen).toEqual({ id: 7, page: 2, name: 'x' });
  });

  it("answers a bad path id as the route's 404, before the query and body are looked at", async () => {
    const { ctx } = fakeContext({ params: { id: 'abc' }, query: { page: 'x' }, body: 5 });
    const handler = jest.fn();
    await expect(validate(schemas)(ctx, handler)).rejects.toMatchObject({ status: 404, code: 'not_found', message: 'Thing not found' });
    expect(handler).not.toHaveBeenCalled();
  });

  it('throws the ZodError of a bad body (the family answers it), and reads a missing body as {}', async () => {
    const { ctx } = fakeContext({ params: { id: '1' } });
    await expect(validate(schemas)(ctx, jest.fn())).rejects.toBeInstanceOf(z.ZodError);
  });

  it("runs the route's before check first", async () => {
    const before = jest.fn(() => {
      throw new ApiError(403, 'forbidden', 'No');
    });
    const { ctx } = fakeContext({ params: { id: 'abc' } });
    await expect(validate({ ...schemas, before })(ctx, jest.fn())).rejects.toMatchObject({ status: 403 });
  });

  it('reads every part before the handler, so a bad body is refused whatever the handler reads first', async () => {
    const { ctx } = fakeContext({ params: { id: '3' }, body: { nope: true } });
    const handler = jest.fn();
    await expect(validate(schemas)(ctx, handler)).rejects.toBeInstanceOf(z.ZodError);
    expect(handler).not.toHaveBeenCalled();
  });

  it('loads what a route without params works on (its caller) before the body, refusing in its own terms', async () => {
    const buying = routeInput({
      load: async (ctx: Context) => {
        if (!ctx.query.token) throw new ApiError(401, 'unauthenticated', 'Who are you?');
        return { userId: 9 };
      },
      body: schemas.body,
    });
    const anonymous = fakeContext({ body: 5 });
    await expect(validate(buying)(anonymous.ctx, jest.fn())).rejects.toMatchObject({ status: 401 });
    const { ctx } = fakeContext({ query: { token: 't' }, body: { name: 'x' } });
    let seen: { userId: number; name: string } | undefined;
    await validate(buying)(ctx, async () => {
      const { row, body } = input(ctx, buying);
      seen = { userId: row.userId, name: body.name };
    });
    expect(seen).toEqual({ userId: 9, name: 'x' });
  });

  it('loads the row the path names after the params and before the query and body: a missing row is a 404 whatever the body', async () => {
    const rows = new Map([[3, { id: 3, name: 'three' }]]);
    const loading = routeInput({
      ...schemas,
      load: async (_ctx: Context, params: { id: number }) => {
        const row = rows.get(params.id);
        if (!row) throw new NotFoundError('Thing');
        return row;
      },
    });
    const missing = fakeContext({ params: { id: '4' }, query: { page: 'x' }, body: 5 });
    await expect(validate(loading)(missing.ctx, jest.fn())).rejects.toMatchObject({ status: 404 });
    const badBody = fakeContext({ params: { id: '3' }, body: 5 });
    await expect(validate(loading)(badBody.ctx, jest.fn())).rejects.toBeInstanceOf(z.ZodError);
    const { ctx } = fakeContext({ params: { id: '3' }, body: { name: 'x' } });
    let seen: { row: { id: number; name: string }; name: string } | undefined;
    await validate(loading)(ctx, async () => {
      const { row, body } = input(ctx, loading);
      seen = { row, name: body.name };
    });
    expect(seen).toEqual({ row: { id: 3, name: 'three' }, name: 'x' });
  });

  it('refuses a handler that reads input its route does not validate', async () => {
    const { ctx } = fakeContext({ params: { id: '1' }, body: { name: 'x' } });
    const other = routeInput({ body: z.object({ name: z.string() }) });
    await validate(schemas)(ctx, async () => {
      expect(() => input(ctx, other)).toThrow(/does not validate/);
    });
    expect(() => input(fakeContext().ctx, schemas)).toThrow(/does not validate/);
  });
});

describe('domain errors', () => {
  it('carry the status their kind is given, the code and message they are thrown with, and their own name', () => {
    const cases: Array<[ApiError, number]> = [
      [new InvalidError('invalid_plan', 'Plan 9 does not exist'), 400],
      [new UnauthenticatedError('invalid_token', 'Bad token'), 401],
      [new ForbiddenError('forbidden', 'No'), 403],
      [new NotFoundError('Scraper'), 404],
      [new ConflictError('already_running', 'Busy'), 409],
      [new UnprocessableError('unknown_plan', 'Plan 9 does not exist', [{ field: 'plan_id', message: 'must be an existing plan' }]), 422],
      [new FailedError('checkout_failed', 'Checkout failed'), 500],
      [new UnavailableError('billing_not_configured', 'Off'), 503],
    ];
    for (const [error, status] of cases) {
      expect(error).toBeInstanceOf(ApiError);
      expect(error.status).toBe(status);
      expect(error.name).toBe(error.constructor.name);
    }
    expect(nestedErrorBody(new NotFoundError('Scraper'))).toEqual({ error: { code: 'not_found', message: 'Scraper not found' } });
    expect(cases[5][0].details).toEqual([{ field: 'plan_id', message: 'must be an existing plan' }]);
  });
});
