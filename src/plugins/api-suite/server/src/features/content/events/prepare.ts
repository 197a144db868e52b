import type { Core } from '@strapi/strapi';
import { getService } from '../../../utils';
import type { ContentChange } from '../../platform/services/content-changes';
import type { PlannedEvents, WebhookEvent } from '../../webhooks/services/webhooks';
import type { SchemaSource } from '../schema';
import type { WatchedType } from '../watched';
import type { OutboxEntry } from '../outbox/store';
import { readVersions, type Reader, type Status } from './versions';

/**
 * Turning the outbox's changes into events and their audiences (docs/webhooks.md#drafts-and-audiences),
 * reading each version they carry once for the whole batch. A change whose read fails is
 * reported as failed on its own, so the batch's other changes are published.
 */

/** What a deletion or an unpublish captured inside its transaction: the version that goes, per locale. */
export interface CapturedVersion {
  locale: string | null;
  payload: Record<string, unknown>;
  /** Only the staff could see it (a document never published, or hidden by the site's read rules). */
  staff: boolean;
}

/** An entry's events by audience, or why they could not be prepared now. */
export type PreparedEntry = { groups: PlannedEvents[] } | { error: Error };

export interface GenericEvent {
  type: WatchedType;
  action: string;
  locale: string | null;
}

/** One event still to be read: which version, and whether the public may see it. */
interface Pending extends GenericEvent {
  entry: number;
  documentId: string;
  status: Status;
  publicMay: boolean;
}

export async function prepareEntries(
  strapi: Core.Strapi,
  source: SchemaSource,
  entries: OutboxEntry[],
  eventsOf: (entry: OutboxEntry) => { seeded: WebhookEvent[]; generic: GenericEvent[]; captured: CapturedVersion[] }
): Promise<PreparedEntry[]> {
  const everyone: WebhookEvent[][] = entries.map(() => []);
  const staff: WebhookEvent[][] = entries.map(() => []);
  const failed: Array<Error | undefined> = entries.map(() => undefined);
  const pending: Pending[] = [];
  const all = entries.map(eventsOf);
  // Reading a document with its relations costs queries: only for events somebody receives.
  const names = [...new Set(all.flatMap(({ generic }) => generic.map((event) => nameOf(event))))];
  const subscribers = names.length > 0 ? await getService(strapi, 'webhook-subscriptions').subscribersOf(names) : new Map();
  const wanted = (event: GenericEvent) => (subscribers.get(nameOf(event)) ?? []).length > 0;

  all.forEach(({ seeded, generic, captured }, index) => {
    everyone[index].push(...seeded);
    const { change } = entries[index];
    for (const event of generic) {
      if (!wanted(event)) continue;
      if (event.action === 'deleted' || event.action === 'unpublished') {
        const version = captured.find((item) => item.locale === event.locale);
        if (version) (version.staff ? staff : everyone)[index].push({ type: nameOf(event), payload: version.payload });
        continue;
      }
      const draftEvent = event.type.draftAndPublish && event.action !== 'published';
      pending.push({
        ...event,
        entry: index,
        documentId: change.documentId,
        status: draftEvent ? 'draft' : 'published',
        publicMay: !draftEvent,
      });
    }
  });

  // What the public may see is read as the public; what it may not see (or does not find: the
  // site's rules hide it) as the staff, for the staff only.
  const publicReads = await readAll(
    strapi,
    source,
    pending.filter((event) => event.publicMay),
    'public',
    failed
  );
  const staffPending = pending.filter((event) => failed[event.entry] === undefined && !publicReads.has(keyOf(event)));
  const staffReads = await readAll(strapi, source, staffPending, 'staff', failed);
  for (const event of pending) {
    const seen = publicReads.get(keyOf(event));
    if (seen) everyone[event.entry].push({ type: nameOf(event), payload: seen });
    const hidden = seen ? undefined : staffReads.get(keyOf(event));
    // Gone again before it could be read (deleted right after): its own deletion event tells.
    if (hidden) staff[event.entry].push({ type: nameOf(event), payload: hidden });
  }

  const staffIds = staff.some((events) => events.length > 0) ? await getService(strapi, 'staff').staffConsumerIds() : [];
  return entries.map((entry, index): PreparedEntry => {
    const error = failed[index];
    if (error) return { error };
    const timestamp = entry.at.toISOString();
    const stamp = (events: WebhookEvent[]) => events.map((event) => ({ ...event, timestamp }));
    const groups: PlannedEvents[] = [{ events: stamp(everyone[index]) }];
    if (staff[index].length > 0) groups.push({ events: stamp(staff[index]), options: { consumerIds: staffIds } });
    return { groups };
  });
}

function nameOf(event: GenericEvent): string {
  return `${event.type.singularName}.${event.action}`;
}

function keyOf(event: Pending): string {
  return `${event.type.uid}|${event.status}|${event.locale ?? ''}|${event.documentId}`;
}

/**
 * Read every event's version as `reader`, one query per type, version and locale; a group whose
 * query fails is read again one document at a time, and a document that still fails fails its
 * change alone (`failed`).
 */
async function readAll(
  strapi: Core.Strapi,
  source: SchemaSource,
  events: Pending[],
  reader: Reader,
  failed: Array<Error | undefined>
): Promise<Map<string, Record<string, unknown>>> {
  const groups = new Map<string, { events: Pending[] }>();
  for (const event of events) {
    const key = `${event.type.uid}|${event.status}|${event.locale ?? ''}`;
    const group = groups.get(key) ?? { events: [] };
    group.events.push(event);
    groups.set(key, group);
  }
  const found = new Map<string, Record<string, unknown>>();
  for (const { events: members } of groups.values()) {
    const [{ type, status, locale }] = members;
    const ids = [...new Set(members.map((event) => event.documentId))];
    try {
      const read = await readVersions(strapi, source, { type, status, locale, reader }, ids);
      for (const event of members) {
        const payload = read.get(event.documentId);
        if (payload) found.set(keyOf(event), payload);
      }
    } catch {
      for (const event of members) {
        try {
          const payload = (await readVersions(strapi, source, { type, status, locale, reader }, [event.documentId])).get(event.documentId);
          if (payload) found.set(keyOf(event), payload);
        } catch (error) {
          failed[event.entry] ??= error as Error;
        }
      }
    }
  }
  return found;
}

/** The change's captured versions, as the outbox kept them. */
export function capturedOf(change: ContentChange, listener: string): CapturedVersion[] {
  const value = change.captured.get(listener);
  return Array.isArray(value) ? (value as CapturedVersion[]) : [];
}
