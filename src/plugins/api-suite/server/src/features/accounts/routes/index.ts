import { apiRoutes, errorsIn } from '../../../http/api-routes';
import type { FeatureRoute } from '../../types';
import { accountContracts } from '../validation/contracts';
import { inputs } from './inputs';

/** Mounted at /api (prefix ''), authenticated by the access guard like the rest of /api/v1; account routes of every plan. */
const route = apiRoutes({ guarded: true, errors: errorsIn('nested-errors') });

export const contentApiRoutes: FeatureRoute[] = [
  route(accountContracts.exportAccount, 'account.export', inputs.exportAccount),
  route(accountContracts.deleteAccount, 'account.delete', inputs.deleteAccount),
];
