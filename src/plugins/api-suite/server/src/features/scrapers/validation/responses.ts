import { z } from 'zod';
import { consumer, pageOf } from '../../../contract/common';

/** The events a run publishes (and `POST /api/v1/webhooks` subscribes to). */
export const RUN_EVENTS = ['run.started', 'run.completed', 'run.failed', 'run.stopped', 'results.created', 'results.changed'] as const;

/** What change detection says of a result, against the previous compared run. */
export const CHANGES = ['new', 'changed', 'unchanged'] as const;

/** What the scraper routes answer: the one description behind the OpenAPI document and the admin's types. */

const id = z.int().min(1);
const dateTime = z.iso.datetime();

export const scraperSelectors = z
  .object({
    item: z.string().min(1).optional(),
    fields: z.record(z.string(), z.string().min(1)).meta({ minProperties: 1, maxProperties: 50 }),
  })
  .meta({
    description:
      'What to extract: with `item`, one result per element matching it, its fields relative to that element; without, one result per page. Each field is `"css"` (the text, trimmed) or `"css@attr"` (an attribute; `href` and `src` made absolute). Without any selectors each page yields `{ url, title }`.',
  });

export const changeDetection = z
  .object({
    key: z.string().min(1).max(100).optional().meta({
      description: "The field that identifies an item across runs; without it, the item's `url` field, else the URL of its page.",
    }),
  })
  .meta({
    description:
      'Change detection: each completed run is compared, key by key, with the previous compared run. Results get `change`, runs `items_new`, `items_changed` and `items_removed`, and `results.changed` is published when something changed. Null turns it off; turning it off or changing the key starts afresh.',
  });

export const scraperTarget = z
  .object({
    type: z.string().meta({ description: 'The content type written to, by uid (`api::listing.listing`).' }),
    key: z.string().meta({ description: "The attribute whose value identifies an item's document; it is one of `fields`." }),
    fields: z
      .record(z.string(), z.string())
      .meta({ description: '`{ "<attribute>": "<item field>" }`: which item field fills each attribute (the key\'s included).' }),
    publish: z
      .enum(['draft', 'auto'])
      .meta({ description: '`draft`: new and changed items are drafts for an editor to publish; `auto`: they are published.' }),
    removed: z.enum(['keep', 'unpublish', 'delete']).meta({
      description: 'What a complete run does to documents this scraper created whose key it no longer collected.',
    }),
  })
  .meta({
    description:
      "Where each run's items go: documents of one of the site's content types, written through the document service (administrators only). Null: results only.",
  });

export const scraper = z.object({
  id,
  name: z.string().min(1).max(200),
  url: z.url(),
  schedule: z.string().nullable().meta({ description: 'A cron expression: 5 fields (minute first) or 6 (second first).' }),
  proxy_pool: z.string().nullable().meta({ description: 'A pool configured with `SCRAPER_PROXY_POOLS`.' }),
  rate_limit: z.int().min(1).max(100).meta({ description: 'Requests a second, at most.' }),
  headers: z.record(z.string(), z.string()),
  max_pages: z.int().min(1).max(10_000),
  follow_links: z.boolean().meta({ description: "Follow links to the start URL's host." }),
  selectors: scraperSelectors.nullable(),
  respect_robots_txt: z.boolean(),
  change_detection: changeDetection.nullable(),
  target: scraperTarget.nullable(),
  status: z.enum(['idle', 'running']).meta({ description: '`running` while a run is pending or running.' }),
  next_run_at: dateTime.nullable().meta({ description: 'The next tick of `schedule`; null without one.' }),
  skipped_runs: z.int().min(0).meta({ description: 'Scheduled ticks that found a run in progress and started nothing.' }),
  last_skipped_at: dateTime.nullable(),
  created_at: dateTime,
  updated_at: dateTime,
});
export type Scraper = z.infer<typeof scraper>;

export const runStatus = z.enum(['pending', 'running', 'completed', 'failed', 'stopped']);

export const targetReport = z
  .object({
    created: z.int().min(0).meta({ description: 'Documents created.' }),
    updated: z.int().min(0).meta({ description: 'Documents whose values changed, updated.' }),
    unchanged: z.int().min(0).meta({ description: 'Items whose values had not changed since this scraper wrote them: nothing written.' }),
    removed: z.int().min(0).meta({
      description: 'Documents this scraper created whose key the run no longer collected, kept, unpublished or deleted as `removed` says.',
    }),
    failed: z
      .array(
        z.object({
          key: z.string().nullable().meta({ description: "The item's key, as collected; null when it has none." }),
          field: z
            .string()
            .nullable()
            .meta({ description: 'The attribute that could not be written; null when the whole item was refused.' }),
          reason: z.string(),
        })
      )
      .meta({ description: 'Items not written, at most 100 listed; the others were written.' }),
    failed_count: z.int().min(0).meta({ description: 'Items not written, all of them.' }),
  })
  .meta({ description: "What the run wrote into its scraper's target; null without a target." });
export type TargetReport = z.infer<typeof targetReport>;

/** A document a run wrote into its scraper's target, for the admin panel. */
export const targetWrite = z.object({
  content_type: z.string().meta({ description: 'The content type written, such as `api::listing.listing`.' }),
  document_id: z.string(),
  item_key: z.string().nullable().meta({ description: "The item's key, as written." }),
  action: z.enum(['created', 'updated', 'unpublished', 'deleted']),
  written_at: dateTime,
});
export type TargetWrite = z.infer<typeof targetWrite>;

/** Who last wrote a document of the site: a scraper and its run, or null when no scraper has. */
export const writtenBy = z
  .object({
    scraper: z.object({ id, name: z.string() }),
    run_id: id,
    action: targetWrite.shape.action,
    written_at: dateTime,
  })
  .nullable();
export type WrittenBy = z.infer<typeof writtenBy>;

export const scraperRun = z.object({
  id,
  scraper_id: id,
  status: runStatus,
  trigger: z.enum(['manual', 'schedule']),
  started_at: dateTime.nullable(),
  finished_at: dateTime.nullable(),
  items_collected: z.int().min(0),
  pages_fetched: z.int().min(0).meta({ description: 'Pages that got an answer (robots.txt not counted).' }),
  pages_failed: z.int().min(0).meta({ description: 'Pages after the start page that failed; they do not fail the run.' }),
  items_new: z.int().min(0).nullable().meta({
    description: 'Keys this run collected that the previous compared run did not; null unless a run with change detection on completed.',
  }),
  items_changed: z
    .int()
    .min(0)
    .nullable()
    .meta({ description: "Keys whose content differs from the previous compared run's; null as `items_new`." }),
  items_removed: z
    .int()
    .min(0)
    .nullable()
    .meta({ description: 'Keys the previous compared run collected and this one did not; null as `items_new`.' }),
  target_report: targetReport.nullable(),
  error: z
    .string()
    .nullable()
    .meta({ description: "Why a run failed: the start URL's answer or error, or `interrupted: …` when its process died." }),
  created_at: dateTime,
});
export type ScraperRun = z.infer<typeof scraperRun>;

export const scraperResult = z.object({
  id,
  run_id: id,
  url: z.string().meta({ description: 'The page the item came from.' }),
  data: z.record(z.string(), z.unknown()).meta({ description: 'The selector fields (or `url` and `title`).' }),
  change: z.enum(CHANGES).nullable().meta({
    description:
      'Against the previous compared run, by key and content hash. Null without change detection, for an item without a key, and until (unless) its run completes.',
  }),
  created_at: dateTime,
});
export type ScraperResult = z.infer<typeof scraperResult>;

export const scraperStatus = z.object({
  id,
  status: z.enum(['idle', ...runStatus.options]).meta({ description: "The latest run's status, or `idle` before the first run." }),
  last_run: dateTime
    .nullable()
    .meta({ description: 'When the latest run started (when it was asked for, while it is pending); null before the first run.' }),
  items_count: z.int().min(0).meta({ description: "The latest run's `items_collected`." }),
});

export const runStarted = z.object({ run_id: id, status: z.literal('started') });
export type RunStarted = z.infer<typeof runStarted>;
export const runStopped = z.object({ run_id: id, status: z.literal('stopped') });
export type RunStopped = z.infer<typeof runStopped>;

/** Admin panel: a scraper as the admin routes answer it: the API's, with its owner and latest run. */
export const adminScraper = scraper.extend({ owner: consumer.nullable(), latest_run: scraperRun.nullable() });
export type AdminScraper = z.infer<typeof adminScraper>;

/** Admin panel: `GET /api-suite/scrapers/options`, what a scraper's form offers. */
/** A content type a scraper may write into, as the admin panel's form offers it. */
export const targetType = z.object({
  uid: z.string(),
  name: z.string(),
  draft_and_publish: z.boolean(),
  attributes: z.array(
    z.object({
      name: z.string(),
      type: z.string().meta({ description: "Strapi's attribute type (`string`, `richtext`, `decimal`…)." }),
      key_allowed: z.boolean().meta({ description: "Whether it can be the key that finds an item's document." }),
      required: z.boolean().meta({ description: 'Whether a created document needs it (required, with no default).' }),
    })
  ),
});

export const scraperOptions = z.object({
  proxy_pools: z.array(z.string()),
  target_types: z
    .array(targetType)
    .meta({ description: "The site's collection types a scraper may write into, with the attributes an item can fill." }),
});
export type ScraperOptions = z.infer<typeof scraperOptions>;

export const runEventsWebhook = z
  .object({
    id: z.uuid(),
    url: z.url(),
    events: z.array(z.enum(RUN_EVENTS)),
    secret: z.string().regex(/^[A-Za-z0-9]{32}$/),
    created_at: dateTime,
  })
  .meta({ description: 'A webhook subscription (managed under `/api/webhooks/subscriptions`); the secret is shown here only.' });

export const scraperList = pageOf(scraper);
export const scraperRunList = pageOf(scraperRun);
export const scraperResultList = pageOf(scraperResult);
