import type { Core, UID } from '@strapi/strapi';
import type { ChangeParams, ContentChange, ContentListener } from '../../platform/services/content-changes';
import type { WebhookEvent } from '../../webhooks/services/webhooks';
import { sourceOf, type SchemaSource } from '../schema';
import { watchedTypes, type WatchedType } from '../watched';
import { outboxStore } from '../outbox/store';
import { outboxRelay, type OutboxRelay } from '../outbox/relay';
import { capturedOf, prepareEntries, type CapturedVersion, type GenericEvent } from './prepare';
import { readForAudience } from './versions';
import { contentEventAdapters } from './adapters';

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
 * transaction before it went. A type with an adapter of its own (adapters.ts: the demo's
 * articles and products) announces its events through it instead.
 */
const LISTENER = 'webhooks: content events';

export interface ContentEvents {
  listener: ContentListener;
  relay: OutboxRelay;
}

export function contentEvents(strapi: Core.Strapi): ContentEvents | undefined {
  const types = new Map(watchedTypes(strapi).map((type) => [type.uid, type]));
  if (types.size === 0) return undefined;
  const adapterOf = contentEventAdapters(strapi);
  const source = sourceOf(strapi);
  const store = outboxStore(strapi);

  const eventsOf = ({ change }: { change: ContentChange }) => {
    const adapter = adapterOf(change.uid);
    if (adapter) return { seeded: adapter.events(change) as WebhookEvent[], generic: [], captured: [] };
    const type = types.get(change.uid);
    const generic: GenericEvent[] = type ? actionsOf(type, change).map((event) => ({ type, ...event })) : [];
    return { seeded: [], generic, captured: capturedOf(change, LISTENER) };
  };
  const relay = outboxRelay(strapi, store, (entries) => prepareEntries(strapi, source, entries, eventsOf));

  const listener: ContentListener = {
    name: LISTENER,
    watches: (uid) => types.has(uid),
    fields: (uid) => adapterOf(uid)?.fields,
    async capture(uid, action, params) {
      const type = types.get(uid);
      if (!type || adapterOf(uid) || !params.documentId) return undefined;
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
