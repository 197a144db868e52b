import type { FeatureRoute } from '../../types';

/** Mounted at /api (prefix ''): GET /api/search, public. */
export const contentApiRoutes: FeatureRoute[] = [
  { method: 'GET', path: '/search', handler: 'search.find', config: { auth: false, prefix: '' } },
];
