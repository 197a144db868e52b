import type { FeatureRoute } from '../../types';

/**
 * Mounted at /api/v1 (prefix ''). Strapi's own auth is off on these routes: the access guard,
 * which runs even where a site did not enable the global access middleware, authenticates them.
 */
const guarded = { auth: false as const, prefix: '', middlewares: ['plugin::api-suite.access-guard'] };

export const contentApiRoutes: FeatureRoute[] = [
  { method: 'POST', path: '/v1/keys', handler: 'keys.create', config: guarded },
  { method: 'GET', path: '/v1/keys', handler: 'keys.find', config: guarded },
  { method: 'DELETE', path: '/v1/keys/:id', handler: 'keys.revoke', config: guarded },
  { method: 'GET', path: '/v1/usage', handler: 'usage.summary', config: guarded },
  { method: 'GET', path: '/v1/usage/stream', handler: 'usage.stream', config: guarded },
  { method: 'POST', path: '/v1/oauth/token', handler: 'oauth.token', config: guarded },
  { method: 'GET', path: '/v1/plans', handler: 'plans.find', config: guarded },
];
