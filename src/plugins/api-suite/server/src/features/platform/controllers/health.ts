import type { Core } from '@strapi/strapi';
import { getService } from '../../../utils';
import type { Overview } from '../validation/responses';

export default ({ strapi }: { strapi: Core.Strapi }) => ({
  /** Liveness and readiness in one: answers 503 when the database does not answer. */
  async check(ctx: Parameters<Core.ControllerHandler>[0]) {
    try {
      await strapi.db.connection.raw('select 1');
    } catch (error) {
      strapi.log.error(`[api-suite] health: database unreachable: ${(error as Error).message}`);
      ctx.status = 503;
      ctx.body = { status: 'unavailable', database: 'unreachable' };
      return;
    }
    const { jobs } = getService(strapi, 'platform').overview();
    ctx.body = { status: 'ok', database: 'ok', jobs: jobs.driver };
  },

  /** What the admin panel's overview page shows. */
  async overview(ctx: Parameters<Core.ControllerHandler>[0]) {
    const activity = await getService(strapi, 'metrics').activity.read();
    const body: Overview = { ...getService(strapi, 'platform').overview(), activity };
    ctx.body = { data: body };
  },
});
