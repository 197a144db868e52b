import type { Core } from '@strapi/strapi';
import type { Context } from 'koa';
import { ZodError } from 'zod';
import { readDeleteBody } from './delete-body';
import { NotFoundError } from '../errors';

/** Anything that turns raw input into a typed value or throws: a zod schema, or a function like `parseCheckout`. */
export interface Parser<T = unknown> {
  parse(value: unknown): T;
  /**
   * For a parser that wraps its route contract's schema with a rule of the server's (how the first
   * problem is worded, a code of its own), the schema it parses with: the contract names it.
   */
  of?: unknown;
}

/**
 * Finds what a route works on before its query and body are read: the row (or rows) its path
 * names, from its parsed params, or a 404 (an ApiError) when there is none or the caller may not
 * reach it; or, on a route whose path names nothing, who it acts for once the server can serve
 * them (checkout's buyer from their token: 401; billing's buyer: 503 while billing is off).
 */
export type Loader<P = never, R = unknown> = (ctx: Context, params: P) => Promise<R>;

/**
 * What a route takes, in the order it is read (the rule every route follows):
 *
 * 1. `before`: the check of who may call (a shared key's 403 comes before anything else);
 * 2. `params`: the path's parameters; a route whose path names a row answers a bad id as a
 *    missing row, `notFound` naming what is missing ("API key": the 404 says "API key not found");
 * 3. `load`: the row the path names (or who the route acts for), found (or refused) before
 *    anything else is read, so a missing row is a 404 whatever the query and the body hold;
 * 4. `query`, then `body`: a bad one is a 400.
 *
 * Every part is read before the handler runs, so what a handler destructures first decides nothing.
 */
export interface RouteInput {
  before?: (ctx: Context) => void;
  params?: Parser;
  load?: Loader;
  query?: Parser;
  body?: Parser;
  notFound?: string;
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

/** A loader that reads params needs the parser that makes them; one that reads none (its caller) needs none. */
type ParamsFor<S> = S extends { load: (ctx: Context, params: infer P) => unknown }
  ? unknown extends P
    ? unknown
    : { params: Parser<P> }
  : unknown;

/**
 * Names a route's input; `const` keeps each parser's own output type for `input()`, and `load`
 * is checked against what `params` parses to.
 */
export const routeInput = <const S extends RouteInput>(schemas: S & ParamsFor<S>): S => schemas;

/** The input `validate` reads for a route, kept on its middleware so the route table can be checked as a whole. */
export const ROUTE_INPUT = Symbol.for('api-suite.routeInput');

const parsed = new WeakMap<Context, { schemas: RouteInput; values: Record<string, unknown> }>();

/**
 * The route-config middleware that reads a route's input before its handler, in the order of
 * `RouteInput`: params (a bad one is the route's 404 when it names a row), the row they name
 * (`load`, 404 when missing), then the query, then the body. A failure is a
 * ZodError (or the parser's own ApiError), which the family's error middleware, listed before
 * this one, answers as the 400 the route has always given.
 */
export function validate(schemas: RouteInput): Core.MiddlewareHandler & { [ROUTE_INPUT]: RouteInput } {
  const middleware: Core.MiddlewareHandler = async (ctx, next) => {
    schemas.before?.(ctx);
    // A DELETE that takes a body: Strapi's parser leaves it unread.
    if (schemas.body) await readDeleteBody(ctx);
    const values: Record<string, unknown> = {};
    if (schemas.params) {
      try {
        values.params = schemas.params.parse(ctx.params ?? {});
      } catch (error) {
        if (schemas.notFound === undefined || !(error instanceof ZodError)) throw error;
        throw new NotFoundError(schemas.notFound);
      }
    }
    if (schemas.load) values.row = await (schemas.load as Loader<unknown>)(ctx, values.params);
    if (schemas.query) values.query = schemas.query.parse(ctx.query);
    // A missing body is read as {}.
    if (schemas.body) values.body = schemas.body.parse(ctx.request.body ?? {});
    parsed.set(ctx, { schemas, values });
    await next();
  };
  return Object.assign(middleware, { [ROUTE_INPUT]: schemas });
}

/**
 * The handler's typed input, as `validate(schemas)` in its route's config parsed it. Asking with
 * other schemas than the route names is a programming error, not a request's.
 */
export function input<S extends RouteInput>(ctx: Context, schemas: S): Input<S> {
  const entry = parsed.get(ctx);
  if (entry?.schemas !== schemas) {
    throw new Error(
      `api-suite: ${ctx.method} ${ctx.path} reads input its route does not validate: add validate(...) to its config.middlewares`
    );
  }
  return entry.values as Input<S>;
}
