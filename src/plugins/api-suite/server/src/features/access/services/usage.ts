import type { Core } from '@strapi/strapi';
import { UIDS } from '../../../constants';
import { tableOf, type Knex } from '../../../db';
import { createMemoryQuotaCounter, createRedisQuotaCounter, monthWindow, UNLIMITED, type QuotaCounter } from '../quota';
import type { KeyEntry } from './keys';
import { consumerPool } from '../quota/pools';
import { createMemoryStreamSlots, createRedisStreamSlots, type StreamSlots } from '../stream-slots';
import { unavailableDependency } from '../../../dependencies';
import { getConfig, getService } from '../../../utils';
import { documentId } from '../../../random';
import type { UsageReport as ContractUsageReport } from '../validation/responses';
import { ALL_KEYS, DAY_MS, NONE, rollupsIn, type UsageScope } from '../usage-rollups';

export type Granularity = 'minute' | 'hour' | 'day';

export interface UsageRecord {
  /** null for a consumer's own JWT */
  api_key_id: number | null;
  /** the consumer (the key's owner) */
  user_id: number | null;
  endpoint: string;
  method: string;
  status_code: number;
  response_ms: number;
  created_at: Date;
  /** Served beyond the monthly quota on a plan with overage (billed through Stripe). */
  overage: boolean;
}

/** The report `GET /api/v1/usage` answers in `data`: the response schema's type. */
export type UsageReport = ContractUsageReport;
export type UsageActivity = Omit<UsageReport, 'month' | 'plan'>;
export type MonthUsage = Pick<UsageReport, 'month' | 'plan'>;

export { ALL_KEYS, type UsageScope } from '../usage-rollups';

const FLUSH_INTERVAL_MS = 1_000;
const FLUSH_SIZE = 500;
/** Usage records kept in memory while the database is away, at most (the newest are kept). */
const KEPT_WHILE_AWAY = 200_000;
/** SQLite takes at most 500 rows in one INSERT through knex. */
const INSERT_CHUNK = 500;
const BUCKET_MS: Record<Granularity, number> = { minute: 60_000, hour: 3_600_000, day: 86_400_000 };
export const MAX_SERIES_POINTS = 1_500;

/**
 * Usage records and quota counters. Records are buffered and written in batches off the
 * request path (every second or every 500 rows, and on shutdown); reports are computed by the
 * database. The counters live in Redis when there is one, so every instance shares them.
 */
const usageService = ({ strapi }: { strapi: Core.Strapi }) => {
  let buffer: UsageRecord[] = [];
  let timer: NodeJS.Timeout | undefined;
  let flushing: Promise<void> = Promise.resolve();
  /** After a write that met the database away, the next is not tried before this (ms since the epoch). */
  let retryAt = 0;
  let counter: QuotaCounter | undefined;
  let slots: StreamSlots | undefined;

  const table = () => strapi.db.metadata.get(UIDS.usageRecord).tableName;

  /** One batch, stored whole or not at all: a batch that failed is written again later, never in part twice. */
  const write = async (rows: UsageRecord[]) => {
    const now = new Date();
    const insert = async (knex: Knex) => {
      for (let start = 0; start < rows.length; start += INSERT_CHUNK) {
        await knex(table()).insert(
          rows.slice(start, start + INSERT_CHUNK).map((row) => ({
            document_id: documentId(),
            ...row,
            updated_at: now,
            published_at: now,
          }))
        );
      }
    };
    // One statement is atomic on its own; more need a transaction.
    if (rows.length <= INSERT_CHUNK) await insert(strapi.db.connection);
    else await strapi.db.connection.transaction(insert);
  };

  return {
    quota(): QuotaCounter {
      if (!counter) {
        const redis = getService(strapi, 'platform').redis();
        counter = redis
          ? createRedisQuotaCounter({
              redis,
              prefix: getConfig(strapi).jobs.prefix,
              onError: (error) => strapi.log.warn(`[api-suite] quota counters: ${error.message}`),
            })
          : createMemoryQuotaCounter();
      }
      return counter;
    },

    /** The usage streams each consumer holds open (../stream-slots.ts): across instances in Redis when there is one. */
    streams(): StreamSlots {
      if (!slots) {
        const redis = getService(strapi, 'platform').redis();
        slots = redis
          ? createRedisStreamSlots({
              redis,
              prefix: getConfig(strapi).jobs.prefix,
              onError: (error) => strapi.log.warn(`[api-suite] usage streams: ${error.message}`),
            })
          : createMemoryStreamSlots();
      }
      return slots;
    },

    record(row: UsageRecord): void {
      buffer.push(row);
      if (buffer.length >= FLUSH_SIZE && Date.now() >= retryAt) void this.flush();
      else timer ??= setTimeout(() => void this.flush(), FLUSH_INTERVAL_MS).unref();
    },

    /** Write everything buffered so far; resolves when it is in the database. */
    async flush(): Promise<void> {
      if (timer) clearTimeout(timer);
      timer = undefined;
      const rows = buffer;
      buffer = [];
      flushing = flushing.then(async () => {
        if (rows.length === 0) return;
        try {
          await write(rows);
        } catch (error) {
          // The database away for a moment: the records wait for the next write rather than being
          // lost (billing and quotas read them), up to a bound that keeps the process alive.
          const kept = unavailableDependency(error) ? rows.slice(Math.max(0, rows.length + buffer.length - KEPT_WHILE_AWAY)) : [];
          buffer = kept.concat(buffer);
          retryAt = Date.now() + FLUSH_INTERVAL_MS;
          if (kept.length > 0) timer ??= setTimeout(() => void this.flush(), FLUSH_INTERVAL_MS).unref();
          const lost = rows.length - kept.length;
          strapi.log.error(
            `[api-suite] could not write ${rows.length} usage records (${kept.length} kept for the next try${lost > 0 ? `, ${lost} lost` : ''}): ${(error as Error).message}`
          );
        }
      });
      return flushing;
    },

    async close(): Promise<void> {
      await this.flush();
      await counter?.close();
      counter = undefined;
      await slots?.close();
      slots = undefined;
    },

    /**
     * Totals, status codes and a time series over [from, to), computed by the database, for one
     * consumer, one key, or everyone (`ALL_KEYS`, the admin panel's view of the whole API): the raw
     * records and the daily rollups of those the retention purge deleted, in one statement, so a
     * purge committing meanwhile neither hides nor doubles a request. A rolled-up day counts whole
     * in a range that touches it, at its first instant (the range's first point when earlier).
     */
    async activity(options: { scope: UsageScope; from: Date; to: Date; granularity: Granularity }): Promise<UsageActivity> {
      const { scope, from, to, granularity } = options;
      const knex = strapi.db.connection;
      const inRange = knex(table()).where('created_at', '>=', from).where('created_at', '<', to);
      const raw =
        scope === ALL_KEYS
          ? inRange
          : 'userId' in scope
            ? inRange.where('user_id', scope.userId)
            : inRange.where('api_key_id', scope.keyId);
      const bucket = bucketExpression(strapi.db.dialect.client as string, granularity);
      const recorded = raw
        .select('status_code', knex.raw(`${bucket} as bucket`))
        .count({ count: '*' })
        .groupBy('status_code')
        .groupByRaw(bucket);
      const rolled = rollupsIn(knex, strapi, scope, from, to)
        .select('status_code', knex.raw('?? as bucket', ['day']))
        .sum({ count: 'requests' })
        .groupBy('status_code', 'day');
      // Each side grouped in a table of its own: SQLite takes no GROUP BY between the two halves of a UNION.
      const rows = (await knex
        .select('*')
        .from(recorded.as('recorded'))
        .unionAll(knex.select('*').from(rolled.as('rolled')))) as Array<{
        status_code: number;
        bucket: number | string | Date;
        count: number | string;
      }>;
      const first = Math.floor(from.getTime() / BUCKET_MS[granularity]) * BUCKET_MS[granularity];
      const statusCounts: Record<string, number> = {};
      const counts = new Map<number, number>();
      let total = 0;
      for (const row of rows) {
        const count = Number(row.count);
        if (count === 0) continue;
        statusCounts[String(row.status_code)] = (statusCounts[String(row.status_code)] ?? 0) + count;
        total += count;
        const t = Math.max(first, toMillis(row.bucket));
        counts.set(t, (counts.get(t) ?? 0) + count);
      }
      return { total, by_status: statusCounts, series: fillSeries(counts, from, to, granularity) };
    },

    /**
     * A consumer's requests by calendar month (UTC) and status, oldest month first: what the
     * account export lists. Every request recorded for them, refusals included: the raw records
     * and the daily rollups of those the retention purge deleted, in one statement, and with them
     * any detached under their consumer id by a closing of the account that stopped part-way (the
     * account still stands, so they are still its own).
     */
    async months(
      userId: number,
      consumerId: string | null
    ): Promise<Array<{ month: string; total: number; by_status: Record<string, number> }>> {
      const client = strapi.db.dialect.client as string;
      const knex = strapi.db.connection;
      const owned = (query: ReturnType<Knex>, none: number | null) =>
        query.where((where) => {
          where.where('user_id', userId);
          if (consumerId)
            where.orWhere((detached) =>
              (none === null ? detached.whereNull('user_id') : detached.where('user_id', none)).andWhere('consumer_id', consumerId)
            );
        });
      const recordMonth = monthExpression(client, 'created_at');
      const recorded = owned(knex(table()), null)
        .select(knex.raw(`${recordMonth} as month`), 'status_code')
        .count({ count: '*' })
        .groupByRaw(`${recordMonth}, status_code`);
      const rollupMonth = monthExpression(client, 'day');
      const rolled = owned(knex(tableOf(strapi, UIDS.usageRollup)), NONE)
        .select(knex.raw(`${rollupMonth} as month`), 'status_code')
        .sum({ count: 'requests' })
        .groupByRaw(`${rollupMonth}, status_code`);
      // Each side grouped in a table of its own: SQLite takes no GROUP BY between the two halves of a UNION.
      const rows = (await knex
        .select('*')
        .from(recorded.as('recorded'))
        .unionAll(knex.select('*').from(rolled.as('rolled')))) as Array<{ month: string; status_code: number; count: number | string }>;
      const byMonth = new Map<string, { month: string; total: number; by_status: Record<string, number> }>();
      for (const row of rows) {
        const count = Number(row.count);
        if (count === 0) continue;
        const entry = byMonth.get(row.month) ?? { month: row.month, total: 0, by_status: {} };
        const status = String(row.status_code);
        entry.by_status[status] = (entry.by_status[status] ?? 0) + count;
        entry.total += count;
        byMonth.set(row.month, entry);
      }
      return [...byMonth.values()].sort((a, b) => a.month.localeCompare(b.month));
    },

    /**
     * This month's use of the pool a consumer's requests (or one key's) draw on, against its
     * quota: never a sum over keys. Administrators are held to no plan: their month is unlimited
     * and `used` counts what they made this month.
     */
    async month(owner: { userId: number; isAdmin: boolean }, key?: KeyEntry | null): Promise<MonthUsage> {
      if (owner.isAdmin) {
        const window = monthWindow(new Date());
        const since = new Date((window.resetAt - window.windowSeconds) * 1000);
        const knex = strapi.db.connection;
        const raw = knex(table()).where('user_id', owner.userId).andWhere('created_at', '>=', since).count({ n: '*' });
        const rolled = rollupsIn(knex, strapi, { userId: owner.userId }, since, new Date(Date.now() + DAY_MS)).sum({ n: 'requests' });
        const row = (await knex.select(knex.raw('(?) as raw, (?) as rolled', [raw, rolled])).first()) as
          { raw: unknown; rolled: unknown } | undefined;
        return { month: { used: Number(row?.raw ?? 0) + Number(row?.rolled ?? 0), quota: UNLIMITED, remaining: null }, plan: null };
      }
      const target = await getService(strapi, 'consumer-plans').targetOf(owner.userId, key);
      const used = (await this.quota().monthUsed([target.pool])).get(target.pool) ?? 0;
      const quota = target.limits.perMonth;
      return {
        month: { used, quota, remaining: quota === UNLIMITED ? null : Math.max(0, quota - used) },
        plan: { id: target.plan.id, name: target.plan.name, own_limits: target.pool !== consumerPool(owner.userId, target.plan.id) },
      };
    },
  };
};

/**
 * The SQL for the start of a record's bucket: SQLite keeps datetimes as epoch milliseconds. MySQL
 * has no date_trunc: the datetime is cut to its bucket as text and made a datetime again, so the
 * driver reads it back in its own time zone, as it reads the column (PostgreSQL's date_trunc of a
 * timestamp without zone does the same).
 */
function bucketExpression(client: string, granularity: Granularity): string {
  if (client === 'postgres') return `date_trunc('${granularity}', created_at)`;
  if (client === 'sqlite') return `(created_at / ${BUCKET_MS[granularity]}) * ${BUCKET_MS[granularity]}`;
  if (client === 'mysql') return `CAST(DATE_FORMAT(created_at, '${MYSQL_BUCKET_FORMATS[granularity]}') AS DATETIME)`;
  throw new Error(`usage reports are not implemented for the ${client} database`);
}

const MYSQL_BUCKET_FORMATS: Record<Granularity, string> = {
  minute: '%Y-%m-%d %H:%i:00',
  hour: '%Y-%m-%d %H:00:00',
  day: '%Y-%m-%d 00:00:00',
};

/** The SQL for the calendar month (UTC) of a datetime column as `YYYY-MM`. */
function monthExpression(client: string, column: 'created_at' | 'day'): string {
  if (client === 'postgres') return `to_char(date_trunc('month', ${column}), 'YYYY-MM')`;
  if (client === 'sqlite') return `strftime('%Y-%m', ${column} / 1000, 'unixepoch')`;
  if (client === 'mysql') return `DATE_FORMAT(${column}, '%Y-%m')`;
  throw new Error(`usage reports are not implemented for the ${client} database`);
}

function toMillis(value: number | string | Date): number {
  if (value instanceof Date) return value.getTime();
  if (typeof value === 'number') return value;
  return /^\d+$/.test(value) ? Number(value) : new Date(value).getTime();
}

/** Every bucket between from and to, zero where nothing happened, so a chart needs no gaps logic. */
export function fillSeries(
  counts: Map<number, number>,
  from: Date,
  to: Date,
  granularity: Granularity
): Array<{ t: string; count: number }> {
  const size = BUCKET_MS[granularity];
  const points: Array<{ t: string; count: number }> = [];
  for (let t = Math.floor(from.getTime() / size) * size; t < to.getTime(); t += size) {
    points.push({ t: new Date(t).toISOString(), count: counts.get(t) ?? 0 });
  }
  return points;
}

export function seriesLength(from: Date, to: Date, granularity: Granularity): number {
  const size = BUCKET_MS[granularity];
  return Math.ceil((to.getTime() - Math.floor(from.getTime() / size) * size) / size);
}

export type UsageService = ReturnType<typeof usageService>;
export default usageService;
