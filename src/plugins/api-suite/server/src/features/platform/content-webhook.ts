import { isNativeError } from 'node:util/types';
import type { Core, UID } from '@strapi/strapi';
import { getConfig, getService } from '../../utils';
import type { ContentChange, ContentListener, Row } from './services/content-changes';

/**
 * The content-change webhook: when `CONTENT_WEBHOOK_URL` is set, every committed create or update
 * of a product, page or article is announced to it with `{ event, id, alias, published }`. It is a
 * best-effort notification: one attempt, three seconds, never retried, and never able to slow
 * down or fail the save that caused it. A listener of the one content-change subscriber.
 */

export type ContentEvent = 'created' | 'updated';

export interface ContentNotification {
  event: ContentEvent;
  id: number;
  alias: string | null;
  published: boolean;
}

const TIMEOUT_MS = 3_000;

/**
 * Actions that change what a watched document is. `publish` and `unpublish` change what the
 * public sees of a page, so they are updates too; deletes are not announced (created and
 * updated are the only events).
 */
const EVENTS = new Map<string, ContentEvent>([
  ['create', 'created'],
  ['clone', 'created'],
  ['update', 'updated'],
  ['publish', 'updated'],
  ['unpublish', 'updated'],
]);

interface Watched {
  select: string[];
  /** The document's state from all its rows (one, or a draft and a published one for pages). */
  describe(rows: Row[]): { row: Row; published: boolean } | undefined;
}

export function contentWebhookListener(strapi: Core.Strapi, target: string): ContentListener {
  const { article, product, page } = getConfig(strapi).contentTypes;
  // Only the origin is ever logged: the path or query may carry a token.
  const origin = new URL(target).origin;
  const watched = new Map<string, Watched>([
    [
      article,
      {
        select: ['id', 'slug', 'status'],
        describe: (rows) => (rows[0] ? { row: rows[0], published: rows[0].status === 'published' } : undefined),
      },
    ],
    [
      product,
      {
        select: ['id', 'slug', 'published', 'deleted'],
        describe: (rows) => (rows[0] ? { row: rows[0], published: rows[0].published === true && rows[0].deleted !== true } : undefined),
      },
    ],
    [
      page,
      {
        select: ['id', 'slug', 'publishedAt'],
        describe: (rows) => {
          // A published page is announced as the public sees it: the published version's id and slug.
          const published = rows.find((row) => row.publishedAt != null);
          const row = published ?? rows[0];
          return row ? { row, published: Boolean(published) } : undefined;
        },
      },
    ],
  ]);

  /** Reads the document as committed, so the notification says what the public now sees, then posts it once. */
  const deliver = async (change: ContentChange, event: ContentEvent): Promise<void> => {
    const spec = watched.get(change.uid);
    if (!spec) return;
    const rows = (await strapi.db.query(change.uid as UID.ContentType).findMany({
      where: { documentId: change.documentId },
      select: spec.select,
      orderBy: { id: 'asc' },
    })) as Row[];
    const state = spec.describe(rows);
    // Deleted again before the notification went out: there is nothing left to announce.
    if (!state) return;
    const notification: ContentNotification = {
      event,
      id: state.row.id as number,
      alias: (state.row.slug as string | null | undefined) ?? null,
      published: state.published,
    };
    const response = await getService(strapi, 'platform')
      .outbound()
      .request(target, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(notification),
        timeoutMs: TIMEOUT_MS,
      });
    if (response.status < 200 || response.status >= 300) {
      strapi.log.warn(`[content-webhook] ${change.uid} ${change.documentId} (${event}): the endpoint answered ${response.status}`);
    }
  };

  return {
    name: 'content-webhook',
    watches: (uid, action) => watched.has(uid) && EVENTS.has(action),
    committed(changes) {
      // One notification per document per transaction; its first action names the event (a create then a publish is still a creation).
      const first = new Map<string, ContentChange>();
      for (const change of changes)
        if (!first.has(`${change.uid}:${change.documentId}`)) first.set(`${change.uid}:${change.documentId}`, change);
      for (const change of first.values()) {
        const event = EVENTS.get(change.action) as ContentEvent;
        void deliver(change, event).catch((error: unknown) => {
          strapi.log.warn(
            `[content-webhook] ${change.uid} ${change.documentId} (${event}) not delivered to ${origin}: ${describeError(error)}`
          );
        });
      }
    },
  };
}

/** isNativeError rather than instanceof: undici's errors may come from another realm (Jest's VM sandboxes). */
function describeError(error: unknown): string {
  return isNativeError(error) ? error.message : String(error);
}
