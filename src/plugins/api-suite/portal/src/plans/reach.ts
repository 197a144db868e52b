import { compileEndpoints } from '../../../server/src/features/access/endpoints';
import { isAccountRoute, isOpenRoute } from '../../../server/src/features/access/route-kinds';

/**
 * What a plan lets a consumer use, in the words of the portal's pages. A plan lists resolved
 * "METHOD path" patterns; each feature is probed with one of its routes through the server's own
 * matcher (a module without imports, bundled here), so the portal cannot read a plan differently
 * from the access middleware that enforces it.
 */
export type Feature = 'articles' | 'articles-write' | 'webhooks' | 'scrapers';

const FEATURES: Array<{ feature: Feature; label: string; probe: [string, string] }> = [
  { feature: 'articles', label: 'Reading articles', probe: ['GET', '/api/v1/articles'] },
  { feature: 'articles-write', label: 'Writing articles', probe: ['POST', '/api/v1/articles'] },
  { feature: 'webhooks', label: 'Webhooks', probe: ['GET', '/api/webhooks/subscriptions'] },
  { feature: 'scrapers', label: 'Scrapers', probe: ['GET', '/api/v1/scrapers'] },
];

export const FEATURE_NAMES: Record<Feature, string> = Object.fromEntries(FEATURES.map((entry) => [entry.feature, entry.label])) as Record<
  Feature,
  string
>;

export function reaches(plan: { endpoints: string[] }, feature: Feature): boolean {
  const entry = FEATURES.find((candidate) => candidate.feature === feature);
  return entry !== undefined && compileEndpoints(plan.endpoints)(...entry.probe);
}

/** A route as the API reference names it: a method and an OpenAPI path template (`/api/v1/scrapers/{id}`). */
export type Route = [method: string, template: string];

/** Whether a plan reaches a route, asked with its template's parameters filled in, as a request would have them. */
export function reachesRoute(plan: { endpoints: string[] }, [method, template]: Route): boolean {
  return compileEndpoints(plan.endpoints)(method.toUpperCase(), concrete(template));
}

/**
 * How the access middleware treats a route, for the reference's marks: `open` (no credential),
 * `account` (the consumer's own account: every plan), else `plan` (the plan decides).
 */
export function routeKind([method, template]: Route): 'open' | 'account' | 'plan' {
  const path = concrete(template);
  if (isOpenRoute(method.toUpperCase(), path)) return 'open';
  if (isAccountRoute(method.toUpperCase(), path)) return 'account';
  return 'plan';
}

const concrete = (template: string) => template.replace(/\{[^}]+\}/g, '1');

/** The features a plan includes, as labels, in a fixed order; "* *" is said as such. */
export function includedFeatures(plan: { endpoints: string[] }): string[] {
  const matches = compileEndpoints(plan.endpoints);
  const labels = FEATURES.filter((entry) => matches(...entry.probe)).map((entry) => entry.label);
  return plan.endpoints.includes('* *') ? [...labels, 'Every other API route'] : labels;
}
