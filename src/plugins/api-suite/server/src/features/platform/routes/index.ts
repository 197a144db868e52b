import type { FeatureRoute } from '../../types';

export const contentApiRoutes: FeatureRoute[] = [
  {
    method: 'GET',
    path: '/health',
    handler: 'health.check',
    config: { auth: false },
  },
];

export const adminRoutes: FeatureRoute[] = [
  {
    method: 'GET',
    path: '/overview',
    handler: 'health.overview',
    config: { policies: ['admin::isAuthenticatedAdmin'] },
  },
];
