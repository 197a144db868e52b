import type { FeatureModule } from '../types';
import { getService } from '../../utils';
import accountController from './controllers/account';
import { contentApiRoutes } from './routes';
import accountClosure from './services/account-closure';
import accountParts from './services/account-parts';
import accountExport from './services/account-export';
import { accountsApi } from './validation/contracts';

/** What this feature registers; `getService` knows each one's type from here. */
const services = { 'account-parts': accountParts, 'account-export': accountExport, 'account-closure': accountClosure };

/**
 * Accounts that can leave (docs/accounts.md): a consumer exports everything the site holds about
 * them, and closes their account; an administrator deleting the user in the admin panel closes
 * it the same way. It owns no table and reads none of the other features': each feature adds
 * the part of an account it keeps (`types.ts`, `getService(strapi, 'account-parts').add(…)`).
 */
const feature: FeatureModule = {
  name: 'accounts',
  register({ strapi }) {
    getService(strapi, 'account-closure').holdBulkAnswers();
  },
  bootstrap({ strapi }) {
    getService(strapi, 'account-closure').watchDeletions();
  },
  destroy({ strapi }) {
    getService(strapi, 'account-closure').stop();
  },
  services,
  controllers: { account: accountController },
  routes: { 'content-api': contentApiRoutes },
  api: accountsApi,
};

export default feature;

declare module '../../utils' {
  interface Services extends ServicesOf<typeof services> {}
}
