import type { Core } from '@strapi/strapi';
import { DEFAULT_PREFIX } from '../../http/site-paths';
import type { HttpMethod } from '../../contract/openapi';
import type { WatchedType } from './watched';

/**
 * The content-API routes Strapi serves for each watched type, read from the type's API routers
 * (core routers with `only`/`except`, a custom prefix, or `auth: false` included), as the
 * OpenAPI description of the site's content API needs them (openapi.ts).
 */

/** Strapi's core actions, as its core routers declare them. */
export type Action = 'find' | 'findOne' | 'create' | 'update' | 'delete';

export const ACTION_METHODS: Record<Action, HttpMethod> = { find: 'get', findOne: 'get', create: 'post', update: 'put', delete: 'delete' };

/** A core action's route as Strapi serves it: the full path, and its parameter if the path has one. */
export interface ContentRoute {
  action: Action;
  method: HttpMethod;
  /** OpenAPI template: `/api/recipes/{id}`. */
  path: string;
  param: string | undefined;
  /** `config.auth: false`: no credential is ever asked for. */
  open: boolean;
}

interface RouteInput {
  method?: unknown;
  path?: unknown;
  handler?: unknown;
  config?: { auth?: unknown; prefix?: unknown };
}

interface RouterInput {
  prefix?: unknown;
  routes?: RouteInput[];
}

/**
 * The core-action routes of every API, by content type uid, in Strapi's registration order. By
 * bootstrap Strapi has replaced each API's routers by their instances (`instantiateRouterInputs`
 * in @strapi/core's register-routes); before, a router given as a function is instantiated here
 * the same way, on a copy. A core router's `routes` is a getter that builds them on first read.
 */
export function contentRoutes(strapi: Core.Strapi): Map<string, ContentRoute[]> {
  // API paths (http/site-paths.ts): the OpenAPI document writes them under the site's REST prefix.
  const apiPrefix = DEFAULT_PREFIX;
  const found = new Map<string, ContentRoute[]>();
  const apis = strapi.apis as unknown as Record<string, { routes?: Record<string, unknown> }>;
  for (const [apiName, api] of Object.entries(apis)) {
    // Strapi serves every router of an API as content API, whatever `type` it declares.
    for (const input of Object.values(api.routes ?? {})) {
      const router = (typeof input === 'function' ? (input as (context: { strapi: Core.Strapi }) => unknown)({ strapi }) : input) as
        RouterInput | undefined;
      for (const route of Array.isArray(router?.routes) ? router.routes : []) {
        const recognised = coreRoute(apiName, apiPrefix, router?.prefix, route);
        if (!recognised) continue;
        const list = found.get(recognised.uid) ?? [];
        list.push(recognised.route);
        found.set(recognised.uid, list);
      }
    }
  }
  return found;
}

const STATIC_SEGMENT = /^\/[A-Za-z0-9._~-]+$/;
const PARAM_SEGMENT = /^\/:([A-Za-z_][A-Za-z0-9_]*)$/;

/**
 * A route of a core action of some content type's controller (`api::recipe.recipe.find`, or
 * `recipe.find` as a custom router may write it), with the method and path shape of that action:
 * plain segments, then the document's parameter as a whole last segment for findOne, update and
 * delete of a collection. Anything else (another controller, a function handler, a regular
 * expression or optional parameter in the path) is not described.
 */
function coreRoute(
  apiName: string,
  apiPrefix: string,
  routerPrefix: unknown,
  route: RouteInput
): { uid: string; route: ContentRoute } | undefined {
  if (typeof route.handler !== 'string' || typeof route.path !== 'string' || typeof route.method !== 'string') return undefined;
  // As Strapi names the route's permission (createRouteScopeGenerator).
  const namespace = `api::${apiName}.`;
  const handler = route.handler.startsWith(namespace) ? route.handler : `${namespace}${route.handler}`;
  const dot = handler.lastIndexOf('.');
  const action = handler.slice(dot + 1);
  if (!Object.hasOwn(ACTION_METHODS, action)) return undefined;
  const method = route.method.toLowerCase();
  if (method !== ACTION_METHODS[action as Action]) return undefined;

  // A route whose config names a prefix is mounted on the API router itself, without its router's prefix.
  const ownPrefix = route.config && Object.hasOwn(route.config, 'prefix') ? '' : typeof routerPrefix === 'string' ? routerPrefix : '';
  const segments = `${ownPrefix}${route.path}`.match(/\/[^/]*/g) ?? [];
  const last = segments.at(-1);
  const param = last === undefined ? undefined : PARAM_SEGMENT.exec(last)?.[1];
  const fixed = param === undefined ? segments : segments.slice(0, -1);
  if (fixed.length === 0 || !fixed.every((segment) => STATIC_SEGMENT.test(segment))) return undefined;

  return {
    uid: handler.slice(0, dot),
    route: {
      action: action as Action,
      method,
      path: `${apiPrefix}${fixed.join('')}${param === undefined ? '' : `/{${param}}`}`,
      param,
      open: route.config?.auth === false,
    },
  };
}

/** The type's routes of the actions its kind has, the first of each action (the one Strapi's router matches first). */
export function routesOf(type: WatchedType, routes: ContentRoute[]): ContentRoute[] {
  const byId = type.kind === 'collectionType';
  const seen = new Set<string>();
  return routes.filter((route) => {
    const wanted = type.kind === 'collectionType' || route.action === 'find' || route.action === 'update' || route.action === 'delete';
    // A collection's findOne, update and delete name the document; everything else names none.
    const shaped = (route.param !== undefined) === (byId && route.action !== 'find' && route.action !== 'create');
    const key = `${route.method} ${route.path}`;
    if (!wanted || !shaped || seen.has(route.action) || seen.has(key)) return false;
    seen.add(route.action);
    seen.add(key);
    return true;
  });
}

// ---------------------------------------------------------------------------------------------
// Names
