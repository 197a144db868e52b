import type { Core, UID } from '@strapi/strapi';
import { toIso, toText } from '../../../db';
import { getConfig, getService } from '../../../utils';
import { productPayload } from '../../commerce/events/product-payload';
import type { ContentChange, ContentListener, Row } from '../../platform/services/content-changes';
import type { ArticleEventData } from '../validation/event-data';
import type { PublishableEvent } from '../services/webhooks';

/**
 * Article and product events, published whatever made the change (the v1 API, the Content
 * Manager, a script), after the change is committed: a listener of the one content-change
 * subscriber, which reads each document before and after its change inside the transaction.
 *
 * article.created on create, article.updated on update, article.published when the status
 * becomes published (on create or update), article.deleted on delete; product.created on create
 * and product.updated on any other change, a deletion included (`deleted: true`).
 */
type Emit = PublishableEvent[];

const ARTICLE_FIELDS = ['documentId', 'uuid', 'title', 'slug', 'status', 'createdAt', 'updatedAt'];
const PRODUCT_FIELDS = ['documentId', 'name', 'slug', 'price', 'stock', 'published', 'deleted'];

export function contentEventsListener(strapi: Core.Strapi): ContentListener | undefined {
  const { article, product } = getConfig(strapi).contentTypes;
  const watched = new Set([article, product].filter((uid) => Boolean(strapi.contentTypes[uid as UID.ContentType])));
  if (watched.size === 0) return undefined;

  const describe = ({ uid, action, before, after }: ContentChange): Emit => {
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
    if (after.status === 'published' && before?.status !== 'published')
      events.push({ type: 'article.published', payload: articlePayload(after) });
    return events;
  };

  return {
    name: 'webhooks: content events',
    watches: (uid) => watched.has(uid),
    fields: (uid) => (uid === article ? ARTICLE_FIELDS : PRODUCT_FIELDS),
    committed(changes) {
      const events = changes.flatMap(describe);
      if (events.length === 0) return;
      getService(strapi, 'webhooks')
        .publishMany(events)
        .catch((error: Error) => strapi.log.error(`[api-suite] webhooks: content event not published: ${error.message}`));
    },
  };
}

function articlePayload(row: Row): ArticleEventData {
  return {
    id: String(row.uuid ?? row.documentId),
    title: toText(row.title),
    slug: toText(row.slug),
    status: toText(row.status),
    createdAt: toIso(row.createdAt),
    updatedAt: toIso(row.updatedAt),
  };
}
