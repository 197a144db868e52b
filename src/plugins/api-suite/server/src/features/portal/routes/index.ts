import type { FeatureRoute } from '../../types';

/**
 * The portal's routes, mounted at the site's root rather than under /api: `path` is plugin
 * config, so they are made at register time instead of declared like the other features' routes.
 * The assets route comes first: the page route's `:path*` also matches `<path>/assets/…`, and an
 * unknown asset must answer 404, not the page.
 */
export function portalRoutes(path: string): FeatureRoute[] {
  const open = { auth: false as const };
  return [
    { method: 'GET', path: `${path}/assets/:file`, handler: 'plugin::api-suite.portal.asset', config: open },
    // Deep links (/portal/keys, /portal/webhooks/<id>) are the client's routes: each answers the page.
    { method: 'GET', path: `${path}/:path*`, handler: 'plugin::api-suite.portal.page', config: open },
  ];
}
