import type { Core } from '@strapi/strapi';
import type { Context } from 'koa';

/**
 * Strapi mounts every content-API route, the plugin's own included, under the site's REST prefix
 * (`rest.prefix` in config/api, `/api` unless a site changes it), and its router matches paths
 * without regard to case. The plugin decides by the request's API path: the path with the site's
 * prefix written as `/api`, in lower case. So `/content/V1/keys` on a site whose prefix is
 * `/content` is `/api/v1/keys` to the guards, the plans and the usage counts, as `/api/v1/keys` is
 * on a site that keeps the default; and `/API/authors` is `/api/authors`.
 *
 * The plan patterns, route prefixes and endpoint groups a site configures may be written either
 * way (`GET /api/recipes*` or `GET /content/recipes*`): they are read through the same function.
 */

export const DEFAULT_PREFIX = '/api';

const prefixes = new WeakMap<Core.Strapi, string>();

/** The site's REST prefix as Strapi uses it: a leading slash, no trailing one (`/api`, `/content`). */
export function restPrefix(strapi: Core.Strapi): string {
  let prefix = prefixes.get(strapi);
  if (prefix === undefined) {
    prefix = normalizePrefix(strapi.config.get('api.rest.prefix', DEFAULT_PREFIX));
    prefixes.set(strapi, prefix);
  }
  return prefix;
}

export function normalizePrefix(configured: unknown): string {
  const text = typeof configured === 'string' && configured.trim() !== '' ? configured.trim() : DEFAULT_PREFIX;
  const slashed = text.startsWith('/') ? text : `/${text}`;
  return slashed.length > 1 ? slashed.replace(/\/+$/, '') : slashed;
}

/**
 * The API path of `path` on a site whose REST prefix is `prefix`: lower case, the prefix written
 * as `/api`; undefined for a path outside the REST API (the admin panel, `/_health`, uploads).
 */
export function apiPathUnder(prefix: string, path: string): string | undefined {
  const lower = path.toLowerCase();
  const at = prefix.toLowerCase();
  if (at === '/') return `${DEFAULT_PREFIX}${lower === '/' ? '' : lower}`;
  if (lower !== at && !lower.startsWith(`${at}/`)) return undefined;
  return `${DEFAULT_PREFIX}${lower.slice(at.length)}`;
}

const REQUEST_PATH = Symbol('api-suite.apiPath');

/** The request's API path (see the top of this file), worked out once per request. */
export function apiPathOf(strapi: Core.Strapi, ctx: Context): string | undefined {
  const state = ctx.state as { [REQUEST_PATH]?: { path: string; api: string | undefined } };
  const known = state[REQUEST_PATH];
  if (known && known.path === ctx.path) return known.api;
  const api = apiPathUnder(restPrefix(strapi), ctx.path);
  state[REQUEST_PATH] = { path: ctx.path, api };
  return api;
}

/**
 * A configured path (a plan's pattern, a route prefix) as an API path: written with the site's
 * prefix or with `/api`, in any case. A path under neither is kept, lower-cased: it matches nothing
 * the plugin guards.
 */
export function configuredApiPath(prefix: string, path: string): string {
  return apiPathUnder(prefix, path) ?? path.toLowerCase();
}

/** An API path as the site serves it: `/api/recipes` is `/content/recipes` on a site whose prefix is `/content`. */
export function sitePathOf(prefix: string, apiPath: string): string {
  if (prefix === DEFAULT_PREFIX || !(apiPath === DEFAULT_PREFIX || apiPath.startsWith(`${DEFAULT_PREFIX}/`))) return apiPath;
  const rest = apiPath.slice(DEFAULT_PREFIX.length);
  return prefix === '/' ? rest || '/' : `${prefix}${rest}`;
}
