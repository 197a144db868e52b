import { z } from 'zod';
import { account, errorBody, ok, pageOf, rateLimitHeaders } from '../../../contract/common';
import { defineOperations, schemaRef, shared, type ApiDescription, type JsonObject } from '../../../contract/openapi';
import type { Responses } from '../../../contract/route';
import {
  createSubscriptionBody,
  deliveriesQuery,
  filterTestBody,
  listQuery,
  publishBody,
  recoverBody,
  updateSubscriptionBody,
  uuidParam,
} from './index';
import * as answers from './responses';

/**
 * The webhook routes (`/api/webhooks/*`) as the OpenAPI document shows them. Their own refusals
 * use the flat `{ error, code, …extra }` body; the key middleware's (401, 403, 429) keep the
 * `/api/v1` shape on every route it guards, as everywhere.
 */

export const flatErrorSchema = z
  .looseObject({ error: z.string().meta({ description: 'What went wrong.' }), code: z.string().regex(/^[a-z0-9]+(_[a-z0-9]+)*$/) })
  .meta({
    description:
      'The `/api/webhooks` error body: `{ "error": "<message>", "code", …extra }`. A 422 on unknown events adds `invalid_events`; a 409 `too_many_subscriptions` adds `limit`; a 400 lists every bad field in `details`.',
  });

const flatError = (description: string): JsonObject => ({
  description,
  headers: rateLimitHeaders,
  content: { 'application/json': { schema: schemaRef('WebhooksError') } },
});

/** The key middleware's refusals, then the route's own in the flat shape (a route's own 403 replaces the shared one). */
const guarded = <const R extends Responses>(responses: R) => ({
  '403': shared('Forbidden'),
  ...responses,
  '401': shared('Unauthorized'),
  '429': shared('TooManyRequests'),
});

const subscriptionId = z.object({ id: uuidParam.meta({ description: "The subscription's id; another consumer's is 404." }) });
const deliveryId = z.object({ id: uuidParam.meta({ description: "The delivery's id (its `webhook-id`)." }) });
const tags = ['Webhooks'];

const subscriptionList = pageOf(answers.subscription);
const deliveryList = pageOf(answers.delivery);

export const webhookContracts = defineOperations({
  createSubscription: {
    method: 'post',
    path: '/api/webhooks/subscriptions',
    operationId: 'createSubscription',
    summary: 'Subscribe an endpoint to events',
    description:
      'The secret is in the answer and at rotation only. A signed `webhook.test` event is queued at once; the reachability probe never delays the answer. A consumer holds at most as many subscriptions as their plan allows, active or paused; beyond it 409 `too_many_subscriptions` (the cap in `limit`).',
    tags,
    security: 'write',
    body: { required: true, json: createSubscriptionBody },
    responses: guarded({
      '201': ok('The subscription, with its secret.', answers.subscriptionCreated),
      '400': shared('WebhooksBadRequest'),
      '409': shared('WebhooksTooManySubscriptions'),
      '422': shared('WebhooksUnprocessable'),
    }),
  },
  listSubscriptions: {
    method: 'get',
    path: '/api/webhooks/subscriptions',
    operationId: 'listSubscriptions',
    summary: "List the caller's subscriptions",
    tags,
    security: 'read',
    query: listQuery,
    responses: guarded({ '200': ok('A page of subscriptions.', subscriptionList), '400': shared('WebhooksBadRequest') }),
  },
  getSubscription: {
    method: 'get',
    path: '/api/webhooks/subscriptions/{id}',
    operationId: 'getSubscription',
    summary: 'One subscription',
    tags,
    security: 'read',
    params: subscriptionId,
    responses: guarded({ '200': ok('The subscription.', answers.subscription), '404': shared('WebhooksNotFound') }),
  },
  updateSubscription: {
    method: 'patch',
    path: '/api/webhooks/subscriptions/{id}',
    operationId: 'updateSubscription',
    summary: 'Change a subscription',
    description: '`is_active: true` re-enables a disabled subscription with `failure_count` 0.',
    tags,
    security: 'write',
    params: subscriptionId,
    body: { required: true, json: updateSubscriptionBody },
    responses: guarded({
      '200': ok('The subscription.', answers.subscription),
      '400': shared('WebhooksBadRequest'),
      '404': shared('WebhooksNotFound'),
      '422': shared('WebhooksUnprocessable'),
    }),
  },
  deleteSubscription: {
    method: 'delete',
    path: '/api/webhooks/subscriptions/{id}',
    operationId: 'deleteSubscription',
    summary: 'Delete a subscription',
    tags,
    security: 'write',
    params: subscriptionId,
    responses: guarded({ '204': shared('NoContent'), '404': shared('WebhooksNotFound') }),
  },
  testSubscription: {
    method: 'post',
    path: '/api/webhooks/subscriptions/{id}/test',
    operationId: 'testSubscription',
    summary: 'Send a signed test event now',
    description: 'Sent at once and recorded as a delivery; not retried.',
    tags,
    security: 'write',
    params: subscriptionId,
    responses: guarded({ '200': ok('How the test went.', answers.testOutcome), '404': shared('WebhooksNotFound') }),
  },
  rotateSubscriptionSecret: {
    method: 'post',
    path: '/api/webhooks/subscriptions/{id}/rotate-secret',
    operationId: 'rotateSubscriptionSecret',
    summary: 'Rotate the signing secret',
    description: 'For 10 minutes every delivery carries both signatures, the new one first.',
    tags,
    security: 'write',
    params: subscriptionId,
    responses: guarded({ '200': ok('The new secret, shown once.', answers.secretRotated), '404': shared('WebhooksNotFound') }),
  },
  listDeliveries: {
    method: 'get',
    path: '/api/webhooks/subscriptions/{id}/deliveries',
    operationId: 'listDeliveries',
    summary: "A subscription's deliveries",
    description: 'Newest first.',
    tags,
    security: 'read',
    params: subscriptionId,
    query: deliveriesQuery,
    responses: guarded({
      '200': ok('A page of deliveries.', deliveryList),
      '400': shared('WebhooksBadRequest'),
      '404': shared('WebhooksNotFound'),
    }),
  },
  recoverDeliveries: {
    method: 'post',
    path: '/api/webhooks/subscriptions/{id}/recover',
    operationId: 'recoverDeliveries',
    summary: "Send a time range's failed deliveries again",
    description:
      'Every `failed` or `cancelled` delivery of the subscription created between `since` and `until` (default now) is queued again with its own `webhook-id`, so a receiver that was down can catch up. `since` may reach back 14 days. A disabled subscription is 409 `subscription_disabled`.',
    tags,
    security: 'write',
    params: subscriptionId,
    body: { required: true, json: recoverBody },
    responses: guarded({
      '202': ok('Queued again.', answers.recovered),
      '400': shared('WebhooksBadRequest'),
      '404': shared('WebhooksNotFound'),
      '409': { description: 'The subscription is disabled (`subscription_disabled`).', headers: rateLimitHeaders, json: flatErrorSchema },
    }),
  },
  getDelivery: {
    method: 'get',
    path: '/api/webhooks/deliveries/{id}',
    operationId: 'getDelivery',
    summary: 'One delivery with its payload and attempts',
    tags,
    security: 'read',
    params: deliveryId,
    responses: guarded({ '200': ok('The delivery.', answers.deliveryDetail), '404': shared('WebhooksNotFound') }),
  },
  retryDelivery: {
    method: 'post',
    path: '/api/webhooks/deliveries/{id}/retry',
    operationId: 'retryDelivery',
    summary: 'Send a delivery again',
    description: 'Queued with the same `webhook-id`. A disabled subscription is 409 `subscription_inactive`.',
    tags,
    security: 'write',
    params: deliveryId,
    responses: guarded({
      '202': ok('Queued.', answers.retryQueued),
      '404': shared('WebhooksNotFound'),
      '409': { description: 'The subscription is disabled (`subscription_inactive`).', headers: rateLimitHeaders, json: flatErrorSchema },
    }),
  },
  listEventTypes: {
    method: 'get',
    path: '/api/webhooks/event-types',
    operationId: 'listEventTypes',
    summary: 'The event types one may subscribe to',
    description:
      'The active ones, each with an example payload and the JSON Schema of its data. A subscription names types, `*` (every type) or a prefix ending in `.*` (`order.*`).',
    tags,
    security: 'read',
    responses: account({ '200': ok('Every active event type.', z.object({ data: z.array(answers.eventType) })) }),
  },
  publishEvents: {
    method: 'post',
    path: '/api/webhooks/events',
    operationId: 'publishEvents',
    summary: 'Publish an event, or a batch of up to 1,000',
    description:
      "Administrators only. Each payload must fit its type's `schema` from `GET /api/webhooks/event-types`. One delivery per active subscription whose events hold the type or `*`; publishing never waits for a delivery.",
    tags,
    security: 'write',
    body: { required: true, json: publishBody },
    responses: guarded({
      '202': ok('The event ids and the number of deliveries created.', answers.eventsPublished),
      '400': shared('WebhooksBadRequest'),
      '403': {
        description: "The key middleware's refusals (`/api/v1` shape), or a caller who is not an administrator (`forbidden`, flat shape).",
        headers: rateLimitHeaders,
        content: { 'application/json': z.union([errorBody, flatErrorSchema]) },
      },
      '422': {
        description:
          "Unknown or switched-off event types (`invalid_events`, listed in `invalid_events`), or a payload that does not fit its type's schema in the event catalog (`invalid_payload`, each field in `details`).",
        headers: rateLimitHeaders,
        json: flatErrorSchema,
      },
    }),
  },
  testFilter: {
    method: 'post',
    path: '/api/webhooks/filter-test',
    operationId: 'testFilter',
    summary: "Try a payload filter on an event type's example, or on a payload",
    description:
      "The filter is checked against the type's schema as a subscription's is when saved (422 `invalid_filter` with the `path` of the fault), then applied to `payload`, or to the type's `example_payload` when none is given.",
    tags,
    security: 'write',
    body: { required: true, json: filterTestBody },
    responses: guarded({
      '200': ok('Whether the data matches.', answers.filterTestOutcome),
      '400': shared('WebhooksBadRequest'),
      '422': shared('WebhooksUnprocessable'),
    }),
  },
});

export const webhooksApi: ApiDescription = {
  tags: [{ name: 'Webhooks', description: 'Signed webhook subscriptions of the caller, their deliveries, and publishing events.' }],
  components: {
    WebhooksError: flatErrorSchema,
    Subscription: answers.subscription,
    SubscriptionCreated: answers.subscriptionCreated,
    SubscriptionList: subscriptionList,
    DeliveryList: deliveryList,
    Delivery: answers.delivery,
    DeliveryAttempt: answers.attempt,
    DeliveryDetail: answers.deliveryDetail,
    TestOutcome: answers.testOutcome,
    EventType: answers.eventType,
  },
  extra: {
    responses: {
      WebhooksBadRequest: flatError('Invalid input (`validation_error`), every bad field in `details`.'),
      WebhooksNotFound: flatError("Unknown, or another consumer's (`not_found`)."),
      WebhooksTooManySubscriptions: flatError(
        'The caller already holds as many subscriptions as their plan allows (`too_many_subscriptions`, the cap in `limit`): nothing was created. Delete one, or move to a plan that allows more. Administrators are not capped.'
      ),
      WebhooksUnprocessable: flatError(
        'Unknown or switched-off event types (`invalid_events`, listed in `invalid_events`), a payload filter that cannot be applied to the types the subscription receives (`invalid_filter`, with the `path` of the fault, such as `filter.total.$gt`), or an address the server may not reach (`endpoint_not_allowed`).'
      ),
    },
  },
  operations: Object.values(webhookContracts),
};
