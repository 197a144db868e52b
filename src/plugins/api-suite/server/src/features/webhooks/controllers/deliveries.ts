import type { Core } from '@strapi/strapi';
import { inputs } from '../routes/inputs';
import { deliveryActions } from './actions';

/** Delivery records: per subscription, one with its attempts, manual retry, and recovering a time range. */
export default ({ strapi }: { strapi: Core.Strapi }) => {
  const actions = deliveryActions(strapi, {
    inputs: inputs.api,
    view: (data) => data,
    inactive: 'The subscription is disabled: re-enable it with PATCH { "is_active": true } first',
  });
  return { find: actions.deliveries, findOne: actions.delivery, retry: actions.retry, recover: actions.recover };
};
