import { ADMIN_PERMISSIONS, adminRoute } from '../../../http/admin-routes';
import { apiRoutes, errorsIn } from '../../../http/api-routes';
import type { FeatureRoute } from '../../types';
import { inputs } from './inputs';

/** Mounted at /api (prefix ''), authenticated by the access guard like the rest of /api/v1. */
const route = apiRoutes({ guarded: true, errors: errorsIn('billing-errors') });

export const contentApiRoutes: FeatureRoute[] = [
  route('GET', '/v1/billing/plans', 'billing.plans'),
  route('POST', '/v1/billing/checkout', 'billing.checkout', inputs.checkout),
  route('POST', '/v1/billing/change-plan', 'billing.changePlan', inputs.planChoice),
  route('POST', '/v1/billing/portal', 'billing.portal'),
  route('GET', '/v1/billing/subscription', 'billing.subscription'),
];

/** Mounted at /api-suite for the admin panel's Sales page, behind its session and `sales.read`. */
export const adminRoutes: FeatureRoute[] = [
  adminRoute('GET', '/billing/subscriptions', 'admin-billing.subscriptions', [ADMIN_PERMISSIONS.salesRead], inputs.adminSubscriptions),
];
