import type { Core } from '@strapi/strapi';
import { UIDS } from '../../../constants';
import { createMemoryQuotaCounter, createRedisQuotaCounter, type QuotaCounter } from './quota';
import { getConfig, getService } from '../../../utils';
import { documentId } from '../../../random';
import type { UsageReport as ContractUsageReport } from '../validation/responses';

export type Granularity = 'minute' | 'hour' | 'day';

export interface UsageRecord {
  api_key_id: number;
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
export type UsageActivity = Omit<UsageReport, 'month'>;

/** Every key at once: the admin panel's view of the whole API's traffic. */
export const ALL_KEYS = Symbol('all keys');

const FLUSH_INTERVAL_MS = 1_000;
const FLUSH_SIZE = 500;
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
  let counter: QuotaCounter | undefined;

  const table = () => strapi.db.metadata.get(UIDS.usageRecord).tableName;

  const write = async (rows: UsageRecord[]) => {
    const now = new Date();
    const knex = strapi.db.connection;
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

  return {
    quota(): QuotaCounter {
      if (!counter) {
        const redis = getService(strapi, 'platform').redis();
        counter = redis ? createRedisQuotaCounter({ redis, prefix: getConfig(strapi).jobs.prefix }) : createMemoryQuotaCounter();
      }
      return counter;
    },

    record(row: UsageRecord): void {
      buffer.push(row);
      if (buffer.length >= FLUSH_SIZE) void this.flush();
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
          strapi.log.error(`[api-suite] could not write ${rows.length} usage records: ${(error as Error).message}`);
        }
      });
      return flushing;
    },

    async close(): Promise<void> {
      await this.flush();
      await counter?.close();
      counter = undefined;
    },

    /** Totals, status codes and a time series over [from, to) for the given keys, plus this month's quota. */
    async report(options: { keyIds: number[]; from: Date; to: Date; granularity: Granularity }): Promise<UsageReport> {
      const [activity, month] = await Promise.all([this.activity(options), this.month(options.keyIds)]);
      return { ...activity, month };
    },

    /**
     * Totals, status codes and a time series over [from, to), computed by the database, for the
     * given keys or for every key (`ALL_KEYS`, the admin panel's view of the whole API).
     */
    async activity(options: { keyIds: number[] | typeof ALL_KEYS; from: Date; to: Date; granularity: Granularity }): Promise<UsageActivity> {
      const { keyIds, from, to, granularity } = options;
      const knex = strapi.db.connection;
      const scoped = () => {
        const query = knex(table()).where('created_at', '>=', from).where('created_at', '<', to);
        return keyIds === ALL_KEYS ? query : query.whereIn('api_key_id', keyIds.length > 0 ? keyIds : [-1]);
      };
      const bucket = bucketExpression(strapi.db.dialect.client as string, granularity);
      const [byStatus, series] = await Promise.all([
        scoped().select('status_code').count({ count: '*' }).groupBy('status_code'),
        scoped().select(knex.raw(`${bucket} as bucket`)).count({ count: '*' }).groupByRaw(bucket),
      ]);
      const statusCounts: Record<string, number> = {};
      let total = 0;
      for (const row of byStatus as Array<{ status_code: number; count: number | string }>) {
        statusCounts[String(row.status_code)] = Number(row.count);
        total += Number(row.count);
      }
      const counts = new Map<number, number>();
      for (const row of series as Array<{ bucket: number | string | Date; count: number | string }>) {
        counts.set(toMillis(row.bucket), Number(row.count));
      }
      return { total, by_status: statusCounts, series: fillSeries(counts, from, to, granularity) };
    },

    /** This month's use of the given keys against their plans' quotas (-1 when any is unlimited). */
    async month(keyIds: number[]): Promise<UsageReport['month']> {
      const keys = getService(strapi, 'keys');
      const entries = (await Promise.all(keyIds.map((id) => keys.findById(id)))).filter((entry) => entry !== null);
      const used = [...(await this.quota().monthUsed(keyIds)).values()].reduce((sum, value) => sum + value, 0);
      const quotas = entries.map((entry) => entry.plan?.perMonth ?? 0);
      const quota = quotas.some((value) => value === -1) ? -1 : quotas.reduce((sum, value) => sum + value, 0);
      return { used, quota, remaining: quota === -1 ? null : Math.max(0, quota - used) };
    },
  };
};

/** The SQL for the start of a record's bucket: SQLite keeps datetimes as epoch milliseconds. */
function bucketExpression(client: string, granularity: Granularity): string {
  if (client === 'postgres') return `date_trunc('${granularity}', created_at)`;
  if (client === 'sqlite') return `(created_at / ${BUCKET_MS[granularity]}) * ${BUCKET_MS[granularity]}`;
  throw new Error(`usage reports are not implemented for the ${client} database`);
}

function toMillis(value: number | string | Date): number {
  if (value instanceof Date) return value.getTime();
  if (typeof value === 'number') return value;
  return /^\d+$/.test(value) ? Number(value) : new Date(value).getTime();
}

/** Every bucket between from and to, zero where nothing happened, so a chart needs no gaps logic. */
export function fillSeries(counts: Map<number, number>, from: Date, to: Date, granularity: Granularity): Array<{ t: string; count: number }> {
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
