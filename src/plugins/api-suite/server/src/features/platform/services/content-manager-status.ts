import type { Core } from '@strapi/strapi';

/**
 * Content types without draft-and-publish may have an attribute of their own named `status`
 * (an article's draft/published/archived, an order's pending/paid/…, a key's active/revoked).
 * The Content Manager's list answer writes its own publication status over that field on every
 * entry ("published" for every entry of such a type), so the list's Status column would call a
 * draft article, a pending order or a revoked key "published".
 *
 * This puts the stored value back on the list's entries of those types, with one query per page.
 * Registered in the plugin's register: routes bind their controllers before any bootstrap runs.
 */
const CONTROLLER = 'plugin::content-manager.collection-types';

type ListContext = {
  params: { model: string };
  body?: { results?: Array<{ id: number; status?: unknown }> };
};

interface ControllersRegistry {
  extend(uid: string, extend: (controller: Record<string, (ctx: ListContext) => Promise<unknown>>) => object): unknown;
}

/** The content types whose own `status` attribute the Content Manager's list would hide. */
export function typesWithOwnStatus(strapi: Core.Strapi): Set<string> {
  return new Set(
    Object.values(strapi.contentTypes)
      .filter((contentType) => contentType.options?.draftAndPublish !== true && 'status' in (contentType.attributes ?? {}))
      .map((contentType) => contentType.uid as string)
  );
}

export function keepOwnStatusInContentManagerLists(strapi: Core.Strapi): void {
  if (!strapi.plugin('content-manager')) return;
  const owned = typesWithOwnStatus(strapi);
  if (owned.size === 0) return;

  (strapi.get('controllers') as unknown as ControllersRegistry).extend(CONTROLLER, (controller) => ({
    ...controller,
    async find(ctx: ListContext) {
      const answer = await controller.find(ctx);
      const results = ctx.body?.results;
      if (!owned.has(ctx.params.model) || !results?.length) return answer;

      const rows = (await strapi.db.query(ctx.params.model as never).findMany({
        select: ['id', 'status'],
        where: { id: { $in: results.map((entry) => entry.id) } },
      })) as Array<{ id: number; status: unknown }>;
      const stored = new Map(rows.map((row) => [row.id, row.status]));
      for (const entry of results) if (stored.has(entry.id)) entry.status = stored.get(entry.id);
      return answer;
    },
  }));
}
