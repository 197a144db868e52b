import { errorBody, rateLimitHeaders } from '../../../contract/common';
import { defineOperations, shared, type ApiDescription, type ResponseSpec } from '../../../contract/openapi';
import { deleteAccountBody } from './index';
import * as answers from './responses';

/** The contracts of `/api/v1/account` (a consumer's own account: everything held about them, and closing it), which the OpenAPI document shows. */

const SESSION_ONLY =
  "Only with the consumer's own sign-in: a users-permissions JWT (`POST /api/auth/local`) as `Authorization: Bearer`. An API key or an OAuth token is refused with 403 `session_required`.";

const refusals = {
  '401': {
    description: 'No credential (`api_key_required`), or a JWT that does not verify or whose account is gone (`invalid_token`).',
    json: errorBody,
  },
  '403': {
    description: "A credential other than the consumer's own sign-in (`session_required`), or the shared key (`consumer_required`).",
    json: errorBody,
  },
} satisfies Record<string, ResponseSpec>;

export const accountContracts = defineOperations({
  exportAccount: {
    method: 'get',
    path: '/api/v1/account/export',
    operationId: 'exportAccount',
    summary: 'Export everything held about you',
    description: `The profile, every API key (prefixes, never a key or its hash), webhook subscriptions (never their signing secrets), scrapers, requests by month, orders and billing, as one JSON document sent as a download. ${SESSION_ONLY}`,
    tags: ['Account'],
    security: 'session',
    responses: {
      '200': {
        description: 'Everything held about the consumer.',
        json: answers.accountExport,
        headers: {
          ...rateLimitHeaders,
          'Content-Disposition': {
            description: '`attachment; filename="account-<consumer_id>.json"`, so a browser saves it.',
            schema: { type: 'string' },
          },
        },
      },
      ...refusals,
    },
  },
  deleteAccount: {
    method: 'delete',
    path: '/api/v1/account',
    operationId: 'deleteAccount',
    summary: 'Close your account',
    description: `Asks for the account's password again. Then, before answering: every API key stops working on every server, webhook subscriptions are deleted and their pending deliveries cancelled (nothing is sent after the answer), scrapers are stopped and deleted with their runs and results, a live Stripe subscription is cancelled, orders and usage records are kept for accounting without the person (their user and shipping address cleared, the opaque \`consumer_id\` kept), the user is removed, and an e-mail confirms it. Stripe refusing or out of reach is a 502 and nothing is deleted. ${SESSION_ONLY}`,
    tags: ['Account'],
    security: 'session',
    body: { required: true, json: deleteAccountBody },
    responses: {
      '204': { description: 'The account is closed; its JWT and keys are refused from now on.' },
      '400': {
        description:
          "A body that is not `{ password }` (`validation_error`, naming the field), or not the account's password (`invalid_password`).",
        json: errorBody,
      },
      ...refusals,
      '429': {
        description: 'Five wrong passwords within 15 minutes (`too_many_attempts`): wait `Retry-After` seconds.',
        json: errorBody,
        headers: {
          'Retry-After': {
            description: 'Seconds until a password is checked again.',
            required: true,
            schema: { type: 'integer', minimum: 1 },
          },
        },
      },
      '502': shared('BadGateway'),
    },
  },
});

export const accountsApi: ApiDescription = {
  tags: [{ name: 'Account', description: "The signed-in consumer's own account: a copy of everything held about them, and closing it." }],
  components: {
    AccountProfile: answers.accountProfile,
    AccountUsageMonth: answers.accountUsageMonth,
    AccountOrder: answers.accountOrder,
    AccountBilling: answers.accountBilling,
    AccountExport: answers.accountExport,
  },
  operations: Object.values(accountContracts),
};
