import { performance } from 'node:perf_hooks';
import type { Core } from '@strapi/strapi';
import type { Context, Next } from 'koa';
import { ApiError, faultStatus, nestedErrorBody } from '../../../http/errors';
import { recordRequest, type Counted } from '../request-record';

/**
 * What the access middleware hands the plugin's content-API auth strategy on a request to the
 * site's content API: the middleware runs before Strapi's router and cannot tell which content
 * type a path belongs to, nor what the Public role may call; the strategy runs once the route is
 * known and decides. The middleware answers the strategy's refusals in the `/api/v1` shape and
 * writes the usage record once the answer is known.
 */
export interface ContentGate {
  started: number;
  counted: Counted;
  /** Set once the strategy has decided, so a second call (Strapi's own list of strategies) decides nothing. */
  decided: boolean;
  /** The strategy's refusal, answered here. */
  refusal?: ApiError;
}

export function contentGateOf(ctx: Context): ContentGate | undefined {
  return (ctx.state as { apiSuiteContent?: ContentGate }).apiSuiteContent;
}

export async function guardContent(strapi: Core.Strapi, ctx: Context, next: Next): Promise<void> {
  const gate: ContentGate = { started: performance.now(), counted: { keyId: null, userId: null, overage: false }, decided: false };
  (ctx.state as { apiSuiteContent?: ContentGate }).apiSuiteContent = gate;
  let status: number | undefined;
  try {
    await next();
  } catch (caught) {
    if (!gate.refusal || caught !== gate.refusal) {
      // Strapi's error middleware answers it after this; the record says what it will answer.
      status = faultStatus(caught);
      throw caught;
    }
    const error = gate.refusal;
    if (error.headers) ctx.set(error.headers);
    if (error.status === 401) ctx.set('WWW-Authenticate', 'Bearer realm="api"');
    ctx.status = error.status;
    ctx.body = nestedErrorBody(error);
  } finally {
    recordRequest(strapi, ctx, gate.counted, gate.started, status ?? ctx.status);
  }
}
