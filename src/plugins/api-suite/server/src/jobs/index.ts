import { createBullmqJobs } from './bullmq';
import { createInProcessJobs } from './in-process';
import type { JobsPort, Logger } from './types';

export * from './types';
export { createBullmqJobs } from './bullmq';
export { createInProcessJobs } from './in-process';

/**
 * The jobs port for this deployment: BullMQ when a Redis URL is configured (work is shared by
 * every instance and survives restarts), in-process otherwise (one instance, nothing to run
 * beside Strapi).
 */
export function createJobs(options: { redisUrl?: string; prefix: string; logger?: Logger }): JobsPort {
  const { redisUrl, prefix, logger } = options;
  if (redisUrl) return createBullmqJobs({ redisUrl, prefix, logger });
  return createInProcessJobs({ logger });
}
