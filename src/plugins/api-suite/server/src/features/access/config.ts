import { z } from 'zod';
import { type Env, parseCount, parseList } from '../../config-env';

/** The access feature's settings (`access` in config/plugins.ts): keys, plans' endpoint groups and the consumer caps. */

/** A plan's endpoint pattern: `<METHOD or *> <path, * for the rest>`. */
const endpointPattern = z
  .string()
  .regex(/^(\*|GET|HEAD|POST|PUT|PATCH|DELETE|OPTIONS) (\*|\/\S*)$/, 'must be "<METHOD or *> <path, * for the rest>"');

/**
 * ACCESS_MAX_KEYS: live API keys one consumer may hold. A consumer needs one key per app,
 * environment and teammate at most, and a reroll holds two for its grace period; 20 leaves room
 * for all of that, where hundreds (300 made in 3 s) serve nobody but someone filling the table.
 */
export const DEFAULT_MAX_KEYS = 20;

/**
 * ACCESS_MAX_USAGE_STREAMS: usage streams one consumer may hold open. A portal tab holds one; a
 * few tabs and a dashboard fit in 5, and each stream costs a database report every few seconds.
 */
export const DEFAULT_MAX_USAGE_STREAMS = 5;

export const accessConfigSchema = z
  .object({
    routePrefixes: z.array(z.string().regex(/^\/\S*$/, 'must start with /')).min(1),
    /**
     * What a plan's `@public` and `@private` stand for. Unset, they are worked out from the
     * site (features/access/content-api/groups.ts): reading its content API, and all of it
     * with the scrapers and webhooks.
     */
    endpointGroups: z
      .object({
        public: z.array(endpointPattern).optional(),
        private: z.array(endpointPattern).optional(),
      })
      .strict(),
    sharedKey: z.string().min(16, 'must be at least 16 characters when set').optional(),
    /**
     * The most live API keys (not revoked, not expired) one consumer may hold
     * (docs/access.md#keys-and-plans); administrators are not capped. Beyond it, making a
     * key is 409 `too_many_keys`.
     */
    maxKeys: z.number().int('must be a whole number').min(1).max(1_000_000),
    /**
     * The most `GET /api/v1/usage/stream` one consumer may hold open at once, across every
     * instance with Redis (each process alone without it); administrators are not capped.
     * Beyond it, opening one is 429 `too_many_streams`.
     */
    maxUsageStreams: z.number().int('must be a whole number').min(1).max(10_000),
  })
  .strict();

export type AccessConfig = z.infer<typeof accessConfigSchema>;

export function accessConfigDefaults(env: Env): AccessConfig {
  return {
    routePrefixes: parseList(env('ACCESS_ROUTE_PREFIXES')) ?? ['/api/v1', '/api/webhooks'],
    // Worked out from the site's own content types when a site names none (content-api/groups.ts).
    endpointGroups: {},
    sharedKey: env('API_SHARED_KEY') || undefined,
    maxKeys: parseCount(env('ACCESS_MAX_KEYS'), DEFAULT_MAX_KEYS, 'ACCESS_MAX_KEYS'),
    maxUsageStreams: parseCount(env('ACCESS_MAX_USAGE_STREAMS'), DEFAULT_MAX_USAGE_STREAMS, 'ACCESS_MAX_USAGE_STREAMS'),
  };
}
