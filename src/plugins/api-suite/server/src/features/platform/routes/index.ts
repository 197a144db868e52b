import { apiRoutes, errorsIn } from '../../../http/api-routes';
import { PLUGIN_ID } from '../../../constants';
import { fromContract, routerPath } from '../../../contract/route';
import type { FeatureRoute } from '../../types';
import { adminPlatformContracts } from '../validation/admin-contracts';
import { platformContracts } from '../validation/contracts';

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
  openV1(platformContracts.getOpenApiDocument, 'openapi.document'),
  openV1(platformContracts.getOpenApiTypes, 'openapi.typescript'),
];

export const adminRoutes: FeatureRoute[] = [
  // Any signed-in admin may read it: no plugin permission, so not `adminRoute` (which names one), and none of its middlewares.
  fromContract(
    {
      method: 'GET',
      path: routerPath(adminPlatformContracts.overview, `/${PLUGIN_ID}`),
      handler: 'health.overview',
      config: { policies: ['admin::isAuthenticatedAdmin'] },
    },
    adminPlatformContracts.overview
  ),
];
