import { z } from 'zod';
import { type Env, parseCount, parseDays } from '../../config-env';

/** How long records the site only keeps for a while are kept (`retention` in config/plugins.ts). */

/** A longest retention: a hundred years is as good as forever, and keeps date arithmetic finite. */
const MAX_RETENTION_DAYS = 36_500;
const MAX_PURGE_SECONDS = 365 * 86_400;

/** Days a kind of record is kept, fractions allowed; 0 keeps it forever. */
const retentionDays = (name: string) =>
  z
    .number({ message: `${name} must be a number of days` })
    .finite(`${name} must be a number of days`)
    .min(0, `${name} must be 0 (keep forever) or a positive number of days`)
    .max(MAX_RETENTION_DAYS, `${name} must be at most ${MAX_RETENTION_DAYS} days (0 keeps forever)`);

/**
 * How long records the site only keeps for a while are kept (docs/operations.md#data-kept-as-long-as-it-is-needed).
 * Days may be fractions (0.5 is twelve hours); 0 keeps forever.
 */
export const retentionConfigSchema = z
  .object({
    /** `RETENTION_DELIVERIES_DAYS`: webhook deliveries in a final state (succeeded, failed, cancelled) and their attempts. */
    deliveriesDays: retentionDays('RETENTION_DELIVERIES_DAYS'),
    /** `RETENTION_USAGE_DAYS`: raw usage records, once their counts are in the daily rollups. */
    usageDays: retentionDays('RETENTION_USAGE_DAYS'),
    /** `RETENTION_SCRAPER_RUNS`: per scraper, the completed runs whose results are kept (the runs themselves always stay). */
    scraperRuns: z
      .number({ message: 'RETENTION_SCRAPER_RUNS must be a whole number' })
      .int('RETENTION_SCRAPER_RUNS must be a whole number')
      .min(0, 'RETENTION_SCRAPER_RUNS must be 0 (keep every result) or more')
      .max(1_000_000, 'RETENTION_SCRAPER_RUNS must be at most 1,000,000'),
    /** `RETENTION_STRIPE_EVENTS_DAYS`: the ledger of Stripe events already applied (Stripe retries an event for 3 days). */
    stripeEventsDays: retentionDays('RETENTION_STRIPE_EVENTS_DAYS'),
    /** `RETENTION_PURGE_SECONDS`: time between two purges (and a purge at boot once that much has passed since the last). */
    purgeSeconds: z
      .number({ message: 'RETENTION_PURGE_SECONDS must be a number of seconds' })
      .finite('RETENTION_PURGE_SECONDS must be a number of seconds')
      .min(1, 'RETENTION_PURGE_SECONDS must be at least 1')
      .max(MAX_PURGE_SECONDS, `RETENTION_PURGE_SECONDS must be at most ${MAX_PURGE_SECONDS} (a year)`),
  })
  .strict();

export type RetentionConfig = z.infer<typeof retentionConfigSchema>;

export function retentionConfigDefaults(env: Env): RetentionConfig {
  return {
    deliveriesDays: parseDays(env('RETENTION_DELIVERIES_DAYS'), 30, 'RETENTION_DELIVERIES_DAYS'),
    usageDays: parseDays(env('RETENTION_USAGE_DAYS'), 90, 'RETENTION_USAGE_DAYS'),
    scraperRuns: parseCount(env('RETENTION_SCRAPER_RUNS'), 20, 'RETENTION_SCRAPER_RUNS'),
    stripeEventsDays: parseDays(env('RETENTION_STRIPE_EVENTS_DAYS'), 90, 'RETENTION_STRIPE_EVENTS_DAYS'),
    purgeSeconds: parseDays(env('RETENTION_PURGE_SECONDS'), 86_400, 'RETENTION_PURGE_SECONDS', 'seconds'),
  };
}
