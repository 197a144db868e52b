import { ADMIN_PERMISSIONS, adminRoute } from '../../../http/admin-routes';
import { apiRoutes, errorsIn } from '../../../http/api-routes';
import type { FeatureRoute } from '../../types';
import { adminBillingContracts } from '../validation/admin-contracts';
import { billingContracts } from '../validation/contracts';
import { inputs } from './inputs';

/** Mounted at /api (prefix ''), authenticated by the access guard like the rest of /api/v1. */
const route = apiRoutes({ guarded: true, errors: errorsIn('billing-errors') });

export const contentApiRoutes: FeatureRoute[] = [
  route(billingContracts.listBillingPlans, 'billing.plans'),
  route(billingContracts.createBillingCheckout, 'billing.checkout', inputs.checkout),
  route(billingContracts.changeBillingPlan, 'billing.changePlan', inputs.planChoice),
  route(billingContracts.createBillingPortalSession, 'billing.portal'),
  route(billingContracts.getBillingSubscription, 'billing.subscription'),
];

/** Mounted at /api-suite for the admin panel's Sales page, behind its session and `sales.read`. */
export const adminRoutes: FeatureRoute[] = [
  adminRoute(adminBillingContracts.subscriptions, 'admin-billing.subscriptions', [ADMIN_PERMISSIONS.salesRead], inputs.adminSubscriptions),
];
