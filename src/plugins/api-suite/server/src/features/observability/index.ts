import type { FeatureModule } from '../types';
import { getConfig, getService } from '../../utils';
import { operatorRoutes } from './controllers/operator';
import { shapeLogLines } from './log-lines';
import { requestId } from './middlewares/request-id';
import metrics from './services/metrics';
import readiness from './services/readiness';

/** What this feature registers; `getService` knows each one's type from here. */
const services = { metrics, readiness };

/**
 * What an operator sees (docs/operations.md#seeing-it-run): request ids on every answer and log
 * line, log lines as JSON on demand, Prometheus metrics and a readiness check.
 */
const feature: FeatureModule = {
  name: 'observability',
  register({ strapi }) {
    const { logFormat } = getConfig(strapi).observability;
    shapeLogLines(strapi.log as unknown as Parameters<typeof shapeLogLines>[0], {
      json: logFormat === 'json',
      requestId: () => (strapi.requestContext.get()?.state as { requestId?: string } | undefined)?.requestId,
    });
    // Before the site's own middlewares (config/middlewares.ts runs after register), so that the
    // request log and every refusal already carry the id, on any site that installs the plugin.
    strapi.server.use(requestId);
  },
  bootstrap({ strapi }) {
    strapi.server.routes(operatorRoutes(strapi, getConfig(strapi).observability.metricsToken));
    getService(strapi, 'metrics').activity.start();
  },
  destroy({ strapi }) {
    getService(strapi, 'metrics').activity.stop();
  },
  services,
};

export default feature;

declare module '../../utils' {
  interface Services extends ServicesOf<typeof services> {}
}
