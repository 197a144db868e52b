import { ADMIN_PERMISSIONS, adminRoute } from '../../../http/admin-routes';
import type { FeatureRoute } from '../../types';

/** Mounted at /api (prefix ''), authenticated by the access guard like the rest of /api/v1. */
const guarded = { auth: false as const, prefix: '', middlewares: ['plugin::api-suite.access-guard'] };

export const contentApiRoutes: FeatureRoute[] = [
  { method: 'GET', path: '/v1/billing/plans', handler: 'billing.plans', config: guarded },
  { method: 'POST', path: '/v1/billing/checkout', handler: 'billing.checkout', config: guarded },
  { method: 'POST', path: '/v1/billing/change-plan', handler: 'billing.changePlan', config: guarded },
  { method: 'POST', path: '/v1/billing/portal', handler: 'billing.portal', config: guarded },
  { method: 'GET', path: '/v1/billing/subscription', handler: 'billing.subscription', config: guarded },
];

/** Mounted at /api-suite for the admin panel's Sales page, behind its session and `sales.read`. */
export const adminRoutes: FeatureRoute[] = [
  adminRoute('GET', '/billing/subscriptions', 'admin-billing.subscriptions', [ADMIN_PERMISSIONS.salesRead]),
];
