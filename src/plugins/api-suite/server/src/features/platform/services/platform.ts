import type { Core } from '@strapi/strapi';
import { createJobs, type JobsPort } from '../../../jobs';
import { createOutbound, type Outbound } from '../../../outbound';
import { getConfig } from '../../../utils';

/**
 * Owns the plugin's shared infrastructure: the jobs port and the outbound HTTP client. Both are
 * created on first use, so commands that load Strapi without serving (type generation, the
 * console) never open a Redis connection.
 */
const platformService = ({ strapi }: { strapi: Core.Strapi }) => {
  let jobs: JobsPort | undefined;
  let outbound: Outbound | undefined;

  return {
    jobs(): JobsPort {
      if (!jobs) {
        const { jobs: settings } = getConfig(strapi);
        jobs = createJobs({ redisUrl: settings.redisUrl, prefix: settings.prefix, logger: strapi.log });
        strapi.log.info(`[api-suite] jobs driver: ${jobs.driver}`);
      }
      return jobs;
    },

    outbound(): Outbound {
      if (!outbound) {
        const { outbound: settings } = getConfig(strapi);
        outbound = createOutbound({
          allowPrivate: settings.allowPrivate,
          connectTimeoutMs: settings.connectTimeoutMs,
          keepAliveTimeoutMs: settings.keepAliveTimeoutMs,
          connectionsPerOrigin: settings.connectionsPerOrigin,
          userAgent: 'strapi-plugin-api-suite',
        });
      }
      return outbound;
    },

    overview() {
      const config = getConfig(strapi);
      return {
        jobs: { driver: config.jobs.redisUrl ? ('bullmq' as const) : ('in-process' as const) },
        outbound: { allowPrivate: config.outbound.allowPrivate },
        database: { client: strapi.db.dialect.client as string },
        access: { routePrefixes: config.access.routePrefixes, sharedKey: Boolean(config.access.sharedKey) },
      };
    },

    async close(): Promise<void> {
      const { jobs: settings } = getConfig(strapi);
      await Promise.all([jobs?.close(settings.shutdownTimeoutMs), outbound?.close()]);
      jobs = undefined;
      outbound = undefined;
    },
  };
};

export type PlatformService = ReturnType<typeof platformService>;
export default platformService;
