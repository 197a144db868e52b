/**
 * Which routes the access middleware lets through without a plan's say: the open ones (no
 * credential needed) and the consumer's own account (any credential, every plan, never counted).
 * A module without imports, so the consumer portal bundles it and marks the API reference's
 * operations exactly as the middleware treats them.
 */
const API_V1 = '/api/v1';

/** Routes of the consumer's own account, open to every plan and never counted (`GET /api/webhooks/event-types` too). */
const ACCOUNT_PREFIXES = [
  `${API_V1}/keys`,
  `${API_V1}/usage`,
  `${API_V1}/plans`,
  `${API_V1}/billing`,
  `${API_V1}/consumers`,
  `${API_V1}/account`,
  `${API_V1}/openapi.json`,
  `${API_V1}/openapi.d.ts`,
  '/api/auth',
];

/** GET (and HEAD) routes anybody may call: the price lists and the API's own description (its document and types). */
const OPEN_READS = [`${API_V1}/plans`, `${API_V1}/openapi.json`, `${API_V1}/openapi.d.ts`, `${API_V1}/billing/plans`];

/** Routes anybody may call: the token endpoint, the price lists and the API's description. */
export function isOpenRoute(method: string, path: string): boolean {
  const route = trimSlash(path);
  if (method === 'POST' && route === `${API_V1}/oauth/token`) return true;
  return (method === 'GET' || method === 'HEAD') && OPEN_READS.includes(route);
}

/** The consumer's own account (keys, usage, plans, billing, export and closing, the catalogue): reachable on every plan and not counted. */
export function isAccountRoute(method: string, path: string): boolean {
  const route = trimSlash(path);
  if ((method === 'GET' || method === 'HEAD') && route === '/api/webhooks/event-types') return true;
  return ACCOUNT_PREFIXES.some((prefix) => route === prefix || route.startsWith(`${prefix}/`));
}

export function trimSlash(path: string): string {
  return path.length > 1 ? path.replace(/\/+$/, '') : path;
}
