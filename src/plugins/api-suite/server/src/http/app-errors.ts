import type { Core } from '@strapi/strapi';

/** How a client's leaving shows up: the socket reset or closed under a response still being written. */
const CLIENT_GONE = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED', 'ERR_STREAM_PREMATURE_CLOSE', 'ERR_STREAM_DESTROYED']);

interface KoaError extends Error {
  code?: string;
  status?: number;
  expose?: boolean;
}

interface ErrorContext {
  method?: string;
  path?: string;
}

/**
 * Koa's app-level errors through Strapi's logger. Koa reports there what goes wrong with a request
 * outside the middlewares, such as a client resetting its connection in the middle of a usage
 * stream, and its own handler (`app.onerror`) prints the stack with console.error: plain text
 * that breaks `LOG_FORMAT=json` (one JSON object a line) and skips the redaction of API keys.
 * That handler is replaced, so the logger writes such errors in the configured format: a client
 * that went away at debug level (no fault of the server's, and the request's own log line is
 * written), anything else as an error. Like Koa, a 404 or an error meant for the client
 * (`expose`) is not logged.
 *
 * Replaced rather than joined by a listener of our own: Koa's default listener is `app.onerror`,
 * and the upload plugin's listener calls `app.onerror` too (for all but EPIPE), so a second
 * listener would still leave their printing. Set in the plugin's register, before Koa builds its
 * request handler at the first request.
 */
export function logAppErrors(strapi: Core.Strapi): void {
  const app = strapi.server.app as unknown as { onerror: (error: KoaError, ctx?: ErrorContext) => void };
  app.onerror = (error, ctx) => {
    if (error.status === 404 || error.expose) return;
    const request = ctx?.method && ctx.path ? `${ctx.method} ${ctx.path}: ` : '';
    if (error.code && CLIENT_GONE.has(error.code)) {
      strapi.log.debug(`[api-suite] ${request}the client went away (${error.message})`);
      return;
    }
    strapi.log.error(error);
  };
}
