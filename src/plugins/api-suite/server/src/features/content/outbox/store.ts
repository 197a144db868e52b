import { randomUUID } from 'node:crypto';
import type { Core } from '@strapi/strapi';
import { UIDS } from '../../../constants';
import { fromJson, registerDatabaseModels, tableOf, toDate, type DatabaseModel, type Knex } from '../../../db';
import type { ContentChange } from '../../platform/services/content-changes';

/**
 * The content outbox (docs/webhooks.md#never-lost): one row per content change, written in the
 * change's own transaction, so a change that is committed has its row and one rolled back has
 * none. A relay publishes the rows' events after the commit and deletes each row in the
 * transaction that stores its deliveries: a row is published exactly once, whatever process dies
 * when.
 *
 * A row is claimed for a lease before it is read: the process that wrote it claims it at once,
 * and any process takes over a row whose claim has lapsed (its claimer was killed) or that was
 * never claimed (killed between the commit and the claim). A change that cannot be published now
 * (a read failed) is released with a later `next_attempt_at`, never dropped.
 */
export const outboxTable: DatabaseModel = {
  uid: UIDS.contentOutbox,
  singularName: 'content-outbox',
  tableName: 'api_suite_content_outbox',
  attributes: {
    id: { type: 'increments' },
    change: { type: 'json' },
    created_at: { type: 'datetime' },
    attempts: { type: 'integer' },
    next_attempt_at: { type: 'datetime' },
    claim: { type: 'string' },
    claimed_until: { type: 'datetime' },
    last_error: { type: 'text' },
  },
  indexes: [{ name: 'api_suite_content_outbox_due', columns: ['next_attempt_at', 'id'] }],
};

export function registerOutboxTable(strapi: Core.Strapi): void {
  registerDatabaseModels(strapi, [outboxTable]);
}

/** A change as the outbox keeps it: the captured versions by listener, as plain JSON. */
interface StoredChange extends Omit<ContentChange, 'captured'> {
  captured: Record<string, unknown>;
}

export interface OutboxEntry {
  id: number;
  change: ContentChange;
  /** When the change was committed: the events' timestamp. */
  at: Date;
  attempts: number;
}

/** The longest wait between two tries of a change that keeps failing. */
const MAX_BACKOFF_MS = 5 * 60_000;

export function outboxStore(strapi: Core.Strapi) {
  const table = () => tableOf(strapi, UIDS.contentOutbox);

  return {
    /** Write a change's row through its transaction. */
    async record(trx: Knex, change: ContentChange): Promise<void> {
      const now = new Date();
      const stored: StoredChange = { ...change, captured: Object.fromEntries(change.captured) };
      await trx(table()).insert({ change: JSON.stringify(stored), created_at: now, attempts: 0, next_attempt_at: now });
    },

    /**
     * Claim up to `limit` rows that are due and unclaimed (or whose claim lapsed), oldest first,
     * for `leaseMs`; `ids` narrows it to rows this process just wrote. Returns what was claimed
     * with the claim's token, which `complete` and `release` need.
     */
    async claim(leaseMs: number, limit: number, ids?: number[]): Promise<{ token: string; entries: OutboxEntry[] }> {
      const knex = strapi.db.connection;
      const now = new Date();
      const candidates = knex(table())
        .select('id')
        .where('next_attempt_at', '<=', now)
        .andWhere((free) => free.whereNull('claimed_until').orWhere('claimed_until', '<', now));
      if (ids) candidates.whereIn('id', ids);
      const found = ((await candidates.orderBy('id', 'asc').limit(limit)) as Array<{ id: number }>).map((row) => Number(row.id));
      const token = randomUUID();
      if (found.length === 0) return { token, entries: [] };
      // The condition again in the update: of two processes that saw the same rows, one claims each.
      await knex(table())
        .whereIn('id', found)
        .andWhere((free) => free.whereNull('claimed_until').orWhere('claimed_until', '<', now))
        .update({ claim: token, claimed_until: new Date(now.getTime() + leaseMs) });
      const rows = (await knex(table())
        .where('claim', token)
        .orderBy('id', 'asc')
        .select('id', 'change', 'created_at', 'attempts')) as Array<{
        id: number;
        change: unknown;
        created_at: unknown;
        attempts: unknown;
      }>;
      return { token, entries: rows.map(entryOf) };
    },

    /**
     * Delete claimed rows through the transaction that stores their deliveries: false (and
     * nothing deleted) when any of them is no longer this claim's, because its lease lapsed and
     * another process took it over; the caller then rolls back.
     */
    async complete(trx: Knex, token: string, ids: number[]): Promise<boolean> {
      if (ids.length === 0) return true;
      const deleted = await trx(table()).whereIn('id', ids).andWhere('claim', token).del();
      return Number(deleted) === ids.length;
    },

    /** Give rows back to be tried again later, with a growing wait (1 s, 2 s, 4 s … 5 min). */
    async release(token: string, failures: Array<{ id: number; attempts: number; error: string }>): Promise<void> {
      const knex = strapi.db.connection;
      for (const failure of failures) {
        const attempts = failure.attempts + 1;
        const wait = Math.min(MAX_BACKOFF_MS, 1_000 * 2 ** Math.min(attempts - 1, 20));
        await knex(table())
          .where({ id: failure.id, claim: token })
          .update({
            attempts,
            next_attempt_at: new Date(Date.now() + wait),
            claim: null,
            claimed_until: null,
            last_error: failure.error.slice(0, 2_000),
          });
      }
    },

    /** Rows not yet published (operations, tests). */
    async backlog(): Promise<number> {
      const [row] = (await strapi.db.connection(table()).count({ total: '*' })) as Array<{ total: unknown }>;
      return Number(row?.total ?? 0);
    },
  };
}

export type OutboxStore = ReturnType<typeof outboxStore>;

function entryOf(row: { id: number; change: unknown; created_at: unknown; attempts: unknown }): OutboxEntry {
  const stored = fromJson<StoredChange>(row.change, null as unknown as StoredChange);
  const change: ContentChange = { ...stored, captured: new Map(Object.entries(stored.captured ?? {})) };
  return { id: Number(row.id), change, at: toDate(row.created_at) ?? new Date(), attempts: Number(row.attempts ?? 0) };
}
