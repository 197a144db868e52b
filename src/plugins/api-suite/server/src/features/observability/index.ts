import type { FeatureModule } from '../types';
import { dialectOf } from '../../db';
import { getConfig, getService } from '../../utils';
import { operatorRoutes } from './controllers/operator';
import { shapeLogLines } from './log-lines';
import { requestId } from './middlewares/request-id';
import metrics from './services/metrics';
import readiness from './services/readiness';
import { tracingOn } from './tracing/context';
import { traceQueries } from './tracing/database';
import { startTracing, stopTracing } from './tracing/sdk';

let untraceQueries: (() => void) | undefined;

/** OpenTelemetry's names for the two databases the plugin runs on. */
function databaseSystemOf(dialect: string): string {
  return dialect === 'postgres' ? 'postgresql' : dialect;
}

/** What this feature registers; `getService` knows each one's type from here. */
const services = { metrics, readiness };

/**
 * What an operator sees (docs/operations.md#seeing-it-run): request ids on every answer and log
 * line, log lines as JSON on demand, Prometheus metrics, a readiness check, and OpenTelemetry
 * traces when an OTLP endpoint is configured.
 */
const feature: FeatureModule = {
  name: 'observability',
  register({ strapi }) {
    startTracing(strapi.log);
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
    // Knex's query events are listened to only while tracing is on: off, queries pay nothing for it.
    if (tracingOn()) {
      untraceQueries = traceQueries(strapi.db.connection, databaseSystemOf(dialectOf(strapi)), strapi.db.connection.client.database());
    }
  },
  async destroy({ strapi }) {
    getService(strapi, 'metrics').activity.stop();
    untraceQueries?.();
    untraceQueries = undefined;
    await stopTracing(strapi.log);
  },
  services,
};

export default feature;

declare module '../../utils' {
  interface Services extends ServicesOf<typeof services> {}
}
