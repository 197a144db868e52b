import type { IncomingMessage } from 'node:http';
import type { Core } from '@strapi/strapi';
import type { Context } from 'koa';
import { bodyParserError, errorListBody } from '../../../http/errors';
import { apiPathOf } from '../../../http/site-paths';

/** Where the exact bytes of a Stripe webhook request are kept for the signature check. */
export const RAW_BODY = Symbol.for('api-suite.rawBody');
/** koa-body's own key, present when a site turned on `includeUnparsed` for every route. */
const KOA_BODY_UNPARSED = Symbol.for('unparsedBody');

export const STRIPE_WEBHOOK_PATH = '/api/webhook/stripe';
const COMMERCE_PATHS = ['/api/checkout', '/api/reports', '/api/search'];

/**
 * `plugin::api-suite.commerce-body`: enabled in config/middlewares.ts just before `strapi::body`.
 *
 * Stripe signs the exact bytes it sends, but `strapi::body` (required by Strapi, so it cannot be
 * swapped out) parses every body and keeps only the result. For `POST /api/webhook/stripe` only,
 * this middleware records the chunks the body parser reads from the request as it reads them (by
 * observing the request's own `data` events, which neither consumes the stream nor changes its
 * flow), so nothing is read twice and no other route keeps its raw body.
 *
 * It also answers the body parser's refusals (malformed JSON, oversized bodies) on the commerce
 * routes in their own error shapes rather than Strapi's generic one.
 */
export const commerceBody = (_config: unknown, { strapi }: { strapi: Core.Strapi }): Core.MiddlewareHandler => {
  return async (ctx, next) => {
    // By the API path: the site's REST prefix written as /api, in lower case (http/site-paths.ts).
    const apiPath = apiPathOf(strapi, ctx as Context);
    if (apiPath === undefined) return next();
    const path = trimSlash(apiPath);
    const stripe = path === STRIPE_WEBHOOK_PATH;
    if (!stripe && !COMMERCE_PATHS.some((prefix) => path === prefix || path.startsWith(`${prefix}/`))) return next();

    if (stripe && ctx.method === 'POST') {
      const encoding = ctx.get('content-encoding');
      if (encoding && encoding.toLowerCase() !== 'identity') {
        // The signature covers the bytes as sent; Stripe never compresses its webhooks.
        ctx.status = 415;
        ctx.body = { error: 'Compressed request bodies are not accepted' };
        return;
      }
      keepRawBody(ctx);
    }

    try {
      await next();
    } catch (caught) {
      // Only a refusal of the parser itself: it leaves no body behind, a route always has one.
      const refusal = ctx.request.body === undefined ? bodyParserError(caught) : undefined;
      if (!refusal) throw caught;
      ctx.status = refusal.status;
      ctx.body = stripe ? { error: refusal.message } : errorListBody(refusal);
    }
  };
};

/**
 * The raw body of a Stripe webhook request: what this middleware recorded, or koa-body's copy
 * when a site turned `includeUnparsed` on; null when neither is there (the middleware is not
 * enabled), which the route reports as a configuration error.
 */
export function rawBodyOf(ctx: Context): Buffer | null {
  const kept = (ctx.request as unknown as Record<symbol, (() => Buffer) | undefined>)[RAW_BODY];
  if (kept) return kept();
  const body = ctx.request.body as Record<symbol, unknown> | undefined;
  const unparsed = body && typeof body === 'object' ? body[KOA_BODY_UNPARSED] : undefined;
  return typeof unparsed === 'string' ? Buffer.from(unparsed, 'utf8') : null;
}

function keepRawBody(ctx: Context): void {
  const req = ctx.req as IncomingMessage & { emit: IncomingMessage['emit'] };
  const chunks: Buffer[] = [];
  const emit = req.emit;
  const ownEmit = Object.prototype.hasOwnProperty.call(req, 'emit');
  // An own property shadowing the prototype's emit for this one request; removed at the end.
  req.emit = function observed(this: IncomingMessage, event: string | symbol, ...args: unknown[]): boolean {
    if (event === 'data') {
      const chunk = args[0];
      chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk), 'utf8'));
    }
    return emit.call(this, event, ...args);
  } as IncomingMessage['emit'];
  const restore = () => {
    if (ownEmit) req.emit = emit;
    else delete (req as Partial<IncomingMessage>).emit;
  };
  req.once('end', restore);
  req.once('close', restore);
  (ctx.request as unknown as Record<symbol, () => Buffer>)[RAW_BODY] = () => Buffer.concat(chunks);
}

function trimSlash(path: string): string {
  return path.length > 1 ? path.replace(/\/+$/, '') : path;
}
