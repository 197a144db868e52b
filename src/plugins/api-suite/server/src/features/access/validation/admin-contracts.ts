import { z } from 'zod';
import { consumer, dataOf, pageOf } from '../../../contract/common';
import { defineContracts } from '../../../contract/route';
import { rowIdParam } from '../../../http/validation';
import {
  adminIssueKeyBody,
  adminKeysQuery,
  adminUsageQuery,
  consumersQuery,
  grantPlanBody,
  keyIdParam,
  keyLimitsBody,
  planBody,
  planUpdateBody,
  userIdParam,
} from './index';
import * as answers from './responses';

/**
 * The contracts of the admin panel's access routes (`/api-suite/access/*`): plans, keys issued for
 * a chosen user, consumers and their plans, and the last hour's usage. Refusals are in Strapi's
 * error body (`{ error: { status, name, message, details } }`).
 */

const planParams = z.object({ id: rowIdParam });
const keyParams = z.object({ id: keyIdParam });

export const adminAccessContracts = defineContracts({
  plans: {
    method: 'get',
    path: '/api-suite/access/plans',
    responses: {
      '200': { description: 'Every plan as stored, cheapest first, with what it holds now.', json: dataOf(z.array(answers.adminPlan)) },
    },
  },
  createPlan: {
    method: 'post',
    path: '/api-suite/access/plans',
    body: { required: true, json: planBody },
    responses: {
      '201': { description: 'The new plan.', json: dataOf(answers.adminPlan) },
      '400': { description: 'A field out of range or missing, or a yearly price without a monthly one (`validation_error`).' },
      '409': { description: 'Another plan has that name (`name_taken`).' },
    },
  },
  updatePlan: {
    method: 'put',
    path: '/api-suite/access/plans/{id}',
    params: planParams,
    body: { required: true, json: planUpdateBody },
    responses: {
      '200': { description: 'The plan after the change.', json: dataOf(answers.adminPlan) },
      '400': { description: 'No change, a field out of range, or a yearly price without a monthly one (`validation_error`).' },
      '404': { description: 'No such plan.' },
      '409': { description: 'Another plan has that name (`name_taken`).' },
    },
  },
  keys: {
    method: 'get',
    path: '/api-suite/access/keys',
    query: adminKeysQuery,
    responses: {
      '200': {
        description: "A page of keys, newest first, each with its owner, its plan and why, and the owner's plan.",
        json: pageOf(answers.adminApiKey),
      },
      '400': { description: 'A bad `page`, `limit` or `user_id` (`validation_error`).' },
    },
  },
  issueKey: {
    method: 'post',
    path: '/api-suite/access/keys',
    body: { required: true, json: adminIssueKeyBody },
    responses: {
      '201': { description: 'The new key, with the key itself (shown once).', json: dataOf(answers.adminIssuedKey) },
      '400': { description: 'A bad field, or a `user_id` or `plan_id` that does not exist (`validation_error`).' },
    },
  },
  updateKey: {
    method: 'put',
    path: '/api-suite/access/keys/{id}',
    params: keyParams,
    body: { required: true, json: keyLimitsBody },
    responses: {
      '200': { description: 'The key with its own limits.', json: dataOf(answers.keyWithLimits) },
      '400': { description: 'No change, or a limit out of range (`validation_error`).' },
      '404': { description: 'No such key.' },
    },
  },
  revokeKey: {
    method: 'delete',
    path: '/api-suite/access/keys/{id}',
    params: keyParams,
    responses: {
      '204': { description: 'The key is revoked (revoking twice is still 204).' },
      '404': { description: 'No such key.' },
    },
  },
  planConsumers: {
    method: 'get',
    path: '/api-suite/access/consumers',
    query: consumersQuery,
    responses: {
      '200': {
        description: 'A page of consumers, each with the plan they are on and why, their grant and their active keys.',
        json: answers.adminConsumerList,
      },
      '400': { description: 'A bad `q`, `page` or `limit` (`validation_error`).' },
    },
  },
  grantPlan: {
    method: 'put',
    path: '/api-suite/access/consumers/{id}/plan',
    params: z.object({ id: userIdParam }),
    body: { required: true, json: grantPlanBody },
    responses: {
      '200': { description: 'The grant and the plan the consumer is on now.', json: dataOf(answers.consumerPlan) },
      '400': { description: 'A bad body, or a `plan_id` that does not exist (`validation_error`).' },
      '404': { description: 'No such consumer.' },
    },
  },
  usage: {
    method: 'get',
    path: '/api-suite/access/usage',
    query: adminUsageQuery,
    responses: {
      '200': { description: 'The last hour, a point a minute, of every key or of `key_id`.', json: dataOf(answers.adminUsage) },
      '400': { description: 'A bad `key_id` or `interval` (`validation_error`).' },
      '404': { description: 'No such key.' },
    },
  },
  usageStream: {
    method: 'get',
    path: '/api-suite/access/usage/stream',
    query: adminUsageQuery,
    responses: {
      '200': {
        description: 'The same report as Server-Sent Events, every `interval` seconds (5 by default).',
        content: {
          'text/event-stream': {
            text: 'Server-Sent Events: `retry:`, then `event: usage` with `data:` the report of `GET /api-suite/access/usage` (its `data`), at once and every `interval` seconds.',
          },
        },
      },
      '400': { description: 'A bad `key_id` or `interval` (`validation_error`), answered as JSON before the stream starts.' },
      '404': { description: 'No such key, answered as JSON before the stream starts.' },
    },
  },
  consumers: {
    method: 'get',
    path: '/api-suite/consumers',
    query: consumersQuery,
    responses: {
      '200': {
        description: 'A page of consumers matching `q` (name or e-mail), to pick the owner of a key or a scraper.',
        json: pageOf(consumer),
      },
      '400': { description: 'A bad `q`, `page` or `limit` (`validation_error`).' },
    },
  },
});
