import { z } from 'zod';
import { account, errorBody, oauthErrorBody, ok, rateLimitHeaders } from '../../../contract/common';
import { defineOperations, shared, type ApiDescription } from '../../../contract/openapi';
import {
  createKeyBody,
  grantPlanBody,
  keyIdParam,
  keyLimitsBody,
  listKeysQuery,
  rerollBody,
  usageQuery,
  usageStreamQuery,
  userIdParam,
} from './index';
import * as answers from './responses';

/** The contracts of the account routes (`/api/v1/keys*`, `/api/v1/usage*`, `/api/v1/oauth/token`, `/api/v1/plans`, `/api/v1/consumers/{userId}`), which the OpenAPI document shows. */

const usageDescription =
  "Requests made with the caller's keys (or one of them) between `from` and `to`: the total, the count by status code, a time series with every bucket, and this month's quota.";

const usageParameters = {
  from: 'Start of the range, ISO 8601 with a time zone (default: 24 hours before `to`).',
  to: 'End of the range, exclusive (default: now).',
  granularity: 'Bucket size of `series`; the range may hold at most 1,500 buckets (else 400).',
  key_id: "One of the caller's keys (any key for administrators; 404 otherwise). Default: all the caller's keys.",
  interval: 'Seconds between events.',
};

export const accessContracts = defineOperations({
  createKey: {
    method: 'post',
    path: '/api/v1/keys',
    operationId: 'createKey',
    summary: 'Issue an API key',
    description:
      'The key is in the answer and nowhere else. New keys of non-administrators get the default plan; a key or OAuth token cannot mint a key with scopes it lacks. Unknown fields are refused (400); `plan_id` and `user_id` are for administrators (others get 403 `forbidden`; an unknown one is 422 `unknown_plan` / `unknown_user`). A consumer holds at most `ACCESS_MAX_KEYS` (20) live keys, revoked and expired ones not counted: beyond it, 409 `too_many_keys` with the cap in `details.limit` (administrators are not capped).',
    tags: ['Keys'],
    security: 'write',
    body: { required: false, json: createKeyBody },
    responses: account({
      '201': ok('The new key, with the key itself.', answers.keyCreated),
      '400': shared('BadRequest'),
      '409': shared('Conflict'),
      '422': shared('UnprocessableEntity'),
    }),
  },
  listKeys: {
    method: 'get',
    path: '/api/v1/keys',
    operationId: 'listKeys',
    summary: 'List API keys',
    description: "The caller's keys, newest first; administrators see every consumer's keys and may filter with `user_id`.",
    tags: ['Keys'],
    security: 'read',
    query: listKeysQuery,
    parameterDescriptions: { user_id: "Administrators: only this user's keys (ignored for others)." },
    responses: account({ '200': ok('A page of keys.', answers.keyList), '400': shared('BadRequest') }),
  },
  revokeKey: {
    method: 'delete',
    path: '/api/v1/keys/{id}',
    operationId: 'revokeKey',
    summary: 'Revoke an API key',
    description: "The key stops working at once; its record is kept. Revoking twice is still 204; another consumer's key is 404.",
    tags: ['Keys'],
    security: 'write',
    params: z.object({ id: keyIdParam.meta({ description: "The key's id." }) }),
    responses: account({ '204': shared('NoContent'), '404': shared('NotFound') }),
  },
  rerollKey: {
    method: 'post',
    path: '/api/v1/keys/{id}/reroll',
    operationId: 'rerollKey',
    summary: 'Reroll an API key',
    description:
      "A new key with the same name, plan, scopes, owner, expiry and own limits; a key with limits of its own carries on its quota (what it used this minute and month counts for the new key, and both draw on it while the old one works). The old key keeps working for `grace_seconds` (default a day; 0 ends it at once, and never past its own expiry), then answers 403 `key_expired`. The new key is in the answer and nowhere else. 409 `key_not_active` for a revoked, expired or already rerolled key; another consumer's key is 404. The new key counts against the consumer's cap on live keys while the old one works: at the cap, 409 `too_many_keys` unless `grace_seconds` is 0.",
    tags: ['Keys'],
    security: 'write',
    params: z.object({ id: keyIdParam.meta({ description: 'The key to replace.' }) }),
    body: { required: false, json: rerollBody },
    responses: account({
      '201': ok('The new key, with the key itself.', answers.keyRerolled),
      '400': shared('BadRequest'),
      '404': shared('NotFound'),
      '409': shared('Conflict'),
    }),
  },
  setKeyLimits: {
    method: 'patch',
    path: '/api/v1/keys/{id}',
    operationId: 'setKeyLimits',
    summary: "Set a key's own limits",
    description:
      "Administrators only (others: 403 `forbidden`): the key's own requests a minute and a month, which its quotas and rate-limit headers follow from its next request; null goes back to the plan's.",
    tags: ['Keys'],
    security: 'write',
    params: z.object({ id: keyIdParam.meta({ description: "The key's id." }) }),
    body: { required: true, json: keyLimitsBody },
    responses: account({
      '200': ok('The key with its limits.', answers.keyLimitsUpdated),
      '400': shared('BadRequest'),
      '404': shared('NotFound'),
    }),
  },
  getUsage: {
    method: 'get',
    path: '/api/v1/usage',
    operationId: 'getUsage',
    summary: "Usage of the caller's keys",
    description: usageDescription,
    tags: ['Usage'],
    security: 'read',
    query: usageQuery,
    parameterDescriptions: usageParameters,
    responses: account({ '200': ok('The usage report.', answers.usageResponse), '400': shared('BadRequest'), '404': shared('NotFound') }),
  },
  streamUsage: {
    method: 'get',
    path: '/api/v1/usage/stream',
    operationId: 'streamUsage',
    summary: 'Usage as Server-Sent Events',
    description:
      usageDescription +
      '\n\nA `text/event-stream` that starts with a `retry:` field (the interval in milliseconds), then sends an `usage` event at once and every `interval` seconds until the client goes away:\n\n' +
      '```\nid: 1\nevent: usage\ndata: {"total":12,"by_status":{"200":12},"series":[…],"month":{"used":12,"quota":1000,"remaining":988}}\n```\n\n' +
      "Each event's `data` is a `UsageReport` (the `data` of `GET /api/v1/usage`). Comment lines (`: heartbeat`) keep the connection alive while a report is computed. Errors in the query are answered as ordinary JSON before the stream starts.\n\n" +
      'A consumer holds at most `ACCESS_MAX_USAGE_STREAMS` (5) streams open at once, counted across every instance when the server has Redis: one more is 429 `too_many_streams` with the cap in `details.limit`, until one closes (administrators are not capped).',
    tags: ['Usage'],
    security: 'read',
    query: usageStreamQuery,
    parameterDescriptions: usageParameters,
    responses: account({
      '200': {
        description: 'The event stream; each `usage` event carries a `UsageReport` as JSON in its `data` field.',
        headers: rateLimitHeaders,
        content: { 'text/event-stream': { text: 'Server-Sent Events: `retry:`, then `event: usage` with `data:` a UsageReport.' } },
      },
      '400': shared('BadRequest'),
      '404': shared('NotFound'),
      '429': {
        description:
          'The consumer already holds as many usage streams open as a consumer may (`too_many_streams`, the cap in `details.limit`); close one first. Not a quota refusal: nothing is counted, and the rate-limit headers show the pool as it stands.',
        json: errorBody,
        headers: rateLimitHeaders,
      },
    }),
  },
  issueToken: {
    method: 'post',
    path: '/api/v1/oauth/token',
    operationId: 'issueToken',
    summary: 'Exchange client credentials for an access token',
    description:
      "OAuth 2.0 client credentials grant (RFC 6749 section 4.4): `client_id` is the key's, `client_secret` the full key. Errors follow RFC 6749 section 5.2. Answers are never cached.",
    tags: ['OAuth'],
    security: 'open',
    body: {
      required: true,
      content: { 'application/json': answers.tokenRequest, 'application/x-www-form-urlencoded': answers.tokenRequest },
    },
    responses: {
      '200': {
        description: 'An access token.',
        headers: {
          'Cache-Control': { description: 'Always `no-store`.', schema: { const: 'no-store' } },
          Pragma: { description: 'Always `no-cache`.', schema: { const: 'no-cache' } },
        },
        json: answers.tokenResponse,
      },
      '400': {
        description:
          '`invalid_request` (missing or malformed fields), `unsupported_grant_type`, or `invalid_scope` (a scope the key does not have).',
        content: { 'application/json': oauthErrorBody },
      },
      '401': {
        description: '`invalid_client`: unknown client, wrong secret, or a revoked or expired key.',
        headers: {
          'WWW-Authenticate': { description: 'The Basic challenge.', required: true, schema: { type: 'string', pattern: '^Basic ' } },
        },
        content: { 'application/json': oauthErrorBody },
      },
    },
  },
  listPlans: {
    method: 'get',
    path: '/api/v1/plans',
    operationId: 'listPlans',
    summary: 'List plans',
    description: 'The price list, cheapest first. Open to anyone.',
    tags: ['Plans'],
    security: 'open',
    responses: { '200': { description: 'Every plan.', json: answers.planList } },
  },
  grantConsumerPlan: {
    method: 'patch',
    path: '/api/v1/consumers/{userId}',
    operationId: 'grantConsumerPlan',
    summary: 'Grant a consumer a plan',
    description:
      "Administrators only (others: 403 `forbidden`). The consumer's keys that have no plan of their own, and their JWT, follow the plan they are on: a live billing subscription's plan first, else the granted one, else the default plan. `null` takes the grant back. An unknown plan is 422 `unknown_plan`; an unknown user 404.",
    tags: ['Plans'],
    security: 'write',
    params: z.object({ userId: userIdParam.meta({ description: "The consumer's user id." }) }),
    body: { required: true, json: grantPlanBody },
    responses: account({
      '200': ok('The grant and the plan the consumer is on now.', answers.consumerPlanResponse),
      '400': shared('BadRequest'),
      '404': shared('NotFound'),
      '422': shared('UnprocessableEntity'),
    }),
  },
});

export const accessApi: ApiDescription = {
  tags: [
    { name: 'Keys', description: 'API keys of the caller (of everyone, for administrators).' },
    { name: 'Usage', description: "Requests made with the caller's keys, and the monthly quota." },
    { name: 'OAuth', description: 'OAuth 2.0 client credentials for API keys.' },
    { name: 'Plans', description: 'The price list: quotas and endpoints of each plan.' },
  ],
  components: {
    Scope: answers.scope,
    KeyStatus: answers.keyStatus,
    ApiKey: answers.apiKey,
    NewApiKey: answers.newApiKey,
    KeyCreated: answers.keyCreated,
    KeyList: answers.keyList,
    RerolledKey: answers.rerolledKey,
    KeyRerolled: answers.keyRerolled,
    KeyWithLimits: answers.keyWithLimits,
    KeyLimitsUpdated: answers.keyLimitsUpdated,
    Plan: answers.plan,
    PlanList: answers.planList,
    ConsumerPlan: answers.consumerPlan,
    UsageReport: answers.usageReport,
    UsageResponse: answers.usageResponse,
    TokenRequest: answers.tokenRequest,
    TokenResponse: answers.tokenResponse,
  },
  operations: Object.values(accessContracts),
};
