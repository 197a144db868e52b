import { z } from 'zod';
import { type Env, parseBoolean } from '../config-env';

/** Outbound requests' settings (`outbound` in config/plugins.ts): webhook deliveries' and scrapers' connections and address guard. */

export const outboundConfigSchema = z
  .object({
    /**
     * `OUTBOUND_ALLOW_PRIVATE`: whether webhook endpoints and scraper URLs may reach private and
     * reserved addresses. Unset (the variable unset or blank, and nothing in config/plugins.ts),
     * the default: on outside production, off in it (`privateAddressesAllowed`).
     */
    allowPrivate: z.boolean().optional(),
    connectTimeoutMs: z.number().int().min(100).max(60_000),
    keepAliveTimeoutMs: z.number().int().min(100).max(600_000),
    connectionsPerOrigin: z.number().int().min(1).max(1024),
  })
  .strict();

export type OutboundConfig = z.infer<typeof outboundConfigSchema>;

export function outboundConfigDefaults(env: Env): OutboundConfig {
  return {
    // Left unset when the variable is: the resolved config then says the default applies.
    allowPrivate: parseBoolean(env('OUTBOUND_ALLOW_PRIVATE'), undefined, 'OUTBOUND_ALLOW_PRIVATE'),
    connectTimeoutMs: 5_000,
    keepAliveTimeoutMs: 30_000,
    connectionsPerOrigin: 64,
  };
}

/**
 * Whether outbound requests may reach private and reserved addresses, from the resolved config,
 * and whether that is the default (neither OUTBOUND_ALLOW_PRIVATE nor config/plugins.ts set it):
 * on outside production, off in it.
 */
export function privateAddressesAllowed(
  outbound: Pick<OutboundConfig, 'allowPrivate'>,
  nodeEnv: string | undefined = process.env.NODE_ENV
): { allowed: boolean; byDefault: boolean } {
  if (outbound.allowPrivate === undefined) return { allowed: nodeEnv !== 'production', byDefault: true };
  return { allowed: outbound.allowPrivate, byDefault: false };
}
