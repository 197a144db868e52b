import type { Core } from '@strapi/strapi';
import type { Context } from 'koa';
import { ZodError } from 'zod';
import { readDeleteBody } from './delete-body';
import { ApiError } from './errors';

/** Anything that turns raw input into a typed value or throws: a zod schema, or a function like `parseCheckout`. */
export interface Parser<T = unknown> {
  parse(value: unknown): T;
}

/**
 * Finds what a route's path names, from its parsed params: the row (or rows) the handler works on,
 * or a 404 (an ApiError) when there is none or the caller may not reach it.
 */
export type Loader<P = never, R = unknown> = (ctx: Context, params: P) => Promise<R>;

/**
 * What a route takes, in the order it is read (the rule every route follows):
 *
 * 1. `before`: the check of who may call (a shared key's 403 comes before anything else);
 * 2. `params`: the path's parameters; a route whose path names a row answers a bad id as a
 *    missing row, with `notFound` as that 404's message ("API key not found");
 * 3. `load`: the row the path names, found (or 404) before anything else is read, so a missing
 *    row is a 404 whatever the query and the body hold;
 * 4. `query`, then `body`: a bad one is a 400.
 *
 * `deferred` names parts read only when the handler first asks for them: those read after a check
 * that needs the server and is not a row (billing's 503, an empty cart's own 400).
 */
export interface RouteInput {
  before?: (ctx: Context) => void;
  params?: Parser;
  load?: Loader;
  query?: Parser;
  body?: Parser;
  notFound?: string;
  deferred?: ReadonlyArray<'query' | 'body'>;
}

type Part = 'params' | 'query' | 'body';
type Output<P> = P extends Parser<infer T> ? T : never;

/** The typed values of a route's input, one per parser it names, and `row`, what its `load` found. */
export type Input<S extends RouteInput> = { [K in Part as S[K] extends Parser ? K : never]: Output<S[K]> } & (S['load'] extends Loader<
  never,
  infer R
>
  ? { row: R }
  : unknown);

/**
 * Names a route's input; `const` keeps each parser's own output type for `input()`, and `load`
 * is checked against what `params` parses to.
 */
export const routeInput = <const S extends RouteInput>(
  schemas: S & (S extends { load: Loader<infer P> } ? { params: Parser<P> } : unknown)
): S => schemas;

const parsed = new WeakMap<Context, { schemas: RouteInput; values: Record<string, unknown> }>();

/** The raw value of each part, as the parsers read it (a missing body is `{}`). */
const raw = {
  params: (ctx: Context): unknown => ctx.params ?? {},
  query: (ctx: Context): unknown => ctx.query,
  body: (ctx: Context): unknown => ctx.request.body ?? {},
};

/**
 * The route-config middleware that reads a route's input before its handler, in the order of
 * `RouteInput`: params (a bad one is the route's 404 when it names a row), the row they name
 * (`load`, 404 when missing), then the query, then the body. A failure is a
 * ZodError (or the parser's own ApiError), which the family's error middleware, listed before
 * this one, answers as the 400 the route has always given.
 */
export function validate(schemas: RouteInput): Core.MiddlewareHandler {
  return async (ctx, next) => {
    schemas.before?.(ctx);
    // A DELETE that takes a body: Strapi's parser leaves it unread.
    if (schemas.body) await readDeleteBody(ctx);
    const values: Record<string, unknown> = {};
    if (schemas.params) {
      try {
        values.params = schemas.params.parse(ctx.params ?? {});
      } catch (error) {
        if (schemas.notFound === undefined || !(error instanceof ZodError)) throw error;
        throw new ApiError(404, 'not_found', schemas.notFound);
      }
    }
    if (schemas.load) values.row = await (schemas.load as Loader<unknown>)(ctx, values.params);
    for (const part of ['query', 'body'] as const) {
      const parser = schemas[part];
      if (parser && !schemas.deferred?.includes(part)) values[part] = parser.parse(raw[part](ctx));
    }
    parsed.set(ctx, { schemas, values });
    await next();
  };
}

/**
 * The handler's typed input, as `validate(schemas)` in its route's config parsed it; a deferred
 * part is parsed when first read (destructure only what is needed at that point). Asking with
 * other schemas than the route names is a programming error, not a request's.
 */
export function input<S extends RouteInput>(ctx: Context, schemas: S): Input<S> {
  const entry = parsed.get(ctx);
  if (entry?.schemas !== schemas) {
    throw new Error(
      `api-suite: ${ctx.method} ${ctx.path} reads input its route does not validate: add validate(...) to its config.middlewares`
    );
  }
  const { values } = entry;
  const view: Record<string, unknown> = 'row' in values ? { row: values.row } : {};
  for (const part of ['params', 'query', 'body'] as const) {
    const parser = schemas[part];
    if (!parser) continue;
    Object.defineProperty(view, part, {
      enumerable: true,
      get: () => {
        if (!(part in values)) values[part] = parser.parse(raw[part](ctx));
        return values[part];
      },
    });
  }
  return view as Input<S>;
}
