import { createHash, timingSafeEqual } from 'node:crypto';
import type { Core } from '@strapi/strapi';
import type { Context } from 'koa';
import { getService } from '../../../utils';

/**
 * The operator's routes, at the root beside Strapi's own `/_health` (docs/operations.md):
 * `GET /metrics` for Prometheus and `GET /_ready` for a load balancer.
 */
export function operatorRoutes(strapi: Core.Strapi, metricsToken: string | undefined): Core.RouteInput[] {
  const routes: Core.RouteInput[] = [{ method: 'GET', path: '/_ready', handler: ready(strapi), config: { auth: false } }];
  // Without a token there is no route: /metrics answers 404 like any unknown path.
  if (metricsToken !== undefined)
    routes.push({ method: 'GET', path: '/metrics', handler: metrics(strapi, metricsToken), config: { auth: false } });
  return routes;
}

function metrics(strapi: Core.Strapi, token: string) {
  const expected = digest(token);
  return async (ctx: Context) => {
    const sent = /^Bearer (.+)$/i.exec(ctx.get('authorization'))?.[1];
    if (sent === undefined || !timingSafeEqual(digest(sent), expected)) {
      ctx.set('WWW-Authenticate', 'Bearer realm="metrics"');
      ctx.status = 401;
      ctx.body = { error: { code: 'unauthorized', message: 'Send Authorization: Bearer <METRICS_TOKEN>' } };
      return;
    }
    const { contentType, body } = await getService(strapi, 'metrics').exposition();
    ctx.set('Cache-Control', 'no-store');
    ctx.type = contentType;
    ctx.body = body;
  };
}

function ready(strapi: Core.Strapi) {
  return async (ctx: Context) => {
    const { ready: isReady, database, redis } = await getService(strapi, 'readiness').check();
    ctx.set('Cache-Control', 'no-store');
    ctx.status = isReady ? 200 : 503;
    ctx.body = { status: isReady ? 'ready' : 'unavailable', database, redis };
  };
}

/** Equal-length digests, so the comparison takes the same time whatever was sent. */
function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}
