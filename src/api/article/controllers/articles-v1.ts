import type { Core } from '@strapi/strapi';
import type { Context } from 'koa';
import { callerOf, v1Http } from '../../../lib/v1';
import { articleRef, commentsQuery, createBody, includeQuery, listQuery, patchBody, putBody } from '../validation/v1';

type Write = 'create' | 'update' | 'delete';

/**
 * /api/v1/articles. The api-suite access middleware has already authenticated the caller and
 * checked the consumer's plan (and, for keys and OAuth tokens, the scope). Reads need nothing
 * more than that valid credential, whoever holds it, and show what a key holder sees (every
 * status): any signed-in user can issue themselves a key, so a narrower view for the same user's
 * JWT would hide nothing. Writes are held here to the role permissions of the user behind the
 * credential, whatever its kind: a key never does more than the user it belongs to
 * (docs/articles.md). Errors are thrown: the api-suite's `nested-errors` middleware, named in
 * the routes' config, answers them in the /api/v1 body.
 */
export default ({ strapi }: { strapi: Core.Strapi }) => {
  const { ApiError } = v1Http(strapi);
  const articles = () => strapi.service('api::article.articles-v1') as ReturnType<typeof import('../services/articles-v1').default>;

  /** Reads: a valid credential, whatever its kind (callerOf answers 401 without one). */
  const allowRead = (ctx: Context) => {
    callerOf(strapi, ctx);
  };

  const allowWrite = async (ctx: Context, action: Write) => {
    const caller = callerOf(strapi, ctx);
    // Administrators may write whatever their credential; the shared key is the site's own.
    if (caller.isAdmin || caller.userId === null) return;
    const user = await strapi.db
      .query('plugin::users-permissions.user')
      .findOne({ where: { id: caller.userId }, populate: { role: { select: ['id'] } } });
    const granted = user?.role
      ? await strapi.db
          .query('plugin::users-permissions.permission')
          .count({ where: { role: { id: user.role.id }, action: `api::article.article.${action}` } })
      : 0;
    if (granted === 0) throw new ApiError(403, 'forbidden', `Your role may not ${action} articles`);
  };

  const ref = (ctx: Context): string => {
    const parsed = articleRef.safeParse(String(ctx.params.id));
    if (!parsed.success) throw new ApiError(404, 'not_found', 'Article not found');
    return parsed.data;
  };

  return {
    async find(ctx: Context) {
      allowRead(ctx);
      const query = listQuery.parse(ctx.query);
      ctx.body = await articles().list(query, query.limit ?? query.per_page ?? 20);
    },

    async findOne(ctx: Context) {
      allowRead(ctx);
      const { include } = includeQuery.parse(ctx.query);
      ctx.body = { data: await articles().findOne(ref(ctx), include) };
    },

    async create(ctx: Context) {
      await allowWrite(ctx, 'create');
      const body = createBody.parse(ctx.request.body ?? {});
      ctx.status = 201;
      ctx.body = { data: await articles().create(body) };
    },

    async replace(ctx: Context) {
      await allowWrite(ctx, 'update');
      const id = ref(ctx);
      await articles().assertExists(id);
      ctx.body = { data: await articles().update(id, putBody.parse(ctx.request.body ?? {}), 'put') };
    },

    async patch(ctx: Context) {
      await allowWrite(ctx, 'update');
      const id = ref(ctx);
      await articles().assertExists(id);
      ctx.body = { data: await articles().update(id, patchBody.parse(ctx.request.body ?? {}), 'patch') };
    },

    async remove(ctx: Context) {
      await allowWrite(ctx, 'delete');
      await articles().remove(ref(ctx));
      ctx.status = 204;
      ctx.body = null;
    },

    async comments(ctx: Context) {
      allowRead(ctx);
      const id = ref(ctx);
      const { page, limit } = commentsQuery.parse(ctx.query);
      ctx.body = await articles().comments(id, page, limit);
    },
  };
};
