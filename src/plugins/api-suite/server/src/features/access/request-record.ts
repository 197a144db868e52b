import { performance } from 'node:perf_hooks';
import type { Core } from '@strapi/strapi';
import type { Context } from 'koa';
import { getService } from '../../utils';

/** Who a request's usage record names: a key (with its owner), or a consumer's JWT on a plan-governed route. */
export interface Counted {
  keyId: number | null;
  userId: number | null;
  overage: boolean;
  /** The plan the request was held to, for the metrics; none for open routes and administrators. */
  plan?: string;
}

/** The usage record of a request the access gate identified (written in batches, off the request path). */
export function recordRequest(strapi: Core.Strapi, ctx: Context, counted: Counted, started: number, status = ctx.status): void {
  if (counted.keyId === null && counted.userId === null) return;
  getService(strapi, 'usage').record({
    api_key_id: counted.keyId,
    user_id: counted.userId,
    endpoint: (ctx as Context & { _matchedRoute?: string })._matchedRoute ?? ctx.path,
    method: ctx.method,
    status_code: status,
    response_ms: Math.round(performance.now() - started),
    created_at: new Date(),
    overage: counted.overage,
  });
}
