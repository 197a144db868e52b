import { account, ok } from '../../../contract/common';
import { defineOperations, shared, type ApiDescription } from '../../../contract/openapi';
import { checkoutBody, planChoiceBody } from './index';
import * as answers from './responses';

/** The contracts of `/api/v1/billing/*` (self-serve plans through Stripe Billing), which the OpenAPI document shows. */
export const billingContracts = defineOperations({
  listBillingPlans: {
    method: 'get',
    path: '/api/v1/billing/plans',
    operationId: 'listBillingPlans',
    summary: 'Plans for sale',
    description:
      'The plans a consumer can buy (a monthly price above 0) and the default plan, cheapest first, with currency, overage, the yearly price where there is one, and the free trial of a first purchase. Open to anyone.',
    tags: ['Billing'],
    security: 'open',
    responses: { '200': { description: 'The price list.', json: answers.billingPlanList }, '503': shared('ServiceUnavailable') },
  },
  createBillingCheckout: {
    method: 'post',
    path: '/api/v1/billing/checkout',
    operationId: 'createBillingCheckout',
    summary: 'Buy a plan',
    description:
      "A Stripe Checkout Session in subscription mode that accepts promotion codes. `interval: month` (the default): the plan's monthly price and, with overage, its metered price. `interval: year`: the plan's yearly price alone; a plan with overage gets its monthly metered price added to the subscription once it exists. The consumer's first purchase starts with the plan's free trial, if it has one. Send the consumer to `url`; the plan applies to every key of theirs once Stripe reports the subscription. 400 `invalid_plan` for an unknown, default or free plan, 400 `interval_not_offered` for `year` on a plan without a yearly price; 409 `already_subscribed` while a subscription is live (use change-plan).",
    tags: ['Billing'],
    security: 'write',
    body: { required: true, json: checkoutBody },
    responses: account({
      '200': ok('The session.', answers.checkoutSession),
      '400': shared('BadRequest'),
      '409': shared('Conflict'),
      '502': shared('BadGateway'),
      '503': shared('ServiceUnavailable'),
    }),
  },
  changeBillingPlan: {
    method: 'post',
    path: '/api/v1/billing/change-plan',
    operationId: 'changeBillingPlan',
    summary: 'Change plan',
    description:
      "Moves the subscription to another plan's prices of the same interval with proration; to the default plan it cancels at the end of the period. 400 `interval_not_offered` when the subscription is yearly and the plan has no yearly price; 409 `no_subscription` without a live subscription.",
    tags: ['Billing'],
    security: 'write',
    body: { required: true, json: planChoiceBody },
    responses: account({
      '200': ok('The subscription after the change.', answers.billingSubscriptionResponse),
      '400': shared('BadRequest'),
      '409': shared('Conflict'),
      '502': shared('BadGateway'),
      '503': shared('ServiceUnavailable'),
    }),
  },
  createBillingPortalSession: {
    method: 'post',
    path: '/api/v1/billing/portal',
    operationId: 'createBillingPortalSession',
    summary: 'Open the Stripe Billing Portal',
    description:
      "A Stripe Billing Portal session for the consumer's cards, invoices and cancellation. 409 `no_customer` before the first purchase.",
    tags: ['Billing'],
    security: 'write',
    responses: account({
      '200': ok('The portal session.', answers.portalSession),
      '409': shared('Conflict'),
      '502': shared('BadGateway'),
      '503': shared('ServiceUnavailable'),
    }),
  },
  getBillingSubscription: {
    method: 'get',
    path: '/api/v1/billing/subscription',
    operationId: 'getBillingSubscription',
    summary: "The consumer's subscription",
    description: "Plan, status, interval, period end, trial end, grace period and this period's overage (served and reported).",
    tags: ['Billing'],
    security: 'read',
    responses: account({ '200': ok('The subscription.', answers.billingSubscriptionResponse), '503': shared('ServiceUnavailable') }),
  },
});

export const billingApi: ApiDescription = {
  tags: [
    {
      name: 'Billing',
      description:
        'Buy a plan through Stripe Checkout, change it, manage payment in the Stripe portal, and read the subscription and its overage.',
    },
  ],
  components: {
    BillingPlan: answers.billingPlan,
    BillingPlanList: answers.billingPlanList,
    CheckoutSession: answers.checkoutSession,
    BillingStatus: answers.billingStatus,
    BillingSubscription: answers.billingSubscription,
    BillingSubscriptionResponse: answers.billingSubscriptionResponse,
    PortalSession: answers.portalSession,
  },
  operations: Object.values(billingContracts),
};
