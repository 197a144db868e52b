import type { FeatureModule } from '../types';
import { getConfig, getService } from '../../utils';
import health from './controllers/health';
import { refuseUnreadableRelations } from './content-manager/relations';
import { registerContentStatusBridge } from './content-manager/status';
import { adminRoutes, contentApiRoutes } from './routes';
import contentChanges from './services/content-changes';
import contentManagerViews from './services/content-manager-views';
import { contentWebhookListener } from './content-webhook';
import { errorMiddlewares } from '../../http/errors';
import { dependencyFaults } from './middlewares/dependency-faults';
import { inputGuard } from './middlewares/input-guard';
import { privateAddressesNotice } from './private-addresses';
import http from './services/http';
import openapi from './services/openapi';
import openapiController from './controllers/openapi';
import platform from './services/platform';
import stripe from '../../stripe';

/** What this feature registers; `getService` knows each one's type from here. */
const services = {
  platform,
  http,
  openapi,
  'content-changes': contentChanges,
  'content-manager-views': contentManagerViews,
  stripe,
};

/** Shared infrastructure (jobs port, outbound client, Stripe client) and the plugin's health route. */
const feature: FeatureModule = {
  name: 'platform',
  register({ strapi }) {
    registerContentStatusBridge(strapi);
    refuseUnreadableRelations(strapi);
    // The one subscriber to content changes; the webhooks feature and the content-change webhook listen to it.
    getService(strapi, 'content-changes').subscribe();
    const contentWebhookUrl = getConfig(strapi).contentWebhookUrl;
    if (contentWebhookUrl) getService(strapi, 'content-changes').listen(contentWebhookListener(strapi, contentWebhookUrl));
    const notice = privateAddressesNotice(getConfig(strapi).outbound);
    if (notice) strapi.log[notice.level](notice.message);
  },
  async destroy({ strapi }) {
    await getService(strapi, 'platform').close();
  },
  services,
  controllers: { health, openapi: openapiController },
  middlewares: { 'input-guard': inputGuard, 'dependency-faults': dependencyFaults, ...errorMiddlewares },
  routes: { 'content-api': contentApiRoutes, admin: adminRoutes },
};

export default feature;

declare module '../../utils' {
  interface Services extends ServicesOf<typeof services> {}
}
