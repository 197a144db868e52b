import type { FeatureModule } from '../types';
import { getConfig } from '../../utils';
import portalController from './controllers/portal';
import { portalRoutes } from './routes';
import portal from './services/portal';

/** What this feature registers; `getService` knows each one's type from here. */
const services = { portal };

/**
 * The consumer portal: a client-side app (the plugin package's `portal/`, built into
 * `dist/portal/`) served at the configured path, calling only the public API. Turned off, its
 * path is an unknown page like any other (404).
 */
const feature: FeatureModule = {
  name: 'portal',
  register({ strapi }) {
    const { portal: settings } = getConfig(strapi);
    if (settings.enabled) strapi.server.routes(portalRoutes(settings.path));
  },
  services,
  controllers: { portal: portalController },
};

export default feature;

declare module '../../utils' {
  interface Services extends ServicesOf<typeof services> {}
}
