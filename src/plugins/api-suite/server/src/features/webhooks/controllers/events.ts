import type { Core } from '@strapi/strapi';
import type { Context } from 'koa';
import { getService } from '../../../utils';
import { input } from '../../../http/input';
import { inputs } from '../routes/inputs';
import { publishByHand, tryFilter } from './actions';

/** Event types, and publishing by administrators. */
export default ({ strapi }: { strapi: Core.Strapi }) => ({
  async types(ctx: Context) {
    ctx.body = { data: await getService(strapi, 'webhook-event-types').listActive() };
  },

  /** `{ filter, type, payload? }` → whether the type's example (or the payload) matches the filter. */
  async filterTest(ctx: Context) {
    const { body } = input(ctx, inputs.filterTest);
    ctx.body = await tryFilter(strapi, body);
  },

  async publish(ctx: Context) {
    const published = await publishByHand(strapi, input(ctx, inputs.publish).body);
    ctx.status = 202;
    ctx.body = published;
  },
});
