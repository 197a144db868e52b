import type { Overview } from '../validation/responses';
import type { Core } from '@strapi/strapi';
import { Redis } from 'ioredis';
import { privateAddressesAllowed } from '../../../outbound/config';
import { followRedis } from '../../../dependencies';
import { createJobs, type JobsPort } from '../../../jobs';
import { createOutbound, type Outbound } from '../../../outbound';
import { getConfig, getService } from '../../../utils';

/**
 * Owns the plugin's shared infrastructure: the jobs port and the outbound HTTP client. Both are
 * created on first use, so commands that load Strapi without serving (type generation, the
 * console) never open a Redis connection.
 */
const platformService = ({ strapi }: { strapi: Core.Strapi }) => {
  let jobs: JobsPort | undefined;
  let outbound: Outbound | undefined;
  const redisClients: Redis[] = [];

  /** A new Redis connection, or undefined without REDIS_URL. Closed with the platform. */
  const connectRedis = (purpose: string): Redis | undefined => {
    const { redisUrl } = getConfig(strapi).jobs;
    if (!redisUrl) return undefined;
    const client = new Redis(redisUrl, { connectionName: `api-suite:${purpose}`, maxRetriesPerRequest: 3 });
    client.on('error', (error: Error) => strapi.log.error(`[api-suite] redis (${purpose}): ${error.message}`));
    redisClients.push(client);
    return client;
  };
  let commands: Redis | undefined;
  let commandsAway: () => boolean = () => false;
  /** Messages to other instances that could not be sent while Redis was away, by channel: sent once it is back. */
  const unsent = new Map<string, Set<string>>();
  let unsentCount = 0;

  const hold = (channel: string, message: string): void => {
    if (unsentCount >= UNSENT_MAX) return;
    const messages = unsent.get(channel) ?? new Set<string>();
    if (!messages.has(message)) unsentCount += 1;
    unsent.set(channel, messages.add(message));
  };

  const sendHeld = (client: Redis): void => {
    const held = [...unsent].flatMap(([channel, messages]) => [...messages].map((message) => [channel, message] as const));
    unsent.clear();
    unsentCount = 0;
    for (const [channel, message] of held) client.publish(channel, message).catch(() => hold(channel, message));
  };

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
          allowPrivate: privateAddressesAllowed(settings).allowed,
          connectTimeoutMs: settings.connectTimeoutMs,
          keepAliveTimeoutMs: settings.keepAliveTimeoutMs,
          connectionsPerOrigin: settings.connectionsPerOrigin,
          userAgent: 'strapi-plugin-api-suite',
        });
      }
      return outbound;
    },

    /** The shared command connection (quota counters, publishes), or undefined without Redis. */
    redis(): Redis | undefined {
      if (!commands) {
        const client = connectRedis('commands');
        if (client) {
          client.on('ready', () => sendHeld(client));
          commandsAway = followRedis(client);
        }
        commands = client;
      }
      return commands;
    },

    /**
     * Tell every instance (pub/sub on `channel`): a cache to clear, a run to stop. Never fails:
     * with Redis away the message is held and sent once it is back. Instances whose own
     * connection was cut clear their caches when it comes back, as they may have missed messages.
     * Without Redis there is no other instance to tell.
     */
    async broadcast(channel: string, message: string): Promise<void> {
      const client = this.redis();
      if (!client) return;
      if (commandsAway()) {
        hold(channel, message);
        return;
      }
      try {
        await client.publish(channel, message);
      } catch {
        hold(channel, message);
      }
    },

    /** A connection of its own for SUBSCRIBE, which blocks it for anything else. */
    subscriber(purpose: string): Redis | undefined {
      return connectRedis(`subscriber:${purpose}`);
    },

    /** The admin's Overview, but for the activity (which the metrics service reads). */
    overview(): Omit<Overview, 'activity'> {
      const config = getConfig(strapi);
      return {
        jobs: { driver: config.jobs.redisUrl ? ('bullmq' as const) : ('in-process' as const) },
        outbound: { allowPrivate: privateAddressesAllowed(config.outbound).allowed },
        database: { client: strapi.db.dialect.client as string },
        // endpointGroups: what a plan's "@public", "@private" and "@content" entries stand for.
        access: {
          routePrefixes: config.access.routePrefixes,
          sharedKey: Boolean(config.access.sharedKey),
          endpointGroups: getService(strapi, 'plans').endpointGroups(),
        },
        // The shop's currency: every page that shows money (plans, sales) shows it in this.
        commerce: { currency: config.commerce.currency },
      };
    },

    async close(): Promise<void> {
      const { jobs: settings } = getConfig(strapi);
      await Promise.all([jobs?.close(settings.shutdownTimeoutMs), outbound?.close()]);
      await Promise.all(redisClients.splice(0).map((client) => client.quit().catch(() => client.disconnect())));
      jobs = undefined;
      outbound = undefined;
      commands = undefined;
      commandsAway = () => false;
    },
  };
};

/** Messages held while Redis is away, at most; beyond, the instances' own reconnections clear their caches. */
const UNSENT_MAX = 10_000;

export type PlatformService = ReturnType<typeof platformService>;
export default platformService;
