import { z } from 'zod';
import { contentTypeUid as uid, frontendOriginOf, type Env } from './config-env';
import { outboundConfigDefaults, outboundConfigSchema } from './outbound/config';
import { accessConfigDefaults, accessConfigSchema } from './features/access/config';
import { webhooksConfigDefaults, webhooksConfigSchema } from './features/webhooks/config';
import { scrapersConfigDefaults, scrapersConfigSchema } from './features/scrapers/config';
import { commerceConfigDefaults, commerceConfigSchema } from './features/commerce/config';
import { billingConfigDefaults, billingConfigSchema } from './features/billing/config';
import { searchConfigDefaults, searchConfigSchema } from './features/search/config';
import { portalConfigDefaults, portalConfigSchema } from './features/portal/config';
import { observabilityConfigDefaults, observabilityConfigSchema } from './features/observability/config';
import { retentionConfigDefaults, retentionConfigSchema } from './features/retention/config';
import { contentConfigDefaults, contentConfigSchema } from './features/content/config';

/**
 * The plugin's configuration. Defaults come from the environment so that a site that installs
 * the plugin gets the documented behaviour (REDIS_URL, OUTBOUND_ALLOW_PRIVATE, ...) without
 * writing any config; `config/plugins.ts` may override any key. The validator runs at boot and
 * refuses to start with a message naming every bad key.
 *
 * Each feature describes its own settings next to it (`features/<feature>/config.ts`: a zod schema
 * and its defaults from the environment, read with `config-env.ts`); this file puts them together
 * under their keys, with the few that belong to no one feature.
 */
export const configSchema = z
  .object({
    contentTypes: z
      .object({
        article: uid,
        product: uid,
        page: uid,
      })
      .strict(),
    jobs: z
      .object({
        redisUrl: z
          .string()
          .regex(/^rediss?:\/\//, 'must be a redis:// or rediss:// URL')
          .optional(),
        prefix: z.string().regex(/^[A-Za-z0-9_-]+$/, 'letters, digits, _ and - only'),
        shutdownTimeoutMs: z.number().int().min(0).max(600_000),
      })
      .strict(),
    outbound: outboundConfigSchema,
    access: accessConfigSchema,
    webhooks: webhooksConfigSchema,
    scrapers: scrapersConfigSchema,
    commerce: commerceConfigSchema,
    billing: billingConfigSchema,
    search: searchConfigSchema,
    /** The consumer portal: a client-side app served at `path` (its assets under `<path>/assets/`). */
    portal: portalConfigSchema,
    frontendOrigin: z.string().url(),
    observability: observabilityConfigSchema,
    /**
     * How long records the site only keeps for a while are kept (docs/operations.md#data-kept-as-long-as-it-is-needed).
     * Days may be fractions (0.5 is twelve hours); 0 keeps forever.
     */
    retention: retentionConfigSchema,
    content: contentConfigSchema,
    /** Where committed content changes are announced (`CONTENT_WEBHOOK_URL`); none: off. */
    contentWebhookUrl: z
      .string()
      .refine((value) => {
        try {
          return ['http:', 'https:'].includes(new URL(value).protocol);
        } catch {
          return false;
        }
      }, 'CONTENT_WEBHOOK_URL must be an absolute http: or https: URL')
      .optional(),
  })
  .strict();

export type PluginConfig = z.infer<typeof configSchema>;

export default {
  default: ({ env }: { env: Env }): PluginConfig => ({
    contentTypes: {
      article: 'api::article.article',
      product: 'api::product.product',
      page: 'api::page.page',
    },
    jobs: {
      redisUrl: env('REDIS_URL') || undefined,
      prefix: env('JOBS_PREFIX', 'api-suite') as string,
      shutdownTimeoutMs: 10_000,
    },
    outbound: outboundConfigDefaults(env),
    access: accessConfigDefaults(env),
    webhooks: webhooksConfigDefaults(env),
    scrapers: scrapersConfigDefaults(env),
    commerce: commerceConfigDefaults(env),
    billing: billingConfigDefaults(env),
    search: searchConfigDefaults(env),
    portal: portalConfigDefaults(env),
    frontendOrigin: frontendOriginOf(env),
    retention: retentionConfigDefaults(env),
    content: contentConfigDefaults(env),
    contentWebhookUrl: env('CONTENT_WEBHOOK_URL')?.trim() || undefined,
    observability: observabilityConfigDefaults(env),
  }),
  validator(config: unknown): void {
    const result = configSchema.safeParse(config);
    if (result.success) return;
    const problems = result.error.issues.map((issue) => `  - ${issue.path.join('.') || '(root)'}: ${issue.message}`);
    throw new Error(`Invalid configuration for plugin api-suite (config/plugins.ts, key "api-suite"):\n${problems.join('\n')}`);
  },
};
