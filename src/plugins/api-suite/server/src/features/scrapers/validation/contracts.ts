import { z } from 'zod';
import { guarded, ok, rateLimitHeaders } from '../../../contract/common';
import { defineOperations, shared, type ApiDescription } from '../../../contract/openapi';
import { createScraperBody, idParam, listQuery, resultsQuery, runEventsWebhookBody, updateScraperBody } from './index';
import * as answers from './responses';

/** The scraper routes (`/api/v1/scrapers*`, `POST /api/v1/webhooks`) as the OpenAPI document shows them. */

const scraperId = z.object({ id: idParam.meta({ description: "The scraper's id; another consumer's scraper is 404." }) });
const tags = ['Scrapers'];
const TARGET_NOTE =
  "Only administrators may send `target` (403 `target_not_allowed` for anyone else); it is checked against the content type's attributes and the items' fields, and a fault is 422 `invalid_target` with the place in `details.path` (`target.type`, `target.key`, `target.fields.<attribute>`, `target.removed`).";

export const scraperContracts = defineOperations({
  createScraper: {
    method: 'post',
    path: '/api/v1/scrapers',
    operationId: 'createScraper',
    summary: 'Register a scraper',
    description: TARGET_NOTE,
    tags,
    security: 'write',
    body: { required: true, json: createScraperBody },
    responses: guarded({ '201': ok('The scraper.', answers.scraper), '400': shared('BadRequest'), '422': shared('UnprocessableEntity') }),
  },
  listScrapers: {
    method: 'get',
    path: '/api/v1/scrapers',
    operationId: 'listScrapers',
    summary: "List the caller's scrapers",
    description: 'Newest first.',
    tags,
    security: 'read',
    query: listQuery,
    responses: guarded({ '200': ok('A page of scrapers.', answers.scraperList), '400': shared('BadRequest') }),
  },
  getScraper: {
    method: 'get',
    path: '/api/v1/scrapers/{id}',
    operationId: 'getScraper',
    summary: 'One scraper',
    tags,
    security: 'read',
    params: scraperId,
    responses: guarded({ '200': ok('The scraper.', answers.scraper), '404': shared('NotFound') }),
  },
  updateScraper: {
    method: 'patch',
    path: '/api/v1/scrapers/{id}',
    operationId: 'updateScraper',
    summary: 'Change a scraper',
    description: `A changed \`schedule\` takes effect at once (removed when null). ${TARGET_NOTE}`,
    tags,
    security: 'write',
    params: scraperId,
    body: { required: true, json: updateScraperBody },
    responses: guarded({
      '200': ok('The scraper.', answers.scraper),
      '400': shared('BadRequest'),
      '404': shared('NotFound'),
      '422': shared('UnprocessableEntity'),
    }),
  },
  deleteScraper: {
    method: 'delete',
    path: '/api/v1/scrapers/{id}',
    operationId: 'deleteScraper',
    summary: 'Delete a scraper',
    description: 'Stops its run, removes its schedule, and deletes its runs and results.',
    tags,
    security: 'write',
    params: scraperId,
    responses: guarded({ '204': shared('NoContent'), '404': shared('NotFound') }),
  },
  runScraper: {
    method: 'post',
    path: '/api/v1/scrapers/{id}/run',
    operationId: 'runScraper',
    summary: 'Start a run now',
    description: 'One compare-and-set on the scraper: concurrent requests, a schedule tick or another instance never start two runs.',
    tags,
    security: 'write',
    params: scraperId,
    responses: guarded({ '202': ok('The run is queued.', answers.runStarted), '404': shared('NotFound'), '409': shared('Conflict') }),
  },
  stopScraper: {
    method: 'post',
    path: '/api/v1/scrapers/{id}/stop',
    operationId: 'stopScraper',
    summary: 'Stop the current run',
    description: 'The run ends as `stopped` at once; requests in flight are aborted within a second.',
    tags,
    security: 'write',
    params: scraperId,
    responses: guarded({ '200': ok('The stopped run.', answers.runStopped), '404': shared('NotFound'), '409': shared('Conflict') }),
  },
  getScraperStatus: {
    method: 'get',
    path: '/api/v1/scrapers/{id}/status',
    operationId: 'getScraperStatus',
    summary: "The latest run's status",
    tags,
    security: 'read',
    params: scraperId,
    responses: guarded({ '200': ok('The status.', answers.scraperStatus), '404': shared('NotFound') }),
  },
  listScraperRuns: {
    method: 'get',
    path: '/api/v1/scrapers/{id}/runs',
    operationId: 'listScraperRuns',
    summary: "A scraper's runs",
    description: 'Newest first; a run in progress shows its counts as of the last second.',
    tags,
    security: 'read',
    params: scraperId,
    query: listQuery,
    responses: guarded({ '200': ok('A page of runs.', answers.scraperRunList), '400': shared('BadRequest'), '404': shared('NotFound') }),
  },
  getScraperRun: {
    method: 'get',
    path: '/api/v1/scrapers/{id}/runs/{runId}',
    operationId: 'getScraperRun',
    summary: 'One run',
    tags,
    security: 'read',
    params: scraperId.extend({ runId: idParam.meta({ description: 'A run of this scraper.' }) }),
    responses: guarded({ '200': ok('The run.', answers.scraperRun), '404': shared('NotFound') }),
  },
  listScraperResults: {
    method: 'get',
    path: '/api/v1/scrapers/{id}/results',
    operationId: 'listScraperResults',
    summary: "A scraper's results",
    description:
      'In id order, paged as JSON; with `format=ndjson` or `format=csv` every matching result is streamed (`page` and `limit` ignored). CSV columns: `id,run_id,url,created_at` (and `change` with change detection on), then the selector fields in their order (or `url,title`; a field named like a fixed column is prefixed `data_`).',
    tags,
    security: 'read',
    params: scraperId,
    query: resultsQuery,
    parameterDescriptions: {
      run_id: "Only this run's results.",
      change: 'Only results with one of these changes, comma-separated: `new,changed`.',
      format: "The answer's form.",
    },
    responses: guarded({
      '200': {
        description: 'A page of results (JSON), or every result as NDJSON or CSV.',
        headers: rateLimitHeaders,
        json: answers.scraperResultList,
        content: {
          'application/x-ndjson': { text: 'One ScraperResult as JSON per line.' },
          'text/csv': { text: 'A header line, then one line per result.' },
        },
      },
      '400': shared('BadRequest'),
      '404': shared('NotFound'),
    }),
  },
  createRunEventsWebhook: {
    method: 'post',
    path: '/api/v1/webhooks',
    operationId: 'createRunEventsWebhook',
    summary: 'Subscribe to run events',
    description:
      "Creates a webhook subscription (signed deliveries, retries, a test event at once) for the caller's run events, through the same path as `POST /api/webhooks/subscriptions`: any event type that is not a run event, or is unknown or switched off, is 422 `invalid_events`, and a consumer already holding as many subscriptions as their plan allows is 409 `too_many_subscriptions` (the cap in `details.limit`).",
    tags,
    security: 'write',
    body: { required: true, json: runEventsWebhookBody },
    responses: guarded({
      '201': ok('The subscription, with its secret.', answers.runEventsWebhook),
      '400': shared('BadRequest'),
      '409': shared('Conflict'),
      '422': shared('UnprocessableEntity'),
    }),
  },
});

export const scrapersApi: ApiDescription = {
  tags: [{ name: 'Scrapers', description: 'Registered crawlers of the caller, their runs and results, and run-event webhooks.' }],
  components: {
    ScraperSelectors: answers.scraperSelectors,
    ChangeDetection: answers.changeDetection,
    ScraperTarget: answers.scraperTarget,
    TargetReport: answers.targetReport,
    Scraper: answers.scraper,
    ScraperList: answers.scraperList,
    ScraperRun: answers.scraperRun,
    ScraperRunList: answers.scraperRunList,
    ScraperResult: answers.scraperResult,
    ScraperResultList: answers.scraperResultList,
    ScraperStatus: answers.scraperStatus,
    RunStarted: answers.runStarted,
    RunStopped: answers.runStopped,
    RunEventsWebhook: answers.runEventsWebhook,
  },
  operations: Object.values(scraperContracts),
};
