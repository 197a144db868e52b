import { randomUUID } from 'node:crypto';
import type { Context, Next } from 'koa';
import { redactSecrets } from '../../../http/redact';
import { describeRequestSpan } from '../tracing/http';

/** A caller's id is kept when it is plain enough to log and to search for (docs/operations.md#request-ids). */
const SAFE_REQUEST_ID = /^[A-Za-z0-9._-]{8,128}$/;

export const REQUEST_ID_HEADER = 'X-Request-Id';

/** The caller's id when it is safe (and is not an API key, which would then be logged), else a new one. */
export function requestIdOf(sent: string | undefined): string {
  if (sent !== undefined && SAFE_REQUEST_ID.test(sent) && redactSecrets(sent) === sent) return sent;
  return randomUUID();
}

/**
 * The first middleware of every request (the plugin puts it in front of the site's own list):
 * every answer carries `X-Request-Id`, and the request's log lines carry the same id
 * (`ctx.state.requestId`, read by the log format through Strapi's request context), and so
 * does the request's span when tracing is on.
 */
export async function requestId(ctx: Context, next: Next): Promise<void> {
  const id = requestIdOf(ctx.get(REQUEST_ID_HEADER) || undefined);
  ctx.state.requestId = id;
  ctx.set(REQUEST_ID_HEADER, id);
  try {
    await next();
  } catch (error) {
    // Koa drops the answer's headers on an error that reaches it, keeping only the error's own.
    if (typeof error === 'object' && error !== null) {
      const withHeaders = error as { headers?: Record<string, string> };
      withHeaders.headers = { ...withHeaders.headers, [REQUEST_ID_HEADER]: id };
    }
    throw error;
  } finally {
    describeRequestSpan((ctx as Context & { _matchedRoute?: string })._matchedRoute, id);
  }
}
