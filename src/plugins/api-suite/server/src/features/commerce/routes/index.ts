import { ADMIN_PERMISSIONS, adminRoute } from '../../../http/admin-routes';
import type { FeatureRoute } from '../../types';

/**
 * Mounted at /api (prefix ''): /api/checkout, /api/webhook/stripe, /api/reports/sales. Strapi's
 * own auth is off: checkout and the reports identify the user from the JWT themselves (401 and
 * 403 in their own error shape), and Stripe proves itself with its signature.
 */
const open = { auth: false as const, prefix: '' };

export const contentApiRoutes: FeatureRoute[] = [
  { method: 'POST', path: '/checkout', handler: 'checkout.create', config: open },
  { method: 'POST', path: '/webhook/stripe', handler: 'stripe-webhook.receive', config: open },
  { method: 'GET', path: '/reports/sales', handler: 'reports.sales', config: open },
];

/** Mounted at /api-suite for the admin panel's Sales page, behind its session and `sales.read`. */
export const adminRoutes: FeatureRoute[] = [
  adminRoute('GET', '/sales/report', 'admin-sales.report', [ADMIN_PERMISSIONS.salesRead]),
  adminRoute('GET', '/sales/orders', 'admin-sales.orders', [ADMIN_PERMISSIONS.salesRead]),
];
