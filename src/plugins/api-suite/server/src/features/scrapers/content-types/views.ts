import type { ContentManagerView } from '../../types';

/**
 * Scrapers in the Content Manager. Their runs and results are not shown there (the run worker
 * writes them): a scraper's page under API Suite → Scrapers lists both, with the results' downloads.
 */
export default {
  scraper: {
    mainField: 'name',
    sort: { by: 'name', order: 'ASC' },
    list: ['name', 'url', 'schedule', 'status', 'consumer_id'],
    edit: [
      ['name', 'consumer_id'],
      ['url'],
      ['schedule', 'proxy_pool'],
      [
        ['rate_limit', 4],
        ['max_pages', 4],
        ['follow_links', 4],
      ],
      [['respect_robots_txt', 4]],
      ['selectors'],
      ['change_detection'],
      ['target'],
      ['headers'],
      ['status', 'skipped_ticks'],
    ],
    labels: {
      name: 'Name',
      url: 'Start URL',
      schedule: 'Schedule (cron)',
      proxy_pool: 'Proxy pool',
      rate_limit: 'Requests a second',
      max_pages: 'Pages at most',
      follow_links: 'Follow links',
      respect_robots_txt: 'Respect robots.txt',
      selectors: 'Selectors (JSON)',
      change_detection: 'Change detection (JSON)',
      target: 'Writes into (JSON)',
      headers: 'Request headers',
      status: 'Status',
      consumer_id: 'Consumer',
      skipped_ticks: 'Scheduled runs skipped',
    },
    // Change detection is set on the Scrapers page, which also drops the old state when the key changes;
    // a target through the API, which checks it against the content type's schema.
    readOnlyFields: ['status', 'skipped_ticks', 'change_detection', 'target'],
  },
} satisfies Record<string, ContentManagerView>;
