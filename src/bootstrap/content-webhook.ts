import { isNativeError } from 'node:util/types';
import type { Core, UID } from '@strapi/strapi';

/**
 * The content-change webhook (contract section 8): when CONTENT_WEBHOOK_URL is set, every
 * committed create or update of a product, page or article is announced to it with
 * `{ event, id, alias, published }`. It is a best-effort notification: one attempt, three
 * seconds, never retried, and never able to slow down or fail the save that caused it.
 */

export type ContentEvent = 'created' | 'updated';

export interface ContentNotification {
  event: ContentEvent;
  id: number;
  alias: string | null;
  published: boolean;
}

const TIMEOUT_MS = 3_000;

/** The slice of the api-suite plugin's outbound client used here. */
interface Outbound {
  request(url: string, req: { method: string; headers: Record<string, string>; body: string; timeoutMs: number }): Promise<{ status: number }>;
}

type Row = { id: number; slug?: string | null } & Record<string, unknown>;

interface Watched {
  select: string[];
  /** The document's state from all its rows (one, or a draft and a published one for pages). */
  describe(rows: Row[]): { row: Row; published: boolean } | undefined;
}

const WATCHED: Partial<Record<UID.ContentType, Watched>> = {
  'api::article.article': {
    select: ['id', 'slug', 'status'],
    describe: (rows) => (rows[0] ? { row: rows[0], published: rows[0].status === 'published' } : undefined),
  },
  'api::product.product': {
    select: ['id', 'slug', 'published', 'deleted'],
    describe: (rows) => (rows[0] ? { row: rows[0], published: rows[0].published === true && rows[0].deleted !== true } : undefined),
  },
  'api::page.page': {
    select: ['id', 'slug', 'publishedAt'],
    describe: (rows) => {
      // A published page is announced as the public sees it: the published version's id and slug.
      const published = rows.find((row) => row.publishedAt != null);
      const row = published ?? rows[0];
      return row ? { row, published: Boolean(published) } : undefined;
    },
  },
};

/**
 * Document-service actions that change what a watched document is. `publish` and `unpublish`
 * change what the public sees of a page, so they are updates too; delete is not announced
 * because the contract's events are created and updated only.
 */
const EVENTS = new Map<string, ContentEvent>([
  ['create', 'created'],
  ['clone', 'created'],
  ['update', 'updated'],
  ['publish', 'updated'],
  ['unpublish', 'updated'],
]);

interface Pending {
  uid: UID.ContentType;
  documentId: string;
  event: ContentEvent;
}

export function registerContentWebhook(strapi: Core.Strapi): void {
  const target = process.env.CONTENT_WEBHOOK_URL?.trim();
  if (!target) return;
  // Only the origin is ever logged: the path or query may carry a token.
  const origin = assertHttpUrl(target).origin;

  // One batch per outer transaction, so a save made of several document calls (the admin
  // panel's "save and publish" is an update then a publish in one transaction) sends one notification.
  const batches = new WeakMap<object, Map<string, Pending>>();

  const deliverAll = (pending: Iterable<Pending>): void => {
    for (const item of pending) {
      void deliver(strapi, target, item).catch((error: unknown) => {
        strapi.log.warn(`[content-webhook] ${item.uid} ${item.documentId} (${item.event}) not delivered to ${origin}: ${describeError(error)}`);
      });
    }
  };

  const schedule = (item: Pending): void => {
    if (!strapi.db.inTransaction()) {
      // The document service committed its own transaction before next() resolved; the next
      // turn of the event loop lets the caller's answer go out before any webhook work starts.
      setImmediate(() => deliverAll([item]));
      return;
    }
    // Called inside someone else's transaction: joining it (a nested call reuses it) is the way
    // to reach its onCommit, so nothing is sent for a save that is rolled back.
    void strapi.db
      .transaction(({ trx, onCommit }) => {
        const key = `${item.uid}:${item.documentId}`;
        let batch = batches.get(trx);
        if (!batch) {
          const created = new Map<string, Pending>();
          batches.set(trx, created);
          batch = created;
          onCommit(() => {
            batches.delete(trx);
            setImmediate(() => deliverAll(created.values()));
          });
        }
        // The first action names the event (a create then a publish is still a creation).
        if (!batch.has(key)) batch.set(key, item);
      })
      .catch((error: unknown) => strapi.log.warn(`[content-webhook] could not defer the notification: ${describeError(error)}`));
  };

  strapi.documents.use(async (ctx, next) => {
    const result = await next();
    try {
      const event = EVENTS.get(ctx.action);
      if (event && WATCHED[ctx.uid]) {
        const documentId = changedDocumentId(ctx.params, result);
        if (documentId) schedule({ uid: ctx.uid, documentId, event });
      }
    } catch (error) {
      strapi.log.warn(`[content-webhook] ${ctx.uid}: ${describeError(error)}`);
    }
    return result;
  });
}

/** The document a call changed, or undefined when it changed nothing (an update of an unknown document, a publish with no draft). */
function changedDocumentId(params: unknown, result: unknown): string | undefined {
  if (!isRecord(result)) return undefined;
  if (Array.isArray(result.entries) && result.entries.length === 0) return undefined;
  if (typeof result.documentId === 'string') return result.documentId;
  return isRecord(params) && typeof params.documentId === 'string' ? params.documentId : undefined;
}

/**
 * Reads the document as committed, so the notification says what the public now sees even when
 * the caller asked for a narrow selection of fields, then posts it once.
 */
async function deliver(strapi: Core.Strapi, target: string, item: Pending): Promise<void> {
  const watched = WATCHED[item.uid];
  if (!watched) return;
  const rows = (await strapi.db.query(item.uid).findMany({
    where: { documentId: item.documentId },
    select: watched.select,
    orderBy: { id: 'asc' },
  })) as Row[];
  const state = watched.describe(rows);
  // Deleted again before the notification went out: there is nothing left to announce.
  if (!state) return;
  const notification: ContentNotification = {
    event: item.event,
    id: state.row.id,
    alias: state.row.slug ?? null,
    published: state.published,
  };
  const outbound = strapi.plugin('api-suite').service('platform').outbound() as Outbound;
  const response = await outbound.request(target, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(notification),
    timeoutMs: TIMEOUT_MS,
  });
  if (response.status < 200 || response.status >= 300) {
    strapi.log.warn(`[content-webhook] ${item.uid} ${item.documentId} (${item.event}): the endpoint answered ${response.status}`);
  }
}

function assertHttpUrl(value: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error('CONTENT_WEBHOOK_URL is not a valid URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new Error(`CONTENT_WEBHOOK_URL must be an http: or https: URL, not ${url.protocol}`);
  }
  return url;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/** isNativeError rather than instanceof: undici's errors may come from another realm (Jest's VM sandboxes). */
function describeError(error: unknown): string {
  return isNativeError(error) ? error.message : String(error);
}
