import { ADMIN_PERMISSIONS, adminRoute } from '../../../http/admin-routes';
import { apiRoutes, errorsIn } from '../../../http/api-routes';
import type { FeatureRoute } from '../../types';
import { adminCommerceContracts } from '../validation/admin-contracts';
import { commerceContracts } from '../validation/contracts';
import { inputs } from './inputs';

/**
 * Mounted at /api (prefix ''): /api/checkout, /api/webhook/stripe, /api/reports/sales. Strapi's
 * own auth is off: checkout and the reports identify the user from the JWT themselves (401 and
 * 403 in their own error shape), and Stripe proves itself with its signature.
 */
const open = (errors: string) => apiRoutes({ guarded: false, errors: errorsIn(errors) });

export const contentApiRoutes: FeatureRoute[] = [
  open('checkout-errors')(commerceContracts.checkout, 'checkout.create', inputs.checkout),
  open('stripe-webhook-errors')(commerceContracts.stripeWebhook, 'stripe-webhook.receive'),
  open('report-errors')(commerceContracts.salesReport, 'reports.sales'),
];

/** Mounted at /api-suite for the admin panel's Sales page, behind its session and `sales.read`. */
export const adminRoutes: FeatureRoute[] = [
  adminRoute(adminCommerceContracts.report, 'admin-sales.report', [ADMIN_PERMISSIONS.salesRead]),
  adminRoute(adminCommerceContracts.orders, 'admin-sales.orders', [ADMIN_PERMISSIONS.salesRead], inputs.adminOrders),
];
