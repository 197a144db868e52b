import { z } from 'zod';
import { dataOf } from '../../../contract/common';
import { defineContracts } from '../../../contract/route';
import { checkoutBody } from './index';
import * as answers from './responses';

/**
 * The contracts of the commerce routes under /api (docs/commerce.md): checkout, Stripe's webhook
 * and the sales report. They are not in the OpenAPI document. Checkout and the report answer
 * refusals as `{ errors: [{ message }] }`, the webhook as `{ error }`.
 */

const UNAUTHENTICATED = {
  description:
    "No `Authorization: Bearer <jwt>`, or a token that does not verify (an API key or OAuth token included, a blocked user's too).",
  json: answers.errorList,
};

export const commerceContracts = defineContracts({
  checkout: {
    method: 'post',
    path: '/api/checkout',
    // Read by `parseCheckout`, which first answers a missing, null or empty `items` with 400 `Cart is empty`, then parses this schema.
    body: { required: true, json: checkoutBody },
    responses: {
      '200': {
        description: 'The pending order, its stock reserved, and the Stripe Checkout page to pay it on.',
        json: answers.checkoutResponse,
      },
      '400': {
        description:
          'An empty cart (`Cart is empty`), a bad field, an unknown or unpublished product, or a total above 999,999.99: one message per problem.',
        json: answers.errorList,
      },
      '401': UNAUTHENTICATED,
      '409': {
        description: "A product short of stock (one message each), or past the buyer's hold limits (`too_many_held`).",
        json: answers.errorList,
      },
      '500': { description: '`Checkout failed`: Stripe not configured or not reachable; nothing stays reserved.', json: answers.errorList },
    },
  },
  stripeWebhook: {
    method: 'post',
    path: '/api/webhook/stripe',
    body: {
      required: true,
      content: {
        'application/json': z
          .unknown()
          .meta({ description: 'A Stripe event, verified with `Stripe-Signature` over the raw bytes Stripe sent.' }),
      },
    },
    responses: {
      '200': {
        description: 'The event is verified and applied (or was before, or is of a type not handled).',
        json: answers.stripeWebhookReceived,
      },
      '400': { description: '`Missing Stripe-Signature header` or `Invalid Stripe signature`.', json: answers.errorMessage },
      '500': {
        description: '`Webhook receiver misconfigured` (no webhook secret, or no raw body), or `Event not processed` (Stripe retries it).',
        json: answers.errorMessage,
      },
    },
  },
  salesReport: {
    method: 'get',
    path: '/api/reports/sales',
    query: z.object({
      period: answers.reportPeriod.optional().meta({ description: '1, 7 or 30 days back from now; anything else (or nothing) is a week.' }),
    }),
    responses: {
      '200': {
        description: 'The sales of the period: orders paid, shipped or delivered, their revenue and mean.',
        json: dataOf(answers.salesFigures),
      },
      '401': UNAUTHENTICATED,
      '403': { description: '`Only administrators may read sales reports`.', json: answers.errorList },
      '500': { description: '`The report could not be made` (logged).', json: answers.errorList },
    },
  },
});
