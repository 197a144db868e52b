import type { Core } from '@strapi/strapi';
import { unavailableDependency, type Dependency } from '../../../dependencies';
import { dependencyRefusal, strapiErrorBody } from '../../../http/errors';

/** A dependency that stays away is said in the log once in this long, not once per request. */
const LOG_EVERY_MS = 10_000;

/**
 * `plugin::api-suite.dependency-faults`, enabled in config/middlewares.ts right after
 * `strapi::errors`: a request to any route (Strapi's content API, its admin panel, the
 * users-permissions routes) that meets a database or Redis that is away is answered 503
 * `dependency_unavailable` with `Retry-After`, in Strapi's own error body, rather than the 500 of
 * a crash. The plugin's own routes answer the same in their families' shapes before this.
 */
export const dependencyFaults = (_config: unknown, { strapi }: { strapi: Core.Strapi }): Core.MiddlewareHandler => {
  const logged = new Map<Dependency, number>();
  return async (ctx, next) => {
    try {
      await next();
    } catch (caught) {
      const dependency = unavailableDependency(caught);
      const refusal = dependencyRefusal(caught);
      if (!dependency || !refusal) throw caught;
      const now = Date.now();
      if (now - (logged.get(dependency) ?? 0) >= LOG_EVERY_MS) {
        logged.set(dependency, now);
        strapi.log.warn(`[api-suite] answering 503: the ${dependency} is unavailable (${(caught as Error).message})`);
      }
      if (refusal.headers) ctx.set(refusal.headers);
      ctx.status = refusal.status;
      ctx.body = strapiErrorBody(refusal);
    }
  };
};
