import type { FeatureModule } from '../types';
import { getService } from '../../utils';
import { registerRetentionTables } from './content-types/tables';
import retention from './services/retention';

/** What this feature registers; `getService` knows each one's type from here. */
const services = { retention };

/**
 * Records kept as long as they are needed: the purge of what other features register with the
 * `retention` service (delivered webhooks, raw usage records once rolled up, old scraper results,
 * the Stripe event ledger), by one instance at a time, every `RETENTION_PURGE_SECONDS`.
 */
const feature: FeatureModule = {
  name: 'retention',
  register({ strapi }) {
    registerRetentionTables(strapi);
  },
  bootstrap({ strapi }) {
    // In the background: a purge due at boot never holds the boot.
    getService(strapi, 'retention').start();
  },
  async destroy({ strapi }) {
    await getService(strapi, 'retention').stop();
  },
  services,
};

export default feature;

declare module '../../utils' {
  interface Services extends ServicesOf<typeof services> {}
}
