import { z } from 'zod';
import { type Env, parseBoolean } from '../../config-env';

/** The scrapers feature's settings (`scrapers` in config/plugins.ts): proxy pools and how many runs go at once. */

/** SCRAPER_PROXY_POOLS: a JSON object of pool names to lists of proxy URLs. */
export function parseProxyPools(value: string | undefined): Record<string, string[]> {
  if (value === undefined || value.trim() === '') return {};
  try {
    const parsed: unknown = JSON.parse(value);
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) return parsed as Record<string, string[]>;
  } catch {
    // reported below
  }
  throw new Error('SCRAPER_PROXY_POOLS must be a JSON object such as {"residential":["http://proxy-1:8080","http://proxy-2:8080"]}');
}

export const scrapersConfigSchema = z
  .object({
    proxyPools: z.record(
      z.string().regex(/^[A-Za-z0-9_-]{1,100}$/, 'pool names are letters, digits, _ and -'),
      z.array(z.string().regex(/^https?:\/\/\S+$/, 'must be an http:// or https:// proxy URL')).min(1)
    ),
    /** Runs executed at once by this process. */
    concurrency: z.number().int().min(1).max(100),
    /**
     * Runs of one consumer's scrapers executing at once across every instance (they share the
     * database); the consumer's further runs wait as pending, so one consumer cannot take every slot.
     */
    runsPerConsumer: z.number().int().min(1).max(1_000),
    /**
     * Page requests one run keeps in flight. With `rate_limit` r and pages answering in t
     * seconds, a run reaches its rate only if this is at least r × t.
     */
    pageConcurrency: z.number().int().min(1).max(32),
    /** Whether this process executes runs and schedule ticks. */
    worker: z.boolean(),
  })
  .strict();

export type ScrapersConfig = z.infer<typeof scrapersConfigSchema>;

export function scrapersConfigDefaults(env: Env): ScrapersConfig {
  return {
    proxyPools: parseProxyPools(env('SCRAPER_PROXY_POOLS')),
    concurrency: env.int('SCRAPER_CONCURRENCY', 4) as number,
    runsPerConsumer: env.int('SCRAPER_RUNS_PER_CONSUMER', 2) as number,
    pageConcurrency: env.int('SCRAPER_PAGE_CONCURRENCY', 4) as number,
    worker: parseBoolean(env('SCRAPER_WORKER'), true, 'SCRAPER_WORKER'),
  };
}
