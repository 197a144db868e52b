import { apiRoutes, errorsIn } from '../../../http/api-routes';
import type { FeatureRoute } from '../../types';

const openV1 = apiRoutes({ guarded: false, errors: errorsIn('nested-errors') });

export const contentApiRoutes: FeatureRoute[] = [
  {
    method: 'GET',
    path: '/health',
    handler: 'health.check',
    config: { auth: false },
  },
  // Open to anyone (the access middleware lets this path through without credentials); in the
  // /api/v1 family, whose body the access guard answers in should it answer for them.
  openV1('GET', '/v1/openapi.json', 'openapi.document'),
  openV1('GET', '/v1/openapi.d.ts', 'openapi.typescript'),
];

export const adminRoutes: FeatureRoute[] = [
  {
    method: 'GET',
    path: '/overview',
    handler: 'health.overview',
    config: { policies: ['admin::isAuthenticatedAdmin'] },
  },
];
