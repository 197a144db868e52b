import { compileEndpoints } from '../../../server/src/features/access/endpoints';
import { isAccountRoute, isOpenRoute } from '../../../server/src/features/access/route-kinds';
import { apiPathUnder, configuredApiPath } from '../../../server/src/http/site-paths';
import { siteSettings, type PortalSettings } from '../settings';

/**
 * What a plan lets a consumer use, in the words of the portal's pages. A plan lists resolved
 * "METHOD path" patterns; each feature is probed with one of its routes through the server's own
 * matcher (a module without imports, bundled here), so the portal cannot read a plan differently
 * from the access middleware that enforces it. Paths are compared as API paths, as the middleware
 * does: the site's REST prefix written as `/api` (server/src/http/site-paths.ts).
 */
export type Feature = 'webhooks' | 'scrapers';

/** The plugin's own features a plan may include; the site's content is named from the page's settings. */
const FEATURES: Array<{ feature: Feature; label: string; probe: [string, string] }> = [
  { feature: 'webhooks', label: 'Webhooks', probe: ['GET', '/api/webhooks/subscriptions'] },
  { feature: 'scrapers', label: 'Scrapers', probe: ['GET', '/api/v1/scrapers'] },
];

export const FEATURE_NAMES: Record<Feature, string> = Object.fromEntries(FEATURES.map((entry) => [entry.feature, entry.label])) as Record<
  Feature,
  string
>;

/** The plan's matcher of API paths: its patterns may name the site's prefix or `/api`. */
function matcherOf(plan: { endpoints: string[] }): (method: string, path: string) => boolean {
  const prefix = siteSettings().restPrefix;
  return compileEndpoints(plan.endpoints, (path) => configuredApiPath(prefix, path));
}

/** A path as the site serves it (`/content/v1/keys`), as the middleware reads it (`/api/v1/keys`). */
const apiPath = (path: string) => apiPathUnder(siteSettings().restPrefix, path) ?? path.toLowerCase();

export function reaches(plan: { endpoints: string[] }, feature: Feature): boolean {
  const entry = FEATURES.find((candidate) => candidate.feature === feature);
  return entry !== undefined && matcherOf(plan)(...entry.probe);
}

/** A route as the API reference names it: a method and an OpenAPI path template (`/api/v1/scrapers/{id}`). */
export type Route = [method: string, template: string];

/** Whether a plan reaches a route, asked with its template's parameters filled in, as a request would have them. */
export function reachesRoute(plan: { endpoints: string[] }, [method, template]: Route): boolean {
  return matcherOf(plan)(method.toUpperCase(), apiPath(concrete(template)));
}

/**
 * How the access middleware treats a route, for the reference's marks: `open` (no credential:
 * the plugin's open routes, and the site's content routes the Public role may call now),
 * `account` (the consumer's own account: every plan), else `plan` (the plan decides).
 */
export function routeKind([method, template]: Route, publicRoutes: string[] = siteSettings().publicRoutes): 'open' | 'account' | 'plan' {
  const path = apiPath(concrete(template));
  if (isOpenRoute(method.toUpperCase(), path)) return 'open';
  if (publicRoutes.some((entry) => isPublic(entry, method, path))) return 'open';
  if (isAccountRoute(method.toUpperCase(), path)) return 'account';
  return 'plan';
}

const concrete = (template: string) => template.replace(/\{[^}]+\}/g, '1');

/** Whether "METHOD /api/template" (a public content route) is the route asked for, both as API paths. */
function isPublic(entry: string, method: string, path: string): boolean {
  const space = entry.indexOf(' ');
  return entry.slice(0, space) === method.toUpperCase() && concrete(entry.slice(space + 1)).toLowerCase() === path;
}

/**
 * What a plan includes, as labels in a fixed order: the site's content it reads and writes
 * (`sold`, from the page's settings: "Reading recipes, chefs", "Writing recipes"), then the
 * webhooks and scrapers; "* *" is said as such.
 */
export function includedFeatures(plan: { endpoints: string[] }, sold: PortalSettings['sold'] = siteSettings().sold): string[] {
  const matches = matcherOf(plan);
  const named = (method: 'GET' | 'write') => [
    ...new Set(sold.filter((entry) => matches(method === 'GET' ? 'GET' : entry.write, entry.path)).map((entry) => entry.label)),
  ];
  const reads = named('GET');
  const writes = named('write');
  const labels = [
    ...(reads.length > 0 ? [`Reading ${reads.join(', ')}`] : []),
    ...(writes.length > 0 ? [`Writing ${writes.join(', ')}`] : []),
    ...FEATURES.filter((entry) => matches(...entry.probe)).map((entry) => entry.label),
  ];
  return plan.endpoints.includes('* *') ? [...labels, 'Every other API route'] : labels;
}
