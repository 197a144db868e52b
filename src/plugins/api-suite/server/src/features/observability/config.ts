import { z } from 'zod';
import { type Env } from '../../config-env';

/** The observability feature's settings (`observability` in config/plugins.ts): metrics, readiness and log format. */

export const observabilityConfigSchema = z
  .object({
    /** `METRICS_TOKEN`: the bearer token `GET /metrics` asks for; unset, the route answers 404. */
    metricsToken: z.string().min(16, 'METRICS_TOKEN must be at least 16 characters').optional(),
    /** How long `GET /_ready` waits for the database and Redis before calling them down. */
    readyTimeoutMs: z.number().int().min(50).max(30_000),
    /** `LOG_FORMAT=json`: every log line one JSON object (else Strapi's own lines). */
    logFormat: z.enum(['pretty', 'json'], { message: 'LOG_FORMAT must be pretty or json' }),
  })
  .strict();

export type ObservabilityConfig = z.infer<typeof observabilityConfigSchema>;

export function observabilityConfigDefaults(env: Env): ObservabilityConfig {
  return {
    metricsToken: env('METRICS_TOKEN') || undefined,
    readyTimeoutMs: 1_000,
    logFormat: (env('LOG_FORMAT') || 'pretty').trim().toLowerCase() as 'pretty' | 'json',
  };
}
