import { ADMIN_PERMISSIONS, adminRoute } from '../../../http/admin-routes';
import { apiRoutes, errorsIn } from '../../../http/api-routes';
import type { FeatureRoute } from '../../types';
import { inputs } from './inputs';

/**
 * Mounted at /api/webhooks (prefix ''). As for /api/v1, Strapi's own auth is off: the access
 * guard authenticates every route, even on a site that did not enable the global middleware.
 */
const route = apiRoutes({ guarded: true, errors: errorsIn('flat-errors') });

export const contentApiRoutes: FeatureRoute[] = [
  route('POST', '/webhooks/subscriptions', 'webhook-subscriptions.create', inputs.create),
  route('GET', '/webhooks/subscriptions', 'webhook-subscriptions.find', inputs.find),
  route('GET', '/webhooks/subscriptions/:id', 'webhook-subscriptions.findOne', inputs.api.one),
  route('PATCH', '/webhooks/subscriptions/:id', 'webhook-subscriptions.update', inputs.api.update),
  route('DELETE', '/webhooks/subscriptions/:id', 'webhook-subscriptions.delete', inputs.api.one),
  route('POST', '/webhooks/subscriptions/:id/test', 'webhook-subscriptions.test', inputs.api.one),
  route('POST', '/webhooks/subscriptions/:id/rotate-secret', 'webhook-subscriptions.rotateSecret', inputs.api.one),
  route('GET', '/webhooks/subscriptions/:id/deliveries', 'webhook-deliveries.find', inputs.api.deliveries),
  route('POST', '/webhooks/subscriptions/:id/recover', 'webhook-deliveries.recover', inputs.api.recover),
  route('GET', '/webhooks/deliveries/:id', 'webhook-deliveries.findOne', inputs.api.delivery),
  route('POST', '/webhooks/deliveries/:id/retry', 'webhook-deliveries.retry', inputs.api.delivery),
  route('GET', '/webhooks/event-types', 'webhook-events.types'),
  route('POST', '/webhooks/events', 'webhook-events.publish', inputs.publish),
  route('POST', '/webhooks/filter-test', 'webhook-events.filterTest', inputs.filterTest),
];

const { webhooksRead: read, webhooksManage: manage } = ADMIN_PERMISSIONS;

/** Mounted at /api-suite for the admin panel, behind its session and the plugin's admin permissions. */
export const adminRoutes: FeatureRoute[] = [
  adminRoute('GET', '/webhooks/subscriptions', 'admin-webhooks.subscriptions', [read], inputs.adminSubscriptions),
  adminRoute('GET', '/webhooks/subscriptions/:id', 'admin-webhooks.subscription', [read], inputs.admin.one),
  adminRoute('PUT', '/webhooks/subscriptions/:id', 'admin-webhooks.updateSubscription', [manage], inputs.admin.update),
  adminRoute('POST', '/webhooks/subscriptions/:id/test', 'admin-webhooks.test', [manage], inputs.admin.one),
  adminRoute('GET', '/webhooks/subscriptions/:id/deliveries', 'admin-webhooks.deliveries', [read], inputs.admin.deliveries),
  adminRoute('GET', '/webhooks/deliveries/:id', 'admin-webhooks.delivery', [read], inputs.admin.delivery),
  adminRoute('POST', '/webhooks/subscriptions/:id/recover', 'admin-webhooks.recover', [manage], inputs.admin.recover),
  adminRoute('POST', '/webhooks/deliveries/:id/retry', 'admin-webhooks.retry', [manage], inputs.admin.delivery),
  adminRoute('GET', '/webhooks/event-types', 'admin-webhooks.eventTypes', [read]),
  adminRoute('PUT', '/webhooks/event-types/:name', 'admin-webhooks.updateEventType', [manage], inputs.admin.eventType),
  adminRoute('POST', '/webhooks/filter-test', 'admin-webhooks.filterTest', [read], inputs.adminFilterTest),
  adminRoute('POST', '/webhooks/events', 'admin-webhooks.publish', [manage], inputs.adminPublish),
];
