import { ADMIN_PERMISSIONS, adminRoute } from '../../../http/admin-routes';
import type { FeatureRoute } from '../../types';

/**
 * Mounted at /api/webhooks (prefix ''). As for /api/v1, Strapi's own auth is off: the access
 * guard authenticates every route, even on a site that did not enable the global middleware.
 */
const guarded = { auth: false as const, prefix: '', middlewares: ['plugin::api-suite.access-guard'] };

export const contentApiRoutes: FeatureRoute[] = [
  { method: 'POST', path: '/webhooks/subscriptions', handler: 'webhook-subscriptions.create', config: guarded },
  { method: 'GET', path: '/webhooks/subscriptions', handler: 'webhook-subscriptions.find', config: guarded },
  { method: 'GET', path: '/webhooks/subscriptions/:id', handler: 'webhook-subscriptions.findOne', config: guarded },
  { method: 'PATCH', path: '/webhooks/subscriptions/:id', handler: 'webhook-subscriptions.update', config: guarded },
  { method: 'DELETE', path: '/webhooks/subscriptions/:id', handler: 'webhook-subscriptions.delete', config: guarded },
  { method: 'POST', path: '/webhooks/subscriptions/:id/test', handler: 'webhook-subscriptions.test', config: guarded },
  { method: 'POST', path: '/webhooks/subscriptions/:id/rotate-secret', handler: 'webhook-subscriptions.rotateSecret', config: guarded },
  { method: 'GET', path: '/webhooks/subscriptions/:id/deliveries', handler: 'webhook-deliveries.find', config: guarded },
  { method: 'POST', path: '/webhooks/subscriptions/:id/recover', handler: 'webhook-deliveries.recover', config: guarded },
  { method: 'GET', path: '/webhooks/deliveries/:id', handler: 'webhook-deliveries.findOne', config: guarded },
  { method: 'POST', path: '/webhooks/deliveries/:id/retry', handler: 'webhook-deliveries.retry', config: guarded },
  { method: 'GET', path: '/webhooks/event-types', handler: 'webhook-events.types', config: guarded },
  { method: 'POST', path: '/webhooks/events', handler: 'webhook-events.publish', config: guarded },
];

const { webhooksRead: read, webhooksManage: manage } = ADMIN_PERMISSIONS;

/** Mounted at /api-suite for the admin panel, behind its session and the plugin's admin permissions. */
export const adminRoutes: FeatureRoute[] = [
  adminRoute('GET', '/webhooks/subscriptions', 'admin-webhooks.subscriptions', [read]),
  adminRoute('GET', '/webhooks/subscriptions/:id', 'admin-webhooks.subscription', [read]),
  adminRoute('PUT', '/webhooks/subscriptions/:id', 'admin-webhooks.updateSubscription', [manage]),
  adminRoute('POST', '/webhooks/subscriptions/:id/test', 'admin-webhooks.test', [manage]),
  adminRoute('GET', '/webhooks/subscriptions/:id/deliveries', 'admin-webhooks.deliveries', [read]),
  adminRoute('GET', '/webhooks/deliveries/:id', 'admin-webhooks.delivery', [read]),
  adminRoute('POST', '/webhooks/subscriptions/:id/recover', 'admin-webhooks.recover', [manage]),
  adminRoute('POST', '/webhooks/deliveries/:id/retry', 'admin-webhooks.retry', [manage]),
  adminRoute('GET', '/webhooks/event-types', 'admin-webhooks.eventTypes', [read]),
  adminRoute('PUT', '/webhooks/event-types/:name', 'admin-webhooks.updateEventType', [manage]),
];
