import type { Core, UID } from '@strapi/strapi';
import type { Context, Next } from 'koa';

/**
 * Strapi 5's content manager reads a body field named `status` as its own draft/published
 * switch and refuses anything else ("Invalid status"). Types without draft-and-publish that have
 * a `status` attribute of their own (the host's article: draft, published, archived; the
 * plugin's API key: active, revoked, expired) could then not be saved in the admin panel with
 * most of their values. For those types only, the field is taken out of the content manager's
 * body before it validates and handed back to the document service as data.
 */
const STASH = Symbol('api-suite:content-status');

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
}
