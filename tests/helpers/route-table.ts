import { ROUTE_CONTRACT, type RouteContract } from '../../src/plugins/api-suite/server/src/contract/route';
import { ROUTE_INPUT, type RouteInput } from '../../src/plugins/api-suite/server/src/http/input';
import type { TestApp } from './app';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

interface TableRoute {
  method: Method;
  path: string;
  handler: string;
  config?: { prefix?: string; middlewares?: unknown[] };
}

/** One route of the plugin, as the booted app holds it. */
export interface MountedRoute {
  /** `GET /api/webhooks/subscriptions/:id (webhook-subscriptions.findOne)`, for failure messages. */
  name: string;
  type: 'content-api' | 'admin';
  method: Method;
  /** The path as a client calls it, with `:params` still in it. */
  url: string;
  /** What `validate` reads for it (http/input.ts), if anything. */
  input: RouteInput | undefined;
  /** The contract it was mounted from (contract/route.ts), if any. */
  contract: RouteContract | undefined;
  /** The names of the middlewares its config lists (`plugin::api-suite.flat-errors`, …). */
  middlewares: string[];
}

/** Every route of the api-suite plugin, the API's (mounted at /api) and the admin panel's (at /api-suite). */
export function pluginRoutes(app: TestApp): MountedRoute[] {
  const routers = app.strapi.plugin('api-suite').routes as unknown as Record<'content-api' | 'admin', { routes: TableRoute[] }>;
  return (['content-api', 'admin'] as const).flatMap((type) =>
    routers[type].routes.map((route) => {
      const listed = route.config?.middlewares ?? [];
      // As Strapi mounts them: the API under /api, without the plugin's name where a route sets its own prefix (''),
      // and the admin panel's routes under /api-suite.
      const url =
        type === 'admin' ? `/api-suite${route.path}` : route.config?.prefix === '' ? `/api${route.path}` : `/api/api-suite${route.path}`;
      return {
        name: `${route.method} ${url} (${route.handler})`,
        type,
        method: route.method,
        url,
        input: listed.find(
          (middleware): middleware is { [ROUTE_INPUT]: RouteInput } => typeof middleware === 'function' && ROUTE_INPUT in middleware
        )?.[ROUTE_INPUT],
        middlewares: listed.filter((middleware): middleware is string => typeof middleware === 'string'),
        contract: (route as TableRoute & { [ROUTE_CONTRACT]?: RouteContract })[ROUTE_CONTRACT],
      };
    })
  );
}
