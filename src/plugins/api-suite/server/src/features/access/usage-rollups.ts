import type { Core } from '@strapi/strapi';
import { UIDS } from '../../constants';
import {
  cutoffOf,
  deleteInChunks,
  dialectOf,
  lockedForPurge,
  keysetPurge,
  tableOf,
  toBool,
  toDate,
  type DatabaseModel,
  type Knex,
} from '../../db';
import { getService } from '../../utils';
import type { NextBatch, Purger } from '../retention/types';

/** Every key at once: the admin panel's view of the whole API's traffic. */
export const ALL_KEYS = Symbol('all keys');

/** Whose requests a report covers: one consumer's (keys, tokens and JWT), one key's, or everyone's. */
export type UsageScope = { userId: number } | { keyId: number } | typeof ALL_KEYS;

export const DAY_MS = 86_400_000;

/**
 * Stands for "none" in a rollup's user and key columns (a request made with a JWT has no key):
 * no row has id 0, and unlike NULL it is equal to itself, so the unique key below folds every
 * such request of a day into one row.
 */
export const NONE = 0;

/** Stands for "none" in a rollup's `consumer_id`: a record detached from a deleted account has one, live ones none. */
export const NO_CONSUMER = '';

const KEY_COLUMNS = ['day', 'user_id', 'consumer_id', 'api_key_id', 'endpoint', 'method', 'status_code'];

/**
 * Daily counts of usage records (docs/access.md#usage): one row per UTC day, consumer, key, route
 * pattern, method and status (a record detached from a closed account keeps its consumer id here,
 * as it did raw), written by the retention purge before it deletes the raw records
 * they count. Every reader of usage adds them to the raw records still kept, so totals are the
 * same before and after a purge. `requests` and `overage` are 64-bit: a busy route's day can pass
 * 2³¹ requests.
 */
export const usageRollupTable: DatabaseModel = {
  uid: UIDS.usageRollup,
  singularName: 'usage-rollup',
  tableName: 'api_suite_usage_rollups',
  attributes: {
    id: { type: 'increments' },
    /** The UTC day's first instant. */
    day: { type: 'datetime' },
    /** The consumer; 0: none. */
    user_id: { type: 'integer' },
    /** The opaque consumer id of records detached from a closed account (their `user_id` is 0); '': none. */
    consumer_id: { type: 'string' },
    /** 0: the consumer's JWT, no key. */
    api_key_id: { type: 'integer' },
    endpoint: { type: 'string' },
    /** 16 characters on MySQL, so the unique key below fits its index (db/types.ts). */
    method: { type: 'string', mysqlLength: 16 },
    status_code: { type: 'integer' },
    requests: { type: 'biginteger' },
    /** Of those, served beyond the monthly quota (billed as overage). */
    overage: { type: 'biginteger' },
    /** The sum of their response times, for an average. */
    response_ms: { type: 'biginteger' },
    created_at: { type: 'datetime' },
    updated_at: { type: 'datetime' },
  },
  indexes: [
    { name: 'api_suite_usage_rollups_key', columns: KEY_COLUMNS, type: 'unique' },
    { name: 'api_suite_usage_rollups_user_day', columns: ['user_id', 'day'] },
    { name: 'api_suite_usage_rollups_key_day', columns: ['api_key_id', 'day'] },
  ],
};

/**
 * The rollups a range [from, to) reads: every day it touches. A rolled-up day is known as a whole,
 * so a range that starts or ends inside one counts the whole day; ranges on UTC day boundaries
 * (a month, a day) are exact. Only records older than `RETENTION_USAGE_DAYS` are rolled up.
 */
export function rollupsIn(knex: Knex, strapi: Core.Strapi, scope: UsageScope, from: Date, to: Date): ReturnType<Knex> {
  const query = knex(tableOf(strapi, UIDS.usageRollup))
    .where('day', '>', new Date(from.getTime() - DAY_MS))
    .andWhere('day', '<', to);
  if (scope === ALL_KEYS) return query;
  return 'userId' in scope ? query.where('user_id', scope.userId) : query.where('api_key_id', scope.keyId);
}

interface RawRow {
  id: number | string;
  created_at: unknown;
  user_id: number | null;
  consumer_id: string | null;
  api_key_id: number | null;
  endpoint: string;
  method: string;
  status_code: number;
  response_ms: number | null;
  overage: unknown;
}

/**
 * The retention purge of raw usage records older than `RETENTION_USAGE_DAYS`: each batch, in one
 * transaction, adds the counts of at most 5,000 records to their daily rollups and deletes them.
 * Overage that billing has still to report to Stripe stays raw until it is reported, since the
 * reporter counts records after the last one it sent.
 */
export function usagePurger(strapi: Core.Strapi): Purger {
  return {
    name: 'usage records',
    kinds: ['usage_records'],
    async open({ now, settings, batchRows }): Promise<NextBatch | null> {
      const usage = tableOf(strapi, UIDS.usageRecord);
      const cutoff = cutoffOf(settings.usageDays, now);
      const unreported = cutoff ? await getService(strapi, 'billing-metering').lastReportedOverage() : new Map<number, number>();
      return keysetPurge(strapi.db.connection, {
        table: usage,
        cutoff,
        async batch(trx, { after, upTo }) {
          const batch = await rollUpBatch(strapi, trx, { usage, cutoff: cutoff as Date, after, upTo, limit: batchRows, unreported });
          return batch.last === null ? null : { last: batch.last, purged: { usage_records: batch.purged } };
        },
      });
    },
  };
}

async function rollUpBatch(
  strapi: Core.Strapi,
  trx: Knex,
  options: { usage: string; cutoff: Date; after: number; upTo: number; limit: number; unreported: Map<number, number> }
): Promise<{ purged: number; last: number | null }> {
  const { usage, cutoff, after, upTo, limit, unreported } = options;
  const client = dialectOf(strapi);
  const rollups = tableOf(strapi, UIDS.usageRollup);
  const candidates = (await lockedForPurge(
    trx(usage)
      .select('id', 'created_at', 'user_id', 'consumer_id', 'api_key_id', 'endpoint', 'method', 'status_code', 'response_ms', 'overage')
      .where('id', '>', after)
      .andWhere('id', '<=', upTo)
      .andWhere('created_at', '<', cutoff)
      .orderBy('id', 'asc')
      .limit(limit),
    client
  )) as RawRow[];
  if (candidates.length === 0) return { purged: 0, last: null };
  const last = Number(candidates[candidates.length - 1].id);
  // A record without a readable time cannot be put in a day: it stays (it cannot be past the cutoff anyway).
  const rows = candidates.filter((row) => !awaitsReport(row, unreported) && toDate(row.created_at) !== null);
  if (rows.length === 0) return { purged: 0, last };

  const now = new Date();
  const groups = new Map<string, Record<string, unknown> & { requests: number; overage: number; response_ms: number }>();
  for (const row of rows) {
    const at = toDate(row.created_at) as Date;
    const day = new Date(Math.floor(at.getTime() / DAY_MS) * DAY_MS);
    const key = {
      day,
      user_id: row.user_id ?? NONE,
      consumer_id: row.user_id === null ? (row.consumer_id ?? NO_CONSUMER) : NO_CONSUMER,
      api_key_id: row.api_key_id ?? NONE,
      endpoint: row.endpoint,
      method: row.method,
      status_code: row.status_code,
    };
    const name = [day.getTime(), key.user_id, key.consumer_id, key.api_key_id, key.endpoint, key.method, key.status_code].join('\u0000');
    const group = groups.get(name) ?? { ...key, requests: 0, overage: 0, response_ms: 0, created_at: now, updated_at: now };
    group.requests += 1;
    if (toBool(row.overage)) group.overage += 1;
    group.response_ms += Number(row.response_ms ?? 0);
    groups.set(name, group);
  }
  const added = [...groups.values()];
  // The row's counts plus the batch's: `excluded` names the batch's row (PostgreSQL, SQLite); MySQL
  // has `VALUES(column)` in ON DUPLICATE KEY UPDATE (MySQL 8's `AS new` alias is not MariaDB's).
  const sum = (column: string) =>
    client === 'mysql' ? trx.raw('?? + VALUES(??)', [column, column]) : trx.raw('??.?? + excluded.??', [rollups, column, column]);
  // SQLite takes at most 500 rows in one INSERT through knex.
  for (let start = 0; start < added.length; start += 500) {
    await trx(rollups)
      .insert(added.slice(start, start + 500))
      .onConflict(KEY_COLUMNS)
      .merge({ requests: sum('requests'), overage: sum('overage'), response_ms: sum('response_ms'), updated_at: now });
  }
  const ids = rows.map((row) => row.id);
  const purged = await deleteInChunks(trx, usage, 'id', ids);
  if (client !== 'sqlite' && purged !== ids.length) {
    // The rows were locked by this transaction: nothing else can have deleted them. Undo rather than count twice.
    throw new Error(`usage purge: ${ids.length} records rolled up but ${purged} deleted`);
  }
  return { purged, last };
}

/** An overage record billing has yet to report for a live subscription (its consumer's last reported record is older). */
function awaitsReport(row: RawRow, unreported: Map<number, number>): boolean {
  if (!toBool(row.overage) || row.user_id === null) return false;
  const mark = unreported.get(row.user_id);
  return mark !== undefined && Number(row.id) > mark;
}
