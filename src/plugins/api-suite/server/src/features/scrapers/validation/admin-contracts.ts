import { z } from 'zod';
import { dataOf, pageOf } from '../../../contract/common';
import { defineContracts } from '../../../contract/route';
import { adminCreateScraperBody, idParam, listQuery, resultsQuery, updateScraperBody, writtenByQuery } from './index';
import * as answers from './responses';

/** The admin panel's scraper routes (`/api-suite/scrapers*`): every consumer's scrapers, their runs and results. */

const scraperId = z.object({ id: idParam });
const runId = scraperId.extend({ runId: idParam });

const notFound = { description: 'No such scraper.' };
const badQuery = { description: 'A bad `page` or `limit` (`validation_error`, naming the parameter).' };
const badBody = {
  description:
    'A body that does not fit (`validation_error`, naming every bad field), a proxy pool the site did not configure, or a change detection key no item has.',
};
const unreachable = {
  description:
    'A start URL the server may not fetch (`endpoint_not_allowed`, on the `url` field), or a target that does not fit the content type (`invalid_target`, on the part of the target at fault).',
};

export const adminScraperContracts = defineContracts({
  find: {
    method: 'get',
    path: '/api-suite/scrapers',
    query: listQuery,
    responses: {
      '200': {
        description: "A page of every consumer's scrapers, newest first, with their owner and latest run.",
        json: pageOf(answers.adminScraper),
      },
      '400': badQuery,
    },
  },
  options: {
    method: 'get',
    path: '/api-suite/scrapers/options',
    responses: {
      '200': { description: "What a scraper's form offers: the configured proxy pools.", json: dataOf(answers.scraperOptions) },
    },
  },
  create: {
    method: 'post',
    path: '/api-suite/scrapers',
    body: { required: true, json: adminCreateScraperBody },
    responses: {
      '201': { description: 'The scraper, owned by the consumer `user_id` names.', json: dataOf(answers.adminScraper) },
      '400': { description: `${badBody.description} Or a \`user_id\` that names no consumer.` },
      '422': unreachable,
    },
  },
  findOne: {
    method: 'get',
    path: '/api-suite/scrapers/{id}',
    params: scraperId,
    responses: {
      '200': { description: 'The scraper, with its owner and latest run.', json: dataOf(answers.adminScraper) },
      '404': notFound,
    },
  },
  update: {
    method: 'put',
    path: '/api-suite/scrapers/{id}',
    params: scraperId,
    body: { required: true, json: updateScraperBody },
    responses: {
      '200': { description: 'The scraper, changed in the fields the body names; the owner stays.', json: dataOf(answers.adminScraper) },
      '400': badBody,
      '404': notFound,
      '422': unreachable,
    },
  },
  delete: {
    method: 'delete',
    path: '/api-suite/scrapers/{id}',
    params: scraperId,
    responses: {
      '204': { description: 'Deleted: its run stopped, its schedule removed, its runs and results deleted.' },
      '404': notFound,
    },
  },
  run: {
    method: 'post',
    path: '/api-suite/scrapers/{id}/run',
    params: scraperId,
    responses: {
      '202': { description: 'The run is queued.', json: dataOf(answers.runStarted) },
      '404': notFound,
      '409': { description: 'A run is already pending or running (`already_running`).' },
    },
  },
  stop: {
    method: 'post',
    path: '/api-suite/scrapers/{id}/stop',
    params: scraperId,
    responses: {
      '200': { description: 'The stopped run.', json: dataOf(answers.runStopped) },
      '404': notFound,
      '409': { description: 'Nothing runs (`not_running`).' },
    },
  },
  runs: {
    method: 'get',
    path: '/api-suite/scrapers/{id}/runs',
    params: scraperId,
    query: listQuery,
    responses: {
      '200': { description: "A page of the scraper's runs, newest first.", json: pageOf(answers.scraperRun) },
      '400': badQuery,
      '404': notFound,
    },
  },
  runOne: {
    method: 'get',
    path: '/api-suite/scrapers/{id}/runs/{runId}',
    params: runId,
    responses: {
      '200': { description: 'The run.', json: dataOf(answers.scraperRun) },
      '404': { description: 'No such scraper, or no such run of it.' },
    },
  },
  runWrites: {
    method: 'get',
    path: '/api-suite/scrapers/{id}/runs/{runId}/writes',
    params: runId,
    query: listQuery,
    responses: {
      '200': {
        description:
          "A page of the documents the run created, changed, unpublished or deleted in its scraper's target, in the order written.",
        json: pageOf(answers.targetWrite),
      },
      '400': badQuery,
      '404': { description: 'No such scraper, or no such run of it.' },
    },
  },
  writtenBy: {
    method: 'get',
    path: '/api-suite/scrapers/written-by',
    query: writtenByQuery,
    responses: {
      '200': { description: 'The scraper and run that last wrote the document, or null.', json: dataOf(answers.writtenBy) },
      '400': { description: 'No `type` or `document_id` (`validation_error`).' },
    },
  },
  results: {
    method: 'get',
    path: '/api-suite/scrapers/{id}/results',
    params: scraperId,
    query: resultsQuery,
    responses: {
      '200': {
        description: "A page of the scraper's results, in id order, as JSON (whatever `format` says).",
        json: pageOf(answers.scraperResult),
      },
      '400': { description: 'A bad `page`, `limit`, `run_id`, `change` or `format` (`validation_error`, naming the parameter).' },
      '404': notFound,
    },
  },
});
