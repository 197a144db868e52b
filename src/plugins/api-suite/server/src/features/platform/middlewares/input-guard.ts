import type { Core } from '@strapi/strapi';
import type { Context } from 'koa';
import { routeFamilies } from '../../../http/api-routes';
import { FieldsInvalidError, NotJsonError, STRAPI_FAMILY, strapiErrorBody, type ApiError, type FamilyShape } from '../../../http/errors';
import { NestedFilterOperatorError, NotJsonOrFormError } from '../errors';
import { apiPathOf } from '../../../http/site-paths';
import { badFilterAt, inputProblemAt, MAX_NESTING, type InputProblem } from './hostile-input';

/**
 * `plugin::api-suite.input-guard`, enabled in config/middlewares.ts right after `strapi::body`:
 * what no route should ever see, refused before any route runs, in the route family's own error
 * shape, with nothing stored.
 *
 * - A write to a JSON route whose body is not JSON (or has no Content-Type): 415. The body
 *   parser would have left it unparsed, and the route would have gone on as if nothing was sent.
 *   Users-permissions' `/api/auth/*` routes take JSON or a form; anything else is a 400 there.
 * - A string holding NUL or an unpaired UTF-16 surrogate anywhere in a parsed body or in the
 *   query string: 400.
 *   PostgreSQL cannot store NUL in text, and a lone surrogate is not text at all.
 * - Objects and arrays nested more than `MAX_NESTING` (64) deep in a parsed body or the query
 *   string: 400. What comes after (zod, Strapi's sanitizers, `JSON.stringify`) recurses, and a
 *   few thousand levels, a few kilobytes of `[[[…]]]`, would overflow its stack: a 500.
 * - On Strapi's content API, a filter operator whose value is itself an object of operators
 *   (`filters[title][$eq][$ne]=x`): 400 instead of the query engine's 500.
 */
export const inputGuard = (_config: unknown, { strapi }: { strapi: Core.Strapi }): Core.MiddlewareHandler => {
  const familyOf = routeFamilies(strapi);
  return async (ctx, next) => {
    // By the API path: the site's REST prefix written as /api, in lower case (http/site-paths.ts).
    const apiPath = apiPathOf(strapi, ctx as Context);
    // The family of the route the request will reach, as the access guard finds it: Strapi's own
    // and the site's routes (and paths nobody serves) answer as Strapi does. Matched with the
    // router only when a check needs it: a plain read (no query problem, no filters) needs none.
    let found: FamilyShape | undefined;
    const family = (): FamilyShape =>
      (found ??= (apiPath === undefined ? undefined : familyOf(ctx.method, ctx.path)) ?? { ...STRAPI_FAMILY, body: strapiErrorBody });
    const refusal = refusalOf(ctx as Context, family, apiPath);
    if (!refusal) return next();
    ctx.status = refusal.status;
    ctx.body = family().body(refusal);
  };
};

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

function refusalOf(ctx: Context, familyOf: () => FamilyShape, apiPath: string | undefined): ApiError | undefined {
  // PostgreSQL cannot compare with NUL either: a query parameter holding one is refused on every
  // route but Stripe's webhook, which verifies its raw body's signature: nothing to look into before it.
  const inQuery = inputProblemAt(ctx.query);
  if (inQuery !== undefined) return familyOf().accepts === 'raw' ? undefined : refusalFor(inQuery, familyOf());
  const filters = (ctx.query as Record<string, unknown>).filters;
  if (ctx.method === 'GET' && filters !== undefined && apiPath?.startsWith('/api/') && familyOf().body === strapiErrorBody) {
    const at = badFilterAt(filters);
    return at === undefined ? undefined : new NestedFilterOperatorError(at);
  }
  if (!WRITES.has(ctx.method)) return undefined;
  const family = familyOf();
  if (family.accepts === 'raw') return undefined;

  const hasBody = Number(ctx.get('content-length') || 0) > 0 || ctx.get('transfer-encoding') !== '';
  if (hasBody) {
    // users-permissions' /api/auth/* routes take JSON or a form too.
    const accepts = apiPath?.startsWith('/api/auth/') === true ? 'json-or-form' : (family.accepts ?? 'json');
    if (accepts === 'json-or-form' && !ctx.request.is('json', 'urlencoded')) {
      return new NotJsonOrFormError(validationCodeOf(family));
    }
    if (accepts === 'json' && !ctx.request.is('json')) {
      return new NotJsonError();
    }
  }
  const inBody = inputProblemAt((ctx.request as { body?: unknown }).body);
  return inBody === undefined ? undefined : refusalFor(inBody, family);
}

const validationCodeOf = (family: FamilyShape): string => family.validationCode ?? 'validation_error';

/**
 * The 400 for a NUL or an unpaired surrogate, or for nesting too deep, at the problem's field,
 * coded as the family codes validation errors.
 */
function refusalFor(problem: InputProblem, family: FamilyShape): ApiError {
  const field = problem.at === '' ? '(body)' : problem.at;
  const message =
    problem.kind === 'character'
      ? 'must not hold NUL characters or unpaired surrogates'
      : `must not be nested more than ${MAX_NESTING} levels deep`;
  return new FieldsInvalidError([{ field, message }], validationCodeOf(family));
}
