import type { Core, UID } from '@strapi/strapi';

type Context = Parameters<Core.ControllerHandler>[0];
type Where = Record<string, unknown>;

/**
 * What the content API may show to whom (contract section 7). Anonymous callers (the Public
 * role) and ordinary users see only published entries; administrators and Strapi API tokens
 * issued in the admin panel see everything.
 */
export async function seesEverything(strapi: Core.Strapi, ctx: Context): Promise<boolean> {
  const auth = ctx.state.auth as { strategy?: { name?: string }; credentials?: unknown } | undefined;
  if (!auth?.credentials) return false;
  // Strapi 5.54 names its admin-issued token strategy content-api-token (api-token before).
  if (auth.strategy?.name === 'content-api-token' || auth.strategy?.name === 'api-token') return true;
  const user = ctx.state.user as { id?: number } | undefined;
  if (!user?.id) return false;
  // The api-suite plugin owns what "administrator" means (the users-permissions role it creates).
  const consumers = strapi.plugin('api-suite').service('consumers') as { isAdministrator(userId: number): Promise<boolean> };
  return consumers.isAdministrator(user.id);
}

/**
 * A core controller whose find and findOne are limited to `visible` rows for callers who may
 * not see everything. For draft-and-publish types pass `publishedOnly` so a `?status=draft`
 * asked by the caller is overridden.
 */
export function visibleOnly(strapi: Core.Strapi, uid: UID.ContentType, rule: { visible?: Where; publishedOnly?: boolean }) {
  return {
    async find(this: CoreController, ctx: Context) {
      await this.validateQuery(ctx);
      const query = await this.sanitizeQuery(ctx);
      if (!(await seesEverything(strapi, ctx))) restrict(query, rule);
      const { results, pagination } = await strapi.service(uid as UID.Service).find(query);
      const sanitized = await this.sanitizeOutput(results, ctx);
      return this.transformResponse(sanitized, { pagination });
    },

    async findOne(this: CoreController, ctx: Context) {
      await this.validateQuery(ctx);
      const query = await this.sanitizeQuery(ctx);
      if (!(await seesEverything(strapi, ctx))) restrict(query, rule);
      const entity = await strapi.service(uid as UID.Service).findOne(ctx.params.id, query);
      if (!entity) return ctx.notFound();
      const sanitized = await this.sanitizeOutput(entity, ctx);
      return this.transformResponse(sanitized);
    },
  };
}

interface CoreController {
  validateQuery(ctx: Context): Promise<void>;
  sanitizeQuery(ctx: Context): Promise<Record<string, unknown>>;
  sanitizeOutput(data: unknown, ctx: Context): Promise<unknown>;
  transformResponse(data: unknown, meta?: Record<string, unknown>): unknown;
}

function restrict(query: Record<string, unknown>, rule: { visible?: Where; publishedOnly?: boolean }): void {
  if (rule.visible) {
    query.filters = query.filters ? { $and: [query.filters, rule.visible] } : { ...rule.visible };
  }
  if (rule.publishedOnly) query.status = 'published';
}
