import type { Core, UID } from '@strapi/strapi';
import { getConfig, getService } from '../../../utils';
import type { ChangeParams, ContentChange, ContentListener } from '../../platform/services/content-changes';
import type { PublishableEvent, WebhookEvent } from '../../webhooks/services/webhooks';
import { populateFor, project, sourceOf, type SchemaSource } from '../schema';
import { watchedTypes, type WatchedType } from '../watched';
import { ARTICLE_FIELDS, PRODUCT_FIELDS, articlePayload, productPayload } from './seed-types';

/**
 * The site's content changes as webhook events (docs/webhooks.md#the-sites-own-content), whatever
 * made them: the content API, the Content Manager and its bulk actions, the document service in
 * code. A listener of the platform's one content-change subscriber, so nothing is announced for a
 * change that is rolled back.
 *
 * For a type whose singular name is S: S.created, S.updated, S.published and S.unpublished
 * (draft & publish), S.deleted, one event per locale version. The payload is the version as the
 * content API shows it once the change is committed, relations filled to the type's depth; a
 * deletion carries the document as it was, read inside its transaction before it went. Articles
 * and products keep their own events and payloads (seed-types.ts).
 */
const LISTENER = 'webhooks: content events';

export function contentEventsListener(strapi: Core.Strapi): ContentListener | undefined {
  const types = new Map(watchedTypes(strapi).map((type) => [type.uid, type]));
  if (types.size === 0) return undefined;
  const { article, product } = getConfig(strapi).contentTypes;
  const source = sourceOf(strapi);
  const name = LISTENER;

  // Changes committed while a batch is being read wait for the next: under load each batch
  // gathers more, so the reads per event fall as the write rate rises (publishing's own rounds do the same).
  let waiting: ContentChange[] = [];
  let running = false;
  let scheduled = false;
  // From the first change handed over until every one is published: shutting down (webhooks'
  // settle) waits for it, so documents are read and events written before the database closes.
  let drained: (() => void) | undefined;
  const schedule = (): void => {
    if (scheduled || running) return;
    if (waiting.length === 0) {
      drained?.();
      drained = undefined;
      return;
    }
    scheduled = true;
    setImmediate(() => {
      scheduled = false;
      const batch = waiting;
      waiting = [];
      running = true;
      // Outside the request that made the change: its content-API context (and any visibility
      // rule a site applies to content-API reads) must not shape what subscribers are sent.
      void strapi.requestContext
        .run(undefined as never, () => announce(batch))
        .catch((error: Error) => strapi.log.error(`[api-suite] webhooks: content event not published: ${error.message}`))
        .finally(() => {
          running = false;
          schedule();
        });
    });
  };

  const announce = async (changes: ContentChange[]): Promise<void> => {
    const seeded: PublishableEvent[] = [];
    const generic: Array<{ type: WatchedType; change: ContentChange; action: string; locale: string | null }> = [];
    for (const change of changes) {
      if (change.uid === article) seeded.push(...articleEvents(change));
      else if (change.uid === product) seeded.push(...productEvents(change));
      else {
        const type = types.get(change.uid);
        if (type) generic.push(...eventsOf(type, change).map((event) => ({ type, change, ...event })));
      }
    }
    const webhooks = getService(strapi, 'webhooks');
    if (seeded.length > 0) await webhooks.publishMany(seeded);
    if (generic.length === 0) return;
    // Reading a document with its relations costs queries: only for events somebody receives.
    const names = [...new Set(generic.map((event) => `${event.type.singularName}.${event.action}`))];
    // (Each type's subscribers include those of `*` and of a prefix pattern; filters apply when published.)
    const subscribers = await getService(strapi, 'webhook-subscriptions').subscribersOf(names);
    const wanted = generic.filter((event) => (subscribers.get(`${event.type.singularName}.${event.action}`) ?? []).length > 0);
    // One read per type, version and locale for the whole batch, not one per event.
    const read = await readVersions(
      strapi,
      source,
      wanted.filter((event) => event.action !== 'deleted')
    );
    const events: WebhookEvent[] = [];
    for (const event of wanted) {
      const payload =
        event.action === 'deleted'
          ? deletedVersion(event.change, name, event.locale)
          : read.get(versionKey(event.type, statusOf(event.type, event.action), event.locale, event.change.documentId));
      // Gone again before it could be read (deleted right after): its own deletion event tells.
      if (payload) events.push({ type: `${event.type.singularName}.${event.action}`, payload });
    }
    await webhooks.publishChecked(events);
  };

  return {
    name,
    watches: (uid) => types.has(uid),
    fields: (uid) => (uid === article ? ARTICLE_FIELDS : uid === product ? PRODUCT_FIELDS : undefined),
    async capture(uid, action, params) {
      const type = types.get(uid);
      if (action !== 'delete' || !type || uid === article || uid === product || !params.documentId) return undefined;
      return captureDeleted(strapi, source, type, params);
    },
    committed(changes) {
      waiting.push(...changes);
      if (!drained) getService(strapi, 'webhooks').track(new Promise<void>((resolve) => (drained = resolve)));
      schedule();
    },
  };
}

/** The event actions one change announces, one per locale version. */
function eventsOf(type: WatchedType, change: ContentChange): Array<{ action: string; locale: string | null }> {
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
      return each('unpublished');
    case 'delete': {
      const captured = change.captured.get(LISTENER) as Map<string | null, Record<string, unknown>> | undefined;
      return [...(captured?.keys() ?? [])].map((locale) => ({ action: 'deleted', locale }));
    }
    default:
      return [];
  }
}

/** The version an event describes: the published one for published, else the draft (the only one of a type without draft & publish). */
function statusOf(type: WatchedType, action: string): 'draft' | 'published' {
  return type.draftAndPublish && action === 'published' ? 'published' : 'draft';
}

function versionKey(type: WatchedType, status: 'draft' | 'published', locale: string | null, documentId: string): string {
  return `${type.uid}|${status}|${locale ?? ''}|${documentId}`;
}

/** The versions the events describe, read with one query per type, version and locale; by versionKey. */
async function readVersions(
  strapi: Core.Strapi,
  source: SchemaSource,
  events: Array<{ type: WatchedType; change: ContentChange; action: string; locale: string | null }>
): Promise<Map<string, Record<string, unknown>>> {
  const groups = new Map<string, { type: WatchedType; status: 'draft' | 'published'; locale: string | null; ids: Set<string> }>();
  for (const event of events) {
    const status = statusOf(event.type, event.action);
    const key = versionKey(event.type, status, event.locale, '');
    const group = groups.get(key) ?? { type: event.type, status, locale: event.locale, ids: new Set<string>() };
    group.ids.add(event.change.documentId);
    groups.set(key, group);
  }
  const found = new Map<string, Record<string, unknown>>();
  for (const { type, status, locale, ids } of groups.values()) {
    for (const slice of chunks([...ids], 200)) {
      const documents = (await strapi.documents(type.uid as UID.ContentType).findMany({
        filters: { documentId: { $in: slice } },
        ...(locale ? { locale } : {}),
        ...(type.draftAndPublish ? { status } : {}),
        populate: populateFor(source, type.uid, type.depth),
        limit: slice.length,
      } as never)) as Array<Record<string, unknown>>;
      for (const document of documents) {
        found.set(versionKey(type, status, locale, String(document.documentId)), project(source, type.uid, type.depth, document));
      }
    }
  }
  return found;
}

function chunks<T>(items: T[], size: number): T[][] {
  const slices: T[][] = [];
  for (let start = 0; start < items.length; start += size) slices.push(items.slice(start, start + size));
  return slices;
}

async function readVersion(
  strapi: Core.Strapi,
  source: SchemaSource,
  type: WatchedType,
  documentId: string,
  locale: string | null,
  status: 'draft' | 'published'
): Promise<Record<string, unknown> | undefined> {
  const document = (await strapi.documents(type.uid as UID.ContentType).findOne({
    documentId,
    ...(locale ? { locale } : {}),
    ...(type.draftAndPublish ? { status } : {}),
    populate: populateFor(source, type.uid, type.depth),
  } as never)) as Record<string, unknown> | null;
  return document ? project(source, type.uid, type.depth, document) : undefined;
}

/**
 * The document as it was, one version per locale the deletion removes: the published version
 * when there is one (what the content API showed), else the draft.
 */
async function captureDeleted(
  strapi: Core.Strapi,
  source: SchemaSource,
  type: WatchedType,
  params: ChangeParams
): Promise<Map<string | null, Record<string, unknown>>> {
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
    if (row.publishedAt != null && type.draftAndPublish) versions.set(locale, 'published');
    else if (!versions.has(locale)) versions.set(locale, 'draft');
  }
  const captured = new Map<string | null, Record<string, unknown>>();
  await strapi.requestContext.run(undefined as never, async () => {
    for (const [locale, status] of versions) {
      const payload = await readVersion(strapi, source, type, documentId, locale, status);
      if (payload) captured.set(locale, payload);
    }
  });
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

function deletedVersion(change: ContentChange, listener: string, locale: string | null): Record<string, unknown> | undefined {
  return (change.captured.get(listener) as Map<string | null, Record<string, unknown>> | undefined)?.get(locale);
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
