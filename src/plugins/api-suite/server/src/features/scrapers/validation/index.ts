import { z } from 'zod';
import { httpUrl, outboundHeaders, MAX_ID, pageLimit, pageNumber, pageQuery, requireAChange, rowIdParam } from '../../../http/validation';
import { assertValidCronSchedule } from '../../../jobs';
import { createSubscriptionBody } from '../../webhooks/validation';
import { validateSelectors } from '../crawler';
import { CHANGES } from './responses';

/** Bodies and queries of the scraper routes (docs/scrapers.md), validated at the edge. */
export const MAX_PAGES_LIMIT = 10_000;
export { CHANGES, RUN_EVENTS } from './responses';

const schedule = z
  .string()
  .trim()
  .max(100)
  .refine((value) => {
    try {
      assertValidCronSchedule({ cron: value, name: 'tick' });
      return true;
    } catch {
      return false;
    }
  }, 'must be a cron expression of 5 fields (minute first) or 6 (second first)');

const headers = outboundHeaders;

// Checked by the crawler's own rules (their messages name the bad selector); documented as the ScraperSelectors component.
const selectors = z
  .unknown()
  .superRefine((value, ctx) => {
    for (const problem of validateSelectors(value)) ctx.addIssue({ code: 'custom', message: problem });
  })
  .meta({ $ref: '#/components/schemas/ScraperSelectors' });

const fields = {
  name: z.string().trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters'),
  url: httpUrl,
  schedule: schedule.nullable(),
  proxy_pool: z.string().trim().min(1).max(100).nullable(),
  rate_limit: z.number().int('must be a whole number').min(1, 'must be between 1 and 100').max(100, 'must be between 1 and 100'),
  headers,
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
};

export interface ScraperSelectors {
  item?: string;
  fields: Record<string, string>;
}

export const createScraperBody = z
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
  })
  .strict();
export type CreateScraperBody = z.infer<typeof createScraperBody>;

export const updateScraperBody = requireAChange(createScraperBody.partial().strict());
export type UpdateScraperBody = z.infer<typeof updateScraperBody>;

export const listQuery = pageQuery;

/** `change=new,changed`: a comma-separated list of changes (the parameter may also repeat). */
const changeList = z
  .union([z.string(), z.array(z.string())])
  .transform((value) => [
    ...new Set((Array.isArray(value) ? value : [value]).flatMap((part) => part.split(',')).map((part) => part.trim())),
  ])
  .pipe(z.array(z.enum(CHANGES, { message: `must be a comma-separated list of ${CHANGES.join(', ')}` })).min(1));

export const resultsQuery = z.object({
  page: pageNumber,
  limit: pageLimit,
  run_id: rowIdParam.optional(),
  change: changeList.optional(),
  format: z.enum(['json', 'ndjson', 'csv']).default('json'),
});

export const idParam = rowIdParam;

export const runEventsWebhookBody = createSubscriptionBody
  .omit({ endpoint_url: true, events: true })
  .extend({ url: createSubscriptionBody.shape.endpoint_url, events: createSubscriptionBody.shape.events.optional() })
  .strict();

/**
 * Admin panel: a scraper belongs to a consumer, whose webhook subscriptions receive its run
 * events; the editor picks that consumer (a users-permissions user) when creating it.
 */
export const adminCreateScraperBody = createScraperBody.extend({
  user_id: z.number({ message: 'choose the user who owns this scraper' }).int().positive().max(MAX_ID),
});
export type AdminCreateScraperBody = z.infer<typeof adminCreateScraperBody>;
