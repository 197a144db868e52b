import type { Core, UID } from '@strapi/strapi';
import type { Context, Next } from 'koa';

/**
 * Strapi 5's content manager treats `status` as its own draft/published field, which clashes
 * with the `status` attribute of types without draft-and-publish (the host's article: draft,
 * published, archived; the plugin's API key, order, scraper and run). For those types only:
 * - writes: the content manager reads a body field named `status` as its switch and refuses
 *   anything else ("Invalid status"), so the field is taken out of its body before it validates
 *   and handed back to the document service as data;
 * - lists: its list answer writes its own publication status over the field ("published" for
 *   every entry), so the stored values are put back, with one query a page.
 * Registered in the plugin's register: routes bind their controllers before any bootstrap runs.
 */
const STASH = Symbol('api-suite:content-status');
const LIST_CONTROLLER = 'plugin::content-manager.collection-types';

type ListContext = {
  params: { model: string };
  body?: { results?: Array<{ id: number; status?: unknown }> };
};

interface ControllersRegistry {
  extend(uid: string, extend: (controller: Record<string, (ctx: ListContext) => Promise<unknown>>) => object): unknown;
}

export function registerContentStatusBridge(strapi: Core.Strapi): void {
  const hasOwnStatus = (uid: string): boolean => {
    const model = strapi.contentTypes[uid as UID.ContentType] as { options?: { draftAndPublish?: boolean }; attributes?: Record<string, { type?: string }> } | undefined;
    return Boolean(model && model.options?.draftAndPublish !== true && model.attributes?.status?.type === 'enumeration');
  };

  const takeStatus = async (ctx: Context, next: Next) => {
    const model = String(ctx.params?.model ?? '');
    const body = ctx.request.body as Record<string, unknown> | undefined;
    if ((ctx.method === 'POST' || ctx.method === 'PUT') && hasOwnStatus(model) && body && 'status' in body) {
      (ctx.state as Record<symbol, unknown>)[STASH] = body.status;
      delete body.status;
    }
    await next();
  };
  // A prefix: it also covers /:model/:id and the /actions/publish routes.
  strapi.server.router.use('/content-manager/collection-types/:model', takeStatus);

  strapi.documents.use(async (context, next) => {
    if ((context.action === 'create' || context.action === 'update') && hasOwnStatus(context.uid)) {
      const request = strapi.requestContext.get() as Context | undefined;
      const stashed = request ? (request.state as Record<symbol, unknown>)[STASH] : undefined;
      const params = context.params as { data?: Record<string, unknown> };
      if (stashed !== undefined && params.data && params.data.status === undefined) params.data.status = stashed;
    }
    return next();
  });

  if (!strapi.plugin('content-manager')) return;
  (strapi.get('controllers') as unknown as ControllersRegistry).extend(LIST_CONTROLLER, (controller) => ({
    ...controller,
    async find(ctx: ListContext) {
      const answer = await controller.find(ctx);
      const results = ctx.body?.results;
      if (!hasOwnStatus(ctx.params.model) || !results?.length) return answer;
      const rows = (await strapi.db.query(ctx.params.model as UID.ContentType).findMany({
        select: ['id', 'status'],
        where: { id: { $in: results.map((entry) => entry.id) } },
      })) as Array<{ id: number; status: unknown }>;
      const stored = new Map(rows.map((row) => [row.id, row.status]));
      for (const entry of results) if (stored.has(entry.id)) entry.status = stored.get(entry.id);
      return answer;
    },
  }));
}
