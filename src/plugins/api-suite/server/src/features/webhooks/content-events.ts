import type { Core, UID } from '@strapi/strapi';
import { getConfig, getService } from '../../utils';

/**
 * Article and product events (contract section 3), published whatever made the change (the v1
 * API, the content manager, a script) because they are taken from the document service. They go
 * out after the change is committed, so a save that is rolled back announces nothing.
 *
 * article.created on create, article.updated on update, article.published when the status
 * becomes published (on create or update), article.deleted on delete; product.created on create
 * and product.updated on any other change, a deletion included (`deleted: true`).
 */
type Row = Record<string, unknown> & { documentId?: string };
type Emit = Array<{ type: string; payload: Record<string, unknown> }>;

const ARTICLE_FIELDS = ['documentId', 'uuid', 'title', 'slug', 'status', 'createdAt', 'updatedAt'];
const PRODUCT_FIELDS = ['documentId', 'name', 'slug', 'price', 'stock', 'published', 'deleted'];

export function registerContentEvents(strapi: Core.Strapi): void {
  const { article, product } = getConfig(strapi).contentTypes;
  const watched = new Set([article, product].filter((uid) => Boolean(strapi.contentTypes[uid as UID.ContentType])));
  if (watched.size === 0) return;

  const read = async (uid: string, documentId: string): Promise<Row | null> =>
    (await strapi.db.query(uid as UID.ContentType).findOne({
      where: { documentId },
      select: uid === article ? ARTICLE_FIELDS : PRODUCT_FIELDS,
      orderBy: { id: 'asc' },
    })) as Row | null;

  const publishAfterCommit = (events: Emit) => {
    const send = () =>
      setImmediate(() => {
        getService(strapi, 'webhooks')
          .publishMany(events)
          .catch((error: Error) => strapi.log.error(`[api-suite] webhooks: content event not published: ${error.message}`));
      });
    if (!strapi.db.inTransaction()) {
      send();
      return;
    }
    void strapi.db.transaction(({ onCommit }) => onCommit(send)).catch(() => undefined);
  };

  const describeChange = (uid: string, action: string, before: Row | null, after: Row | null): Emit => {
    if (action === 'delete') {
      if (!before) return [];
      return uid === article
        ? [{ type: 'article.deleted', payload: articlePayload(before) }]
        : [{ type: 'product.updated', payload: { ...productPayload(before), deleted: true } }];
    }
    if (!after) return [];
    const created = action === 'create' || action === 'clone';
    if (uid === product) return [{ type: created ? 'product.created' : 'product.updated', payload: productPayload(after) }];
    const events: Emit = [{ type: created ? 'article.created' : 'article.updated', payload: articlePayload(after) }];
    if (after.status === 'published' && before?.status !== 'published') events.push({ type: 'article.published', payload: articlePayload(after) });
    return events;
  };

  strapi.documents.use(async (ctx, next) => {
    if (!watched.has(ctx.uid) || !['create', 'clone', 'update', 'delete', 'publish', 'unpublish'].includes(ctx.action)) return next();
    const params = ctx.params as { documentId?: string } | undefined;
    const before = params?.documentId && ctx.action !== 'create' ? await read(ctx.uid, params.documentId) : null;
    const result = await next();
    const returned = (result as { documentId?: unknown } | null)?.documentId;
    const documentId = typeof returned === 'string' ? returned : params?.documentId;
    if (typeof documentId !== 'string') return result;

    // The state is read now, inside the change's transaction, so events describe this change even
    // when the next one follows before the commit hook runs.
    const after = ctx.action === 'delete' ? null : await read(ctx.uid, documentId);
    const events = describeChange(ctx.uid, ctx.action, before, after);
    if (events.length > 0) publishAfterCommit(events);
    return result;
  });
}

function iso(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  const date = new Date(value as string | number | Date);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

function articlePayload(row: Row): Record<string, unknown> {
  return {
    id: row.uuid ?? row.documentId,
    title: row.title ?? null,
    slug: row.slug ?? null,
    status: row.status ?? null,
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
  };
}

/** A product event's payload; checkout and returned stock announce stock changes with it too. */
export function productPayload(row: Row): Record<string, unknown> {
  return {
    id: row.documentId,
    name: row.name ?? null,
    slug: row.slug ?? null,
    price: row.price === null || row.price === undefined ? null : Number(row.price),
    stock: row.stock ?? null,
    published: row.published === true || row.published === 1,
    deleted: row.deleted === true || row.deleted === 1,
  };
}
