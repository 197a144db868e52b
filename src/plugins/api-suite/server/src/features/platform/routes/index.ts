import type { FeatureRoute } from '../../types';

export const contentApiRoutes: FeatureRoute[] = [
  {
    method: 'GET',
    path: '/health',
    handler: 'health.check',
    config: { auth: false },
  },
  // Open to anyone (the access middleware lets this path through without credentials).
  { method: 'GET', path: '/v1/openapi.json', handler: 'openapi.document', config: { auth: false, prefix: '' } },
  { method: 'GET', path: '/v1/openapi.d.ts', handler: 'openapi.typescript', config: { auth: false, prefix: '' } },
];

export const adminRoutes: FeatureRoute[] = [
  {
    method: 'GET',
    path: '/overview',
    handler: 'health.overview',
    config: { policies: ['admin::isAuthenticatedAdmin'] },
  },
];
