import { z } from 'zod';
import { httpUrl, outboundHeaders, MAX_ID, requireAChange } from '../../../http/validation';

/**
 * The scraper bodies without the checks only the server can make (cron by node-cron, CSS by
 * cheerio): this module imports nothing but zod and pure modules, so the admin panel and the
 * portal can take their request types from it. `index.ts` builds the same bodies with those
 * checks, and the routes validate with those.
 */
export const MAX_PAGES_LIMIT = 10_000;

export interface ScraperSelectors {
  item?: string;
  fields: Record<string, string>;
}

/** The checks only the server can make, added to the fields they concern. */
export interface ServerChecks {
  /** Whether a trimmed `schedule` is a cron expression the jobs drivers accept. */
  schedule(value: string): boolean;
  /** The problems with a `selectors` value, as messages; empty when it is valid. */
  selectors(value: unknown): string[];
}

/** Where a scraper's items go: documents of one of the site's content types (docs/scrapers.md#writing-into-a-content-type). */
export const TARGET_PUBLISH = ['draft', 'auto'] as const;
export const TARGET_REMOVED = ['keep', 'unpublish', 'delete'] as const;

/**
 * The shape of a target; whether its type, attributes and item fields exist is checked against
 * the site's schema and the scraper's selectors when it is saved (422 invalid_target).
 */
export const targetBody = z
  .object({
    type: z.string().trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters'),
    key: z.string().trim().min(1, 'must not be empty').max(100, 'must be at most 100 characters'),
    fields: z
      .record(
        z.string().min(1, 'must not be empty').max(100, 'must be at most 100 characters'),
        z.string().trim().min(1, 'must not be empty').max(100, 'must be at most 100 characters')
      )
      .refine((fields) => Object.keys(fields).length > 0, 'must map at least one attribute')
      .refine((fields) => Object.keys(fields).length <= 100, 'must map at most 100 attributes'),
    publish: z.enum(TARGET_PUBLISH).default('draft'),
    removed: z.enum(TARGET_REMOVED).default('keep'),
  })
  .strict();

export type ScraperTargetInput = z.input<typeof targetBody>;
export type ScraperTargetSetting = z.output<typeof targetBody>;

const CRON_MESSAGE = 'must be a cron expression of 5 fields (minute first) or 6 (second first)';

/** The create, update and admin-create bodies; with `checks`, the server's, otherwise the browsers' view of them. */
export function scraperBodies(checks?: ServerChecks) {
  const baseSchedule = z.string().trim().max(100);
  const schedule = checks ? baseSchedule.refine((value) => checks.schedule(value), CRON_MESSAGE) : baseSchedule;

  // Checked by the crawler's own rules (their messages name the bad selector); documented as the ScraperSelectors component.
  const baseSelectors = z.unknown();
  const selectors = (
    checks
      ? baseSelectors.superRefine((value, ctx) => {
          for (const problem of checks.selectors(value)) ctx.addIssue({ code: 'custom', message: problem });
        })
      : baseSelectors
  ).meta({ $ref: '#/components/schemas/ScraperSelectors' });

  const fields = {
    name: z.string().trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters'),
    url: httpUrl,
    schedule: schedule.nullable(),
    proxy_pool: z.string().trim().min(1).max(100).nullable(),
    rate_limit: z.number().int('must be a whole number').min(1, 'must be between 1 and 100').max(100, 'must be between 1 and 100'),
    headers: outboundHeaders,
    max_pages: z
      .number()
      .int('must be a whole number')
      .min(1, `must be between 1 and ${MAX_PAGES_LIMIT}`)
      .max(MAX_PAGES_LIMIT, `must be between 1 and ${MAX_PAGES_LIMIT}`),
    follow_links: z.boolean(),
    selectors: selectors.nullable() as z.ZodType<ScraperSelectors | null>,
    respect_robots_txt: z.boolean(),
    change_detection: z
      .object({ key: z.string().trim().min(1, 'must not be empty').max(100, 'must be at most 100 characters').optional() })
      .strict()
      .nullable(),
    target: targetBody.nullable(),
  };

  const createScraperBody = z
    .object({
      name: fields.name,
      url: fields.url,
      schedule: fields.schedule.optional(),
      proxy_pool: fields.proxy_pool.optional(),
      rate_limit: fields.rate_limit.optional(),
      headers: fields.headers.optional(),
      max_pages: fields.max_pages.optional(),
      follow_links: fields.follow_links.optional(),
      selectors: fields.selectors.optional(),
      respect_robots_txt: fields.respect_robots_txt.optional(),
      change_detection: fields.change_detection.optional(),
      // Administrators only (403 target_not_allowed for anyone else).
      target: fields.target.optional(),
    })
    .strict();

  const updateScraperBody = requireAChange(createScraperBody.partial().strict());

  /**
   * Admin panel: a scraper belongs to a consumer, whose webhook subscriptions receive its run
   * events; the editor picks that consumer (a users-permissions user) when creating it.
   */
  const adminCreateScraperBody = createScraperBody.extend({
    user_id: z.number({ message: 'choose the user who owns this scraper' }).int().positive().max(MAX_ID),
  });

  return { createScraperBody, updateScraperBody, adminCreateScraperBody };
}

type Bodies = ReturnType<typeof scraperBodies>;

/** The bodies as clients send them. */
export type CreateScraperInput = z.input<Bodies['createScraperBody']>;
export type UpdateScraperInput = z.input<Bodies['updateScraperBody']>;
export type AdminCreateScraperInput = z.input<Bodies['adminCreateScraperBody']>;
