import { z } from 'zod';
import { pageLimit, pageNumber, pageQuery, rowIdParam } from '../../../http/validation';
import { assertValidCronSchedule } from '../../../jobs';
import { createSubscriptionBody } from '../../webhooks/validation';
import { validateSelectors } from '../crawler';
import { scraperBodies } from './requests';
import { CHANGES } from './responses';

/** Bodies and queries of the scraper routes (docs/scrapers.md), validated at the edge. */
export { MAX_PAGES_LIMIT, type ScraperSelectors } from './requests';
export { CHANGES, RUN_EVENTS } from './responses';

/** The bodies with the server's own checks: the jobs drivers' cron rules and the crawler's CSS parser. */
export const { createScraperBody, updateScraperBody, adminCreateScraperBody } = scraperBodies({
  schedule: (value) => {
    try {
      assertValidCronSchedule({ cron: value, name: 'tick' });
      return true;
    } catch {
      return false;
    }
  },
  selectors: validateSelectors,
});
export type CreateScraperBody = z.infer<typeof createScraperBody>;
export type UpdateScraperBody = z.infer<typeof updateScraperBody>;
export type AdminCreateScraperBody = z.infer<typeof adminCreateScraperBody>;

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

/** Admin panel: which scraper last wrote one document of the site. */
export const writtenByQuery = z.object({
  type: z.string().min(1).max(200),
  document_id: z.string().min(1).max(100),
});

export const runEventsWebhookBody = createSubscriptionBody
  .omit({ endpoint_url: true, events: true })
  .extend({ url: createSubscriptionBody.shape.endpoint_url, events: createSubscriptionBody.shape.events.optional() })
  .strict();
