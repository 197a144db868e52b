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
 *   every entry), so the stored values are put back, with one query a page;
 * - one document (the edit view's load, and the answers of create, update, clone, publish and
 *   discard): its document-metadata service sets `status` to undefined for types without
 *   draft-and-publish, which drops the field from the answer. The edit view then shows no value
 *   and refuses to save a required status, so the document's own value is kept there.
 * Registered in the plugin's register: routes bind their controllers before any bootstrap runs.
 */
const STASH = Symbol('api-suite:content-status');
const LIST_CONTROLLER = 'plugin::content-manager.collection-types';
const DOCUMENT_METADATA = 'plugin::content-manager.document-metadata';
const READ = 'plugin::content-manager.explorer.read';

type ListContext = {
  params: { model: string };
  state: { userAbility?: { can(action: string, subject: string, field?: string): boolean } };
  body?: { results?: Array<{ id: number; status?: unknown }> };
};

interface ControllersRegistry {
  extend(uid: string, extend: (controller: Record<string, (ctx: ListContext) => Promise<unknown>>) => object): unknown;
}

type FormattedDocument = { data: Record<string, unknown> | null | undefined; meta: unknown };

interface DocumentMetadataService {
  formatDocumentWithMetadata(uid: string, document: Record<string, unknown> | null | undefined, opts?: object): Promise<FormattedDocument>;
}

interface ServicesRegistry {
  extend(uid: string, extend: (service: DocumentMetadataService) => DocumentMetadataService): unknown;
}

export function registerContentStatusBridge(strapi: Core.Strapi): void {
  const hasOwnStatus = (uid: string): boolean => {
    const model = strapi.contentTypes[uid as UID.ContentType] as
      { options?: { draftAndPublish?: boolean }; attributes?: Record<string, { type?: string }> } | undefined;
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

  // The document handed in is the one the user may read (already sanitized by the controller), so
  // a role without read access to the field still gets no value.
  (strapi.get('services') as unknown as ServicesRegistry).extend(DOCUMENT_METADATA, (service) => ({
    ...service,
    async formatDocumentWithMetadata(uid, document, opts) {
      const formatted = await service.formatDocumentWithMetadata(uid, document, opts);
      if (!hasOwnStatus(uid) || !document || !formatted.data || !('status' in document)) return formatted;
      return { ...formatted, data: { ...formatted.data, status: document.status } };
    },
  }));

  (strapi.get('controllers') as unknown as ControllersRegistry).extend(LIST_CONTROLLER, (controller) => ({
    ...controller,
    async find(ctx: ListContext) {
      const answer = await controller.find(ctx);
      const results = ctx.body?.results;
      if (!hasOwnStatus(ctx.params.model) || !results?.length) return answer;
      // The list's own sanitizing dropped the field for a role that may not read it; the
      // publication status written over it says nothing either way, so it is only put back for
      // a role that may read it.
      if (!ctx.state.userAbility?.can(READ, ctx.params.model, 'status')) return answer;
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
