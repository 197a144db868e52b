import { z } from 'zod';
import { dataOf, pageOf } from '../../../contract/common';
import { defineContracts } from '../../../contract/route';
import {
  adminSubscriptionUpdateBody,
  deliveriesQuery,
  eventTypeNameParam,
  eventTypeUpdateBody,
  filterTestBody,
  listQuery,
  publishBody,
  recoverBody,
  uuidParam,
} from './index';
import * as answers from './responses';

/**
 * The contracts of the admin panel's webhook routes (`/api-suite/webhooks/*`): every consumer's
 * subscriptions, their deliveries, the event types. Answers are in Strapi's envelope (`{ data }`,
 * or a page), refusals in Strapi's error body (`{ data: null, error: { status, name, message, details } }`).
 */

const subscriptionId = z.object({ id: uuidParam });
const deliveryId = z.object({ id: uuidParam });
const eventTypeName = z.object({ name: eventTypeNameParam });

const noSubscription = { description: 'No such subscription (`not_found`).' };
const noDelivery = { description: 'No such delivery (`not_found`).' };

export const adminWebhookContracts = defineContracts({
  listSubscriptions: {
    method: 'get',
    path: '/api-suite/webhooks/subscriptions',
    query: listQuery,
    responses: {
      '200': { description: "A page of every consumer's subscriptions, each with its consumer.", json: pageOf(answers.adminSubscription) },
      '400': { description: 'A bad `page` or `limit` (`validation_error`).' },
    },
  },
  getSubscription: {
    method: 'get',
    path: '/api-suite/webhooks/subscriptions/{id}',
    params: subscriptionId,
    responses: {
      '200': { description: 'The subscription, with its consumer.', json: dataOf(answers.adminSubscription) },
      '404': noSubscription,
    },
  },
  updateSubscription: {
    method: 'put',
    path: '/api-suite/webhooks/subscriptions/{id}',
    params: subscriptionId,
    body: { required: true, json: adminSubscriptionUpdateBody },
    responses: {
      '200': {
        description: 'The subscription as it is now; re-enabling one starts its failure count afresh.',
        json: dataOf(answers.adminSubscription),
      },
      '400': { description: 'A body that is not `{ is_active?, filter? }` with at least one of them (`validation_error`).' },
      '404': noSubscription,
      '422': { description: 'A filter that cannot be applied to the types the subscription receives (`invalid_filter`, with its `path`).' },
    },
  },
  testSubscription: {
    method: 'post',
    path: '/api-suite/webhooks/subscriptions/{id}/test',
    params: subscriptionId,
    responses: {
      '200': {
        description: 'How the signed test event went (sent at once, on a disabled subscription too).',
        json: dataOf(answers.testOutcome),
      },
      '404': noSubscription,
    },
  },
  listDeliveries: {
    method: 'get',
    path: '/api-suite/webhooks/subscriptions/{id}/deliveries',
    params: subscriptionId,
    query: deliveriesQuery,
    responses: {
      '200': { description: "A page of the subscription's deliveries, newest first.", json: pageOf(answers.delivery) },
      '400': { description: 'A bad `page`, `limit` or `status` (`validation_error`).' },
      '404': noSubscription,
    },
  },
  getDelivery: {
    method: 'get',
    path: '/api-suite/webhooks/deliveries/{id}',
    params: deliveryId,
    responses: {
      '200': { description: 'The delivery with its payload and attempts.', json: dataOf(answers.deliveryDetail) },
      '404': noDelivery,
    },
  },
  recoverDeliveries: {
    method: 'post',
    path: '/api-suite/webhooks/subscriptions/{id}/recover',
    params: subscriptionId,
    body: { required: true, json: recoverBody },
    responses: {
      '202': { description: "The time range's failed or cancelled deliveries, queued again.", json: dataOf(answers.recovered) },
      '400': {
        description: 'A `since` or `until` that is not a date-time, `since` over 14 days ago, or `until` before it (`validation_error`).',
      },
      '404': noSubscription,
      '409': { description: 'The subscription is disabled (`subscription_disabled`).' },
    },
  },
  retryDelivery: {
    method: 'post',
    path: '/api-suite/webhooks/deliveries/{id}/retry',
    params: deliveryId,
    responses: {
      '202': { description: 'The delivery, queued again with the same `webhook-id`.', json: dataOf(answers.retryQueued) },
      '404': noDelivery,
      '409': { description: 'The subscription is disabled (`subscription_inactive`).' },
    },
  },
  listEventTypes: {
    method: 'get',
    path: '/api-suite/webhooks/event-types',
    responses: {
      '200': { description: 'Every event type, switched on or not.', json: dataOf(z.array(answers.adminEventType)) },
    },
  },
  updateEventType: {
    method: 'put',
    path: '/api-suite/webhooks/event-types/{name}',
    params: eventTypeName,
    body: { required: true, json: eventTypeUpdateBody },
    responses: {
      '200': { description: 'The event type as it is now.', json: dataOf(answers.adminEventType) },
      '400': {
        description:
          "A body that is not `{ description?, example_payload?, is_active? }` with at least one of them, or an example that does not fit the type's schema (`validation_error`).",
      },
      '404': { description: 'No such event type (`not_found`).' },
    },
  },
  testFilter: {
    method: 'post',
    path: '/api-suite/webhooks/filter-test',
    body: { required: true, json: filterTestBody },
    responses: {
      '200': {
        description: "Whether the data (the type's example, or the payload given) matches the filter.",
        json: dataOf(answers.filterTestOutcome),
      },
      '400': { description: 'A body that is not `{ filter, type, payload? }` (`validation_error`).' },
      '413': { description: 'A payload above 64 KB of JSON (`payload_too_large`).' },
      '422': {
        description:
          'An unknown or switched-off event type (`invalid_events`), or a filter that cannot be applied to it (`invalid_filter`, with its `path`).',
      },
    },
  },
  publishEvents: {
    method: 'post',
    path: '/api-suite/webhooks/events',
    body: { required: true, json: publishBody },
    responses: {
      '202': { description: 'The event ids and the number of deliveries created.', json: dataOf(answers.adminPublished) },
      '400': {
        description: 'A body that is not `{ type, payload }` or `{ events: [{ type, payload }] }` of at most 1,000 (`validation_error`).',
      },
      '422': {
        description:
          "Unknown, switched-off or plugin-only event types (`invalid_events`), or a payload that does not fit its type's schema (`invalid_payload`).",
      },
    },
  },
});
