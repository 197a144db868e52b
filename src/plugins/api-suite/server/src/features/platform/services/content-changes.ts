import type { Core, UID } from '@strapi/strapi';
import type { Knex } from '../../../db';

/**
 * The one subscriber to content changes: a single document-service middleware that notes each
 * change of a watched document and, once the change is committed, hands the changes to the
 * listeners that watch them. The content events (of every watched type, the seeds' articles and
 * products among them) and the content-change webhook (`CONTENT_WEBHOOK_URL`) are its
 * listeners, so both see the same changes
 * at the same moment, whatever made them (the v1 API, the Content Manager, a script), and a save
 * that is rolled back announces nothing to either.
 *
 * Each watched call runs in a transaction (the caller's, when there is one), so a listener that
 * must never lose a change (the content events' outbox) writes it in the change's own
 * transaction through `record`: committed with the change, or rolled back with it.
 */

export type Row = Record<string, unknown> & { id?: number; documentId?: string };

export interface ContentChange {
  uid: string;
  /** The document-service action: create, clone, update, delete, publish, unpublish. */
  action: string;
  documentId: string;
  /** The document as it was before the change, read inside its transaction (listeners that ask for fields only). */
  before: Row | null;
  /** The document as the change left it, read inside its transaction (null after a delete). */
  after: Row | null;
  /**
   * The locales the change touched (`[null]` for a type without i18n): a publish of several
   * locales is one change of several versions.
   */
  locales: Array<string | null>;
  /** A create or update that also published (`status: 'published'`). */
  alsoPublished: boolean;
  /** What each listener's `capture` read before the change, by listener name. */
  captured: Map<string, unknown>;
}

/** The document-service parameters of a change, as far as listeners read them. */
export interface ChangeParams {
  documentId?: string;
  locale?: string | string[];
  status?: string;
}

export interface ContentListener {
  /** For the logs. */
  name: string;
  watches(uid: string, action: string): boolean;
  /** Fields to read before and after the change, inside its transaction; none: the listener reads for itself. */
  fields?(uid: string): string[] | undefined;
  /**
   * Read what the listener needs of the document before the change, inside its transaction (a
   * deletion's document as it was); handed back in the change's `captured`.
   */
  capture?(uid: string, action: string, params: ChangeParams): Promise<unknown>;
  /**
   * Write the change through its own transaction (before the commit): what must survive the
   * process dying right after the commit.
   */
  record?(trx: Knex, change: ContentChange): Promise<void>;
  /** The committed changes of one transaction, in order; called on a later turn of the event loop. */
  committed(changes: ContentChange[]): void;
}

const ACTIONS = new Set(['create', 'clone', 'update', 'delete', 'publish', 'unpublish', 'discardDraft']);

const contentChangesService = ({ strapi }: { strapi: Core.Strapi }) => {
  const listeners: ContentListener[] = [];
  // One batch per outer transaction: a save made of several document calls (the admin panel's
  // "save and publish" is an update then a publish in one transaction) is handed over at once.
  const batches = new WeakMap<object, Array<{ change: ContentChange; to: ContentListener[] }>>();

  const handOver = (entries: Array<{ change: ContentChange; to: ContentListener[] }>) => {
    for (const listener of listeners) {
      const changes = entries.filter((entry) => entry.to.includes(listener)).map((entry) => entry.change);
      if (changes.length === 0) continue;
      try {
        listener.committed(changes);
      } catch (error) {
        strapi.log.error(`[api-suite] ${listener.name}: ${(error as Error).message}`);
      }
    }
  };

  /** Hand the change over once its transaction commits: one batch per outer transaction. */
  const afterCommit = (trx: object, onCommit: (callback: () => void) => void, change: ContentChange, to: ContentListener[]) => {
    let batch = batches.get(trx);
    if (!batch) {
      const created: Array<{ change: ContentChange; to: ContentListener[] }> = [];
      batches.set(trx, created);
      batch = created;
      onCommit(() => {
        batches.delete(trx);
        // The next turn of the event loop lets the caller's answer go out before any listener's work starts.
        setImmediate(() => handOver(created));
      });
    }
    batch.push({ change, to });
  };

  const read = async (uid: string, documentId: string, fields: string[]): Promise<Row | null> =>
    (await strapi.db
      .query(uid as UID.ContentType)
      .findOne({ where: { documentId }, select: fields, orderBy: { id: 'asc' } })) as Row | null;

  return {
    listen(listener: ContentListener): void {
      listeners.push(listener);
    },

    /**
     * Documents a write outside the document service changed (commerce's stock, written with
     * knex under row locks), told to the same listeners as any other change: recorded in the
     * write's own transaction (call it inside `strapi.db.transaction`, after the write) and handed
     * over once it commits. One `update` change per document.
     */
    async changedOutside(uid: string, documentIds: string[]): Promise<void> {
      const to = listeners.filter((listener) => listener.watches(uid, 'update'));
      if (to.length === 0 || documentIds.length === 0) return;
      const fields = [...new Set(to.flatMap((listener) => listener.fields?.(uid) ?? []))];
      await strapi.db.transaction(async ({ trx, onCommit }) => {
        for (const documentId of documentIds) {
          const after = fields.length > 0 ? await read(uid, documentId, fields) : null;
          const change: ContentChange = {
            uid,
            action: 'update',
            documentId,
            before: null,
            after,
            locales: [null],
            alsoPublished: false,
            captured: new Map(),
          };
          for (const listener of to) if (listener.record) await listener.record(trx as unknown as Knex, change);
          afterCommit(trx, onCommit, change, to);
        }
      });
    },

    /** Registered once, at the plugin's register. */
    subscribe(): void {
      strapi.documents.use(async (ctx, next) => {
        if (!ACTIONS.has(ctx.action)) return next();
        const to = listeners.filter((listener) => listener.watches(ctx.uid, ctx.action));
        if (to.length === 0) return next();
        // The document service opens its own transaction inside next(); opened here instead (or
        // joined, inside a caller's), the reads before and after and the listeners' records are
        // in the same transaction as the change.
        return strapi.db.transaction(async ({ trx, onCommit }) => {
          const fields = [...new Set(to.flatMap((listener) => listener.fields?.(ctx.uid) ?? []))];
          const params = ctx.params as ChangeParams | undefined;
          const before =
            fields.length > 0 && params?.documentId && ctx.action !== 'create' ? await read(ctx.uid, params.documentId, fields) : null;
          const captured = new Map<string, unknown>();
          for (const listener of to) {
            if (listener.capture) captured.set(listener.name, await listener.capture(ctx.uid, ctx.action, params ?? {}));
          }
          const result = await next();
          const documentId = changedDocumentId(params, result);
          if (!documentId) return result;
          // Read now, inside the change's transaction, so a change describes itself even when the
          // next one follows before the commit.
          const after = fields.length > 0 && ctx.action !== 'delete' ? await read(ctx.uid, documentId, fields) : null;
          const change: ContentChange = {
            uid: ctx.uid,
            action: ctx.action,
            documentId,
            before,
            after,
            locales: localesOf(result),
            alsoPublished: (ctx.action === 'create' || ctx.action === 'update') && params?.status === 'published',
            captured,
          };
          for (const listener of to) if (listener.record) await listener.record(trx as unknown as Knex, change);
          afterCommit(trx, onCommit, change, to);
          return result;
        });
      });
    },
  };
};

/** The document a call changed, or undefined when it changed nothing (an update of an unknown document, a publish with no draft). */
function changedDocumentId(params: { documentId?: string } | undefined, result: unknown): string | undefined {
  if (typeof result !== 'object' || result === null) return undefined;
  const record = result as { entries?: unknown; documentId?: unknown };
  if (Array.isArray(record.entries) && record.entries.length === 0) return undefined;
  if (typeof record.documentId === 'string') return record.documentId;
  return typeof params?.documentId === 'string' ? params.documentId : undefined;
}

/** The locales of the versions a document-service call returned (one entry, or `entries`). */
function localesOf(result: unknown): Array<string | null> {
  const record = result as { entries?: unknown; locale?: unknown } | null;
  const versions = Array.isArray(record?.entries) ? (record.entries as Array<{ locale?: unknown }>) : [record ?? {}];
  const locales = versions.map((version) => (typeof version.locale === 'string' ? version.locale : null));
  return [...new Set(locales)];
}

export type ContentChangesService = ReturnType<typeof contentChangesService>;
export default contentChangesService;
