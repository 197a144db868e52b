import { SCRAPER_DEFAULTS } from '../../../../../shared/scraper-defaults';
import { editable, internal } from '../../plugin-options';

/**
 * Scrapers, their runs and the results they collect (docs/scrapers.md). Each belongs to the
 * consumer that created it (`consumer_id`). Runs and results are written by the run worker
 * straight through knex, so they refer to their scraper and run by plain integer columns.
 */
export default {
  scraper: {
    schema: {
      kind: 'collectionType',
      collectionName: 'api_suite_scrapers',
      info: {
        singularName: 'scraper',
        pluralName: 'scrapers',
        displayName: 'Scraper',
        description: 'A registered crawler: start URL, selectors, limits and schedule',
      },
      options: { draftAndPublish: false },
      pluginOptions: editable('scrapers'),
      attributes: {
        consumer_id: { type: 'string', required: true, configurable: false },
        name: { type: 'string', required: true, maxLength: 200 },
        url: { type: 'string', required: true, maxLength: 2048 },
        schedule: { type: 'string', maxLength: 100 },
        proxy_pool: { type: 'string', maxLength: 100 },
        rate_limit: { type: 'integer', default: 5, min: 1, max: 100 },
        headers: { type: 'json' },
        max_pages: { type: 'integer', default: SCRAPER_DEFAULTS.max_pages, min: 1 },
        follow_links: { type: 'boolean', default: false },
        // Text rather than json: PostgreSQL's jsonb would reorder the fields, and their order is the CSV's columns.
        selectors: { type: 'text' },
        respect_robots_txt: { type: 'boolean', default: true },
        // `{ key?: field }` turns change detection on; null is off.
        change_detection: { type: 'json' },
        // `{ type, key, fields, publish, removed }`: the site's content type its items are written to; null is none.
        target: { type: 'json' },
        status: { type: 'enumeration', enum: ['idle', 'running'], default: 'idle', required: true },
        current_run_id: { type: 'integer' },
        skipped_ticks: { type: 'integer', default: 0 },
        last_skipped_at: { type: 'datetime' },
      },
      indexes: [{ name: 'api_suite_scrapers_consumer', columns: ['consumer_id', 'id'] }],
    },
  },
  'scraper-run': {
    schema: {
      kind: 'collectionType',
      collectionName: 'api_suite_scraper_runs',
      info: { singularName: 'scraper-run', pluralName: 'scraper-runs', displayName: 'Scraper run' },
      options: { draftAndPublish: false },
      pluginOptions: internal('scrapers'),
      attributes: {
        scraper_id: { type: 'integer', required: true },
        status: { type: 'enumeration', enum: ['pending', 'running', 'completed', 'failed', 'stopped'], default: 'pending', required: true },
        trigger: { type: 'enumeration', enum: ['manual', 'schedule'], default: 'manual', required: true },
        started_at: { type: 'datetime' },
        finished_at: { type: 'datetime' },
        items_collected: { type: 'integer', default: 0 },
        pages_fetched: { type: 'integer', default: 0 },
        pages_failed: { type: 'integer', default: 0 },
        // Change detection's counts: set when a run with it on completes, else null.
        items_new: { type: 'integer' },
        items_changed: { type: 'integer' },
        items_removed: { type: 'integer' },
        // What the run wrote into its scraper's target (`TargetReport`); null without a target.
        target_report: { type: 'json' },
        error: { type: 'text' },
        // Refreshed every second by the process running it; a stale one means that process died.
        heartbeat_at: { type: 'datetime' },
      },
      indexes: [
        { name: 'api_suite_scraper_runs_scraper', columns: ['scraper_id', 'id'] },
        { name: 'api_suite_scraper_runs_status', columns: ['status', 'heartbeat_at'] },
      ],
    },
  },
  'scraper-result': {
    schema: {
      kind: 'collectionType',
      collectionName: 'api_suite_scraper_results',
      info: { singularName: 'scraper-result', pluralName: 'scraper-results', displayName: 'Scraper result' },
      options: { draftAndPublish: false },
      pluginOptions: internal('scrapers'),
      attributes: {
        scraper_id: { type: 'integer', required: true },
        run_id: { type: 'integer', required: true },
        url: { type: 'text', required: true },
        data: { type: 'json' },
        // Against the previous compared run, set when this run completes; null without change detection.
        change: { type: 'enumeration', enum: ['new', 'changed', 'unchanged'] },
      },
      indexes: [
        { name: 'api_suite_scraper_results_scraper', columns: ['scraper_id', 'id'] },
        { name: 'api_suite_scraper_results_run', columns: ['run_id', 'id'] },
      ],
    },
  },
};
