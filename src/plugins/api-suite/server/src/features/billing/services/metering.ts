import type { Core } from '@strapi/strapi';
import { UIDS } from '../../../constants';
import { dialectOf, forUpdate, tableOf, toCount, toDate } from '../../../db';
import { getConfig, getService } from '../../../utils';
import { DAY_MS, rollupsIn } from '../../access/usage-rollups';
import { isLive, type SubscriptionRow } from './subscriptions';

interface ReportRow {
  id: number;
  consumer_id: string;
  stripe_customer_id: string;
  identifier: string;
  value: number;
  up_to_usage_id: number;
  status: 'pending' | 'sent';
}

/**
 * Overage reported to Stripe as meter events (docs/billing.md#overage-and-metering), from durable
 * records and off the request path. The usage records are the durable source: a request served past
 * the monthly quota is written with `overage` set. Every `reportIntervalSeconds` (a minute), for
 * each customer with a live subscription:
 *
 * 1. a report left pending by an earlier run (the process died between sending and recording)
 *    is sent again as it was, same identifier, same value: Stripe counts an identifier once, so
 *    the retry neither loses nor doubles it;
 * 2. otherwise the overage records after the last reported one are counted and written as a
 *    pending report whose identifier names the consumer and the last record it covers, then
 *    sent, then marked sent.
 *
 * Counting and writing the pending report happen in one transaction holding the consumer's
 * subscription row (PostgreSQL), so two instances never report the same records twice.
 */
const billingMeteringService = ({ strapi }: { strapi: Core.Strapi }) => {
  const reports = () => tableOf(strapi, UIDS.billingReport);
  const usage = () => tableOf(strapi, UIDS.usageRecord);
  const subscriptions = () => tableOf(strapi, UIDS.billingSubscription);
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<number> | null = null;
  const meterEvents = getService(strapi, 'metrics').counter({
    name: 'billing_meter_events_total',
    help: "Overage reports sent to Stripe's meter, by outcome (sent; already_sent: Stripe had it from a run that died before recording it; error: to be sent again)",
    labelNames: ['outcome'],
  });

  const send = async (report: ReportRow): Promise<void> => {
    try {
      await getService(strapi, 'stripe')
        .client()
        .billing.meterEvents.create({
          event_name: getConfig(strapi).billing.meterEventName,
          payload: { stripe_customer_id: report.stripe_customer_id, value: String(report.value) },
          identifier: report.identifier,
        });
      meterEvents.inc({ outcome: 'sent' });
    } catch (error) {
      // Sent before, by a run that died before recording it: Stripe has it, once.
      const code = (error as { code?: string }).code;
      meterEvents.inc({ outcome: code === 'resource_already_exists' ? 'already_sent' : 'error' });
      if (code !== 'resource_already_exists') throw error;
    }
    await strapi.db.connection(reports()).where({ id: report.id }).update({ status: 'sent', sent_at: new Date() });
  };

  /** Count the consumer's unreported overage and write it as a pending report; null when there is none. */
  const prepare = async (row: SubscriptionRow): Promise<ReportRow | null> => {
    return strapi.db.transaction(async ({ trx }) => {
      await forUpdate(trx(subscriptions()).where({ id: row.id }), dialectOf(strapi)).first('id');
      const pending = (await trx(reports()).where({ consumer_id: row.consumer_id, status: 'pending' }).first()) as ReportRow | undefined;
      if (pending) return pending;
      const last = (await trx(reports()).where({ consumer_id: row.consumer_id }).max({ mark: 'up_to_usage_id' }).first()) as
        { mark: unknown } | undefined;
      const mark = toCount(last?.mark);
      const counted = (await trx(usage())
        .where('user_id', row.user_id)
        .andWhere('overage', true)
        .andWhere('id', '>', mark)
        .count({ value: '*' })
        .max({ upTo: 'id' })
        .first()) as { value: unknown; upTo: unknown } | undefined;
      const value = toCount(counted?.value);
      if (value === 0) return null;
      const upTo = toCount(counted?.upTo);
      const report = {
        consumer_id: row.consumer_id,
        stripe_customer_id: row.stripe_customer_id,
        identifier: `api-suite-${row.consumer_id}-${upTo}`,
        value,
        up_to_usage_id: upTo,
        status: 'pending',
        created_at: new Date(),
      };
      await trx(reports()).insert(report);
      return (await trx(reports()).where({ identifier: report.identifier }).first()) as ReportRow;
    });
  };

  const runOnce = async (): Promise<number> => {
    // What is buffered reaches the database first, so it is counted now rather than a minute later.
    await getService(strapi, 'usage').flush();
    const rows = (await strapi.db
      .connection(subscriptions())
      .whereIn('status', ['trialing', 'active', 'past_due', 'unpaid'])) as SubscriptionRow[];
    let sent = 0;
    for (const row of rows.filter((candidate) => isLive(candidate.status))) {
      try {
        // At most two sends: a report left pending by an earlier run, then what came after it.
        for (let round = 0; round < 2; round += 1) {
          const report = await prepare(row);
          if (!report) break;
          await send(report);
          sent += 1;
        }
      } catch (error) {
        strapi.log.warn(`[api-suite] billing: overage of ${row.consumer_id} not reported yet: ${(error as Error).message}`);
      }
    }
    return sent;
  };

  return {
    /** One reporting pass over every customer; resolves with the meter events sent. */
    report(): Promise<number> {
      running ??= runOnce().finally(() => {
        running = null;
      });
      return running;
    },

    start(): void {
      if (timer) return;
      timer = setInterval(() => void this.report().catch(() => undefined), getConfig(strapi).billing.reportIntervalSeconds * 1000);
      timer.unref();
    },

    async stop(): Promise<void> {
      if (timer) clearInterval(timer);
      timer = null;
      await running?.catch(() => undefined);
    },

    /**
     * For each consumer with a live subscription, the last usage record reported to Stripe (0: none
     * yet). Their overage records after it are still to be reported: the retention purge keeps them
     * raw until they are, since this reporter counts records, not rollups.
     */
    async lastReportedOverage(): Promise<Map<number, number>> {
      const rows = (await strapi.db
        .connection(`${subscriptions()} as s`)
        .leftJoin(`${reports()} as r`, 'r.consumer_id', 's.consumer_id')
        .select('s.user_id', 's.status')
        .max({ mark: 'r.up_to_usage_id' })
        .groupBy('s.user_id', 's.status')) as Array<{ user_id: number | null; status: string; mark: unknown }>;
      const marks = new Map<number, number>();
      for (const row of rows) {
        if (row.user_id === null || !isLive(row.status)) continue;
        marks.set(Number(row.user_id), toCount(row.mark));
      }
      return marks;
    },

    /**
     * This period's overage of a consumer: served past the quota (raw records, and the daily
     * rollups of those the retention purge has deleted), and already sent to Stripe. The period
     * is the metered item's (a month, for a yearly subscription too), else the subscription's.
     */
    async overageOf(consumerId: string, row: SubscriptionRow | null): Promise<{ requests_this_period: number; reported: number }> {
      if (!row) return { requests_this_period: 0, reported: 0 };
      const since = toDate(row.overage_period_start) ?? toDate(row.current_period_start) ?? new Date(0);
      const knex = strapi.db.connection;
      const raw = knex(usage())
        .where('user_id', row.user_id)
        .andWhere('overage', true)
        .andWhere('created_at', '>=', since)
        .count({ value: '*' });
      const rolled = rollupsIn(knex, strapi, { userId: row.user_id }, since, new Date(Date.now() + DAY_MS)).sum({ value: 'overage' });
      const [served, sent] = await Promise.all([
        // One statement, so a purge committing in between cannot count a record twice or not at all.
        knex.select(knex.raw('(?) as raw, (?) as rolled', [raw, rolled])).first(),
        strapi.db
          .connection(reports())
          .where({ consumer_id: consumerId, status: 'sent' })
          .andWhere('created_at', '>=', since)
          .sum({ value: 'value' })
          .first(),
      ]);
      const counted = served as { raw: unknown; rolled: unknown } | undefined;
      return {
        requests_this_period: toCount(counted?.raw) + toCount(counted?.rolled),
        reported: toCount((sent as { value: unknown } | undefined)?.value),
      };
    },
  };
};

export type BillingMeteringService = ReturnType<typeof billingMeteringService>;
export default billingMeteringService;
