import type { FeatureModule } from '../types';
import { adminActionsOf } from '../../../../shared/permissions';
import { UIDS } from '../../constants';
import { getConfig, getService } from '../../utils';
import contentTypes from './content-types';
import { ensurePendingIndex, registerDeliveryTables } from './content-types/tables';
import { backlogMetric } from './delivery/metrics';
import { deliveriesPurger } from './delivery/purge';
import contentManager from './content-types/views';
import adminController from './controllers/admin';
import deliveriesController from './controllers/deliveries';
import eventsController from './controllers/events';
import subscriptionsController from './controllers/subscriptions';
import { adminRoutes, contentApiRoutes } from './routes';
import deliveries from './services/deliveries';
import eventTypes from './services/event-types';
import subscriptions from './services/subscriptions';
import { subscribeEditorHooks } from './subscriptions/editor-hooks';
import webhooks from './services/webhooks';
import { warnOfUnknownPlans } from './subscriptions/cap';
import { webhooksApi } from './validation/contracts';
import { subscriptionsAccountPart } from './subscriptions/account-part';

/** What this feature registers; `getService` knows each one's type from here. */
const services = {
  webhooks,
  'webhook-subscriptions': subscriptions,
  'webhook-event-types': eventTypes,
  'webhook-deliveries': deliveries,
};

/**
 * Signed webhook subscriptions and the delivery engine (docs/webhooks.md): publishing writes
 * one delivery record and one job per matching subscription, the worker sends and retries them,
 * and the database stays the source of truth (pending work is taken up again at boot).
 */
const feature: FeatureModule = {
  name: 'webhooks',
  register({ strapi }) {
    registerDeliveryTables(strapi);
    getService(strapi, 'retention').add(deliveriesPurger(strapi));
    getService(strapi, 'account-parts').add(subscriptionsAccountPart(strapi));
  },
  async bootstrap({ strapi }) {
    subscribeEditorHooks(strapi);
    strapi.db.lifecycles.subscribe({
      models: [UIDS.webhookEventType],
      afterCreate: () => getService(strapi, 'webhook-event-types').forget(),
      afterUpdate: () => getService(strapi, 'webhook-event-types').forget(),
      afterDelete: () => getService(strapi, 'webhook-event-types').forget(),
    });

    await ensurePendingIndex(strapi);
    backlogMetric(strapi);
    const created = await getService(strapi, 'webhook-event-types').ensureDefaults();
    if (created > 0) strapi.log.info(`[api-suite] webhooks: created ${created} event types`);
    await getService(strapi, 'webhook-subscriptions').listen();
    await warnOfUnknownPlans(strapi);
    // Deliveries stored while Redis is away are enqueued when it is back, by whichever process stored them.
    getService(strapi, 'webhook-deliveries').watchQueue();
    const settings = getConfig(strapi).webhooks;
    if (settings.worker) {
      await getService(strapi, 'webhook-deliveries').start();
      strapi.log.info(`[api-suite] webhooks: delivering with concurrency ${settings.concurrency}`);
    } else {
      strapi.log.info('[api-suite] webhooks: WEBHOOK_WORKER=false, this process publishes but does not deliver');
    }
  },
  async destroy({ strapi }) {
    await getService(strapi, 'webhooks').settle();
    const deliveriesService = getService(strapi, 'webhook-deliveries');
    await deliveriesService.stop();
    if (deliveriesService.running()) {
      // Let running deliveries finish and record their outcome before the database closes; only
      // then are their endpoints' slots given back (other instances may take them from then on).
      await getService(strapi, 'platform').jobs().close(getConfig(strapi).jobs.shutdownTimeoutMs);
    }
    await deliveriesService.close();
  },
  contentTypes,
  contentManager,
  services,
  controllers: {
    'webhook-subscriptions': subscriptionsController,
    'webhook-deliveries': deliveriesController,
    'webhook-events': eventsController,
    'admin-webhooks': adminController,
  },
  routes: { 'content-api': contentApiRoutes, admin: adminRoutes },
  api: webhooksApi,
  adminActions: adminActionsOf('webhooks'),
};

export default feature;

declare module '../../utils' {
  interface Services extends ServicesOf<typeof services> {}
}
