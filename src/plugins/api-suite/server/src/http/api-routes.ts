import type { Core } from '@strapi/strapi';
import type { FeatureRoute } from '../features/types';
import { PLUGIN_ID } from '../constants';
import { familyShapeOf, type FamilyShape } from './errors';
import { restPrefix } from './site-paths';
import { validate, type RouteInput } from './input';
import { fromContract, routerPath, type RouteContract } from '../contract/route';

type Method = FeatureRoute['method'];

/**
 * The error middlewares a route family names (`plugin::api-suite.<name>`): the generic ones by
 * their body (http/errors.ts), and the features' own where a family answers a fault in its shape.
 */
export type ErrorMiddleware = `plugin::${typeof PLUGIN_ID}.${string}`;

export const errorsIn = (name: string): ErrorMiddleware => `plugin::${PLUGIN_ID}.${name}`;

/**
 * The routes of one family under /api (prefix ''), with Strapi's own auth off, each mounted from
 * its contract (contract/route.ts). `guarded`: the
 * access guard authenticates them (even on a site that did not enable the global middleware)
 * and answers its own refusals; the family's `errors` middleware comes after it, so it answers
 * what the handler and `validate` throw, never the guard's refusals.
 */
export function apiRoutes(options: { errors: ErrorMiddleware; guarded: boolean }) {
  const head = options.guarded ? [`plugin::${PLUGIN_ID}.access-guard`, options.errors] : [options.errors];
  return (contract: RouteContract, handler: string, input?: RouteInput): FeatureRoute =>
    fromContract(
      {
        method: contract.method.toUpperCase() as Method,
        path: routerPath(contract, API_MOUNT),
        handler,
        config: { auth: false, prefix: '', middlewares: [...head, ...(input ? [validate(input)] : [])] },
      },
      contract
    );
}

/** Where the API's contracts are written to be (`/api/v1/…`); the site's REST prefix, when it has its own, stands for it. */
const API_MOUNT = '/api';

/** A route of Strapi's router as `router.match` gives it: its path as mounted (`/api/webhooks/subscriptions/:id`) and its methods. */
interface RouterLayer {
  path: string;
  methods: string[];
}

/** The plugin's routes under /api as their family declared them (its `prefix: ''` mounts each at `/api` + its path). */
function apiRouteTable(strapi: Core.Strapi): FeatureRoute[] {
  const routers = strapi.plugin(PLUGIN_ID).routes as unknown as Record<string, { routes?: FeatureRoute[] } | undefined>;
  return (routers['content-api']?.routes ?? []).filter((route) => route.config?.prefix === '');
}

/** The shape of the error middleware a route names, if it names one (the first, should it name more). */
export function routeFamily(strapi: Core.Strapi, route: FeatureRoute): FamilyShape | undefined {
  for (const middleware of route.config?.middlewares ?? []) {
    const name = typeof middleware === 'string' ? middleware : (middleware as { name?: unknown }).name;
    const shape = typeof name === 'string' ? familyShapeOf(strapi.middleware(name)) : undefined;
    if (shape) return shape;
  }
  return undefined;
}

/**
 * The error shape of the route a request will reach, for the access guard: it runs before the
 * body parser and the router (so before Strapi sets `ctx.state.route`), yet answers for the route
 * when the body cannot be parsed or a dependency fails. Strapi's own router finds the route, as
 * it will when it dispatches (`router.match`: the route of the request's method on its path, else
 * any route on that path, the one a 405 is about); the shape is the one of the error middleware
 * that route names, so a route's family alone decides, never its URL. Undefined where no plugin
 * route answers the path (a host's route under a guarded prefix, a path nobody serves).
 */
export function routeFamilies(strapi: Core.Strapi): (method: string, path: string) => FamilyShape | undefined {
  let byRoute: Map<string, FamilyShape> | undefined;
  const families = () =>
    (byRoute ??= new Map(
      apiRouteTable(strapi).flatMap((route) => {
        const shape = routeFamily(strapi, route);
        return shape ? [[`${route.method} ${restPrefix(strapi)}${route.path}`, shape] as const] : [];
      })
    ));
  return (method, path) => {
    const router = strapi.server.router as unknown as {
      match(path: string, method: string): { path: RouterLayer[]; pathAndMethod: RouterLayer[] };
    };
    const matched = router.match(path, method);
    for (const layer of [...matched.pathAndMethod, ...matched.path]) {
      for (const layerMethod of layer.methods) {
        const shape = families().get(`${layerMethod} ${layer.path}`);
        if (shape) return shape;
      }
    }
    return undefined;
  };
}
