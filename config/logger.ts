import type { Core } from '@strapi/strapi';

/** LOG_LEVEL (error, warn, info, http, verbose, debug) lets tests and benchmarks quiet the request log. */
export default ({ env }: Core.Config.Shared.ConfigParams) => ({
  level: env('LOG_LEVEL', 'http'),
});
