import type { Core, UID } from '@strapi/strapi';
import { getConfig } from '../../../utils';
import type { ChangeParams, ContentChange, ContentListener } from '../../platform/services/content-changes';
import type { PublishableEvent, WebhookEvent } from '../../webhooks/services/webhooks';
import { sourceOf, type SchemaSource } from '../schema';
import { watchedTypes, type WatchedType } from '../watched';
import { outboxStore } from '../outbox/store';
import { outboxRelay, type OutboxRelay } from '../outbox/relay';
import { capturedOf, prepareEntries, type CapturedVersion, type GenericEvent } from './prepare';
import { readForAudience } from './versions';
import { ARTICLE_FIELDS, PRODUCT_FIELDS, articlePayload, productPayload } from './seed-types';

/**
 * The site's content changes as webhook events (docs/webhooks.md#the-sites-own-content), whatever
 * made them: the content API, the Content Manager and its bulk actions, the document service in
 * code. A listener of the platform's one content-change subscriber that records each change in
 * the change's own transaction (the content outbox), so a committed change is announced even
 * when the process dies right after the commit, and one rolled back is not; the outbox's relay
 * publishes it.
 *
 * For a type whose singular name is S: S.created, S.updated, S.published and S.unpublished
 * (draft & publish), S.deleted, one event per locale version. Each carries the version as the
 * content API shows it to the audience that may receive it (docs/webhooks.md#drafts-and-audiences):
 * events about drafts alone go to the site's staff; what the public may see is read as the
 * public reads it. A deletion or an unpublish carries the version that went, read inside its
 * transaction before it went. Articles and products keep their own events and payloads
 * (seed-types.ts).
 */
const LISTENER = 'webhooks: content events';

export interface ContentEvents {
  listener: ContentListener;
  relay: OutboxRelay;
}

export function contentEvents(strapi: Core.Strapi): ContentEvents | undefined {
  const types = new Map(watchedTypes(strapi).map((type) => [type.uid, type]));
  if (types.size === 0) return undefined;
  const { article, product } = getConfig(strapi).contentTypes;
  const source = sourceOf(strapi);
  const store = outboxStore(strapi);

  const eventsOf = ({ change }: { change: ContentChange }) => {
    if (change.uid === article) return { seeded: articleEvents(change) as WebhookEvent[], generic: [], captured: [] };
    if (change.uid === product) return { seeded: productEvents(change) as WebhookEvent[], generic: [], captured: [] };
    const type = types.get(change.uid);
    const generic: GenericEvent[] = type ? actionsOf(type, change).map((event) => ({ type, ...event })) : [];
    return { seeded: [], generic, captured: capturedOf(change, LISTENER) };
  };
  const relay = outboxRelay(strapi, store, (entries) => prepareEntries(strapi, source, entries, eventsOf));

  const listener: ContentListener = {
    name: LISTENER,
    watches: (uid) => types.has(uid),
    fields: (uid) => (uid === article ? ARTICLE_FIELDS : uid === product ? PRODUCT_FIELDS : undefined),
    async capture(uid, action, params) {
      const type = types.get(uid);
      if (!type || uid === article || uid === product || !params.documentId) return undefined;
      if (action === 'delete') return captureGoing(strapi, source, type, params, 'delete');
      if (action === 'unpublish' && type.draftAndPublish) return captureGoing(strapi, source, type, params, 'unpublish');
      return undefined;
    },
    record: (trx, change) => store.record(trx, change),
    committed: () => relay.kick(),
  };
  return { listener, relay };
}

/** The event actions one change announces, one per locale version. */
function actionsOf(type: WatchedType, change: ContentChange): Array<{ action: string; locale: string | null }> {
  const each = (action: string) => change.locales.map((locale) => ({ action, locale }));
  switch (change.action) {
    case 'create':
    case 'clone':
      return [...each('created'), ...(type.draftAndPublish && change.alsoPublished ? each('published') : [])];
    case 'update':
      return [...each('updated'), ...(type.draftAndPublish && change.alsoPublished ? each('published') : [])];
    case 'discardDraft':
      return each('updated');
    case 'publish':
      return each('published');
    case 'unpublish':
      return capturedOf(change, LISTENER).map(({ locale }) => ({ action: 'unpublished', locale }));
    case 'delete':
      return capturedOf(change, LISTENER).map(({ locale }) => ({ action: 'deleted', locale }));
    default:
      return [];
  }
}

/**
 * The versions a deletion or an unpublish takes away, one per locale it touches, read inside its
 * transaction before they go: the published version when there is one (what the content API
 * showed), else, for a deletion, the draft, which only the staff may receive.
 */
async function captureGoing(
  strapi: Core.Strapi,
  source: SchemaSource,
  type: WatchedType,
  params: ChangeParams,
  action: 'delete' | 'unpublish'
): Promise<CapturedVersion[]> {
  const documentId = params.documentId as string;
  const rows = (await strapi.db.query(type.uid as UID.ContentType).findMany({
    where: { documentId },
    select: ['id', 'locale', 'publishedAt'],
  })) as Array<{ locale?: string | null; publishedAt?: unknown }>;
  const wanted = type.localized ? await deletedLocales(strapi, params.locale) : undefined;
  const versions = new Map<string | null, 'draft' | 'published'>();
  for (const row of rows) {
    const locale = type.localized ? (row.locale ?? null) : null;
    if (wanted && locale !== null && !wanted.includes(locale)) continue;
    if (row.publishedAt != null || !type.draftAndPublish) versions.set(locale, 'published');
    else if (!versions.has(locale) && action === 'delete') versions.set(locale, 'draft');
  }
  const captured: CapturedVersion[] = [];
  for (const [locale, status] of versions) {
    const read = await readForAudience(strapi, source, { type, status, locale, publicMay: status === 'published' }, documentId);
    if (read) captured.push({ locale, ...read });
  }
  return captured;
}

/** The locales a deletion removes: all of them for `*`, the ones named, or the default locale. */
async function deletedLocales(strapi: Core.Strapi, locale: string | string[] | undefined): Promise<string[] | undefined> {
  if (locale === '*') return undefined;
  if (Array.isArray(locale)) return locale;
  if (typeof locale === 'string') return [locale];
  const locales = strapi.plugin('i18n')?.service('locales') as { getDefaultLocale(): Promise<string> } | undefined;
  return locales ? [await locales.getDefaultLocale()] : undefined;
}

/** article.created or .updated, .published when its status became published, .unpublished when it stopped being, .deleted. */
function articleEvents({ action, before, after }: ContentChange): PublishableEvent[] {
  if (action === 'delete') return before ? [{ type: 'article.deleted', payload: articlePayload(before) }] : [];
  if (!after) return [];
  const created = action === 'create' || action === 'clone';
  const payload = articlePayload(after);
  const events: PublishableEvent[] = [{ type: created ? 'article.created' : 'article.updated', payload }];
  if (after.status === 'published' && before?.status !== 'published') events.push({ type: 'article.published', payload });
  if (!created && before?.status === 'published' && after.status !== 'published') events.push({ type: 'article.unpublished', payload });
  return events;
}

/** product.created; product.updated on any other change, a deletion included (`deleted: true`), which is also product.deleted. */
function productEvents({ action, before, after }: ContentChange): PublishableEvent[] {
  if (action === 'delete') {
    if (!before) return [];
    const payload = { ...productPayload(before), deleted: true };
    return [
      { type: 'product.updated', payload },
      { type: 'product.deleted', payload },
    ];
  }
  if (!after) return [];
  return [{ type: action === 'create' || action === 'clone' ? 'product.created' : 'product.updated', payload: productPayload(after) }];
}
