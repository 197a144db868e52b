import { apiRoutes, errorsIn } from '../../../http/api-routes';
import type { FeatureRoute } from '../../types';
import { searchContracts } from '../validation/contracts';
import { inputs } from './inputs';

/** Mounted at /api (prefix ''): GET /api/search, public. */
export const contentApiRoutes: FeatureRoute[] = [
  apiRoutes({ guarded: false, errors: errorsIn('error-list') })(searchContracts.search, 'search.find', inputs.search),
];
