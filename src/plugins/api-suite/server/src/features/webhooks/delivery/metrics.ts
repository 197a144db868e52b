import type { Core } from '@strapi/strapi';
import { unavailableDependency } from '../../../dependencies';
import { UIDS } from '../../../constants';
import { tableOf, toCount } from '../../../db';
import { getService } from '../../../utils';
import type { DeliveryStatus } from './types';

/** Seconds: from a fast endpoint's answer to a hanging one's timeout. */
const DURATION_BUCKETS = [0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
/** Seconds: from publishing to a delivery's success, through the retry schedule's hours. */
const LAG_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 1800, 7200, 36_000];

/** What the worker reports of each attempt it settles. */
export interface DeliveryMetrics {
  /** An attempt's outcome: `succeeded`, `retrying`, `failed`, or `cancelled` (not sent: its subscription is gone or off). */
  settled(eventType: string, outcome: DeliveryStatus, durationMs?: number, deliveryId?: string): void;
}

/**
 * The delivery engine's figures in the process's metrics (docs/operations.md#metrics): attempts by
 * event type and outcome, how long they took, and publishing-to-success lag; with `lanes`, the
 * worker's request slots, and how many endpoints are saturated.
 */
export function deliveryMetrics(
  strapi: Core.Strapi,
  lanes: () => { running: number; waiting: number; saturated: number; consumersAtCap: number }
): DeliveryMetrics {
  const metrics = getService(strapi, 'metrics');
  const attempts = metrics.counter({
    name: 'webhook_attempts_total',
    help: 'Delivery attempts settled by this process, by event type and outcome (succeeded, retrying, failed; cancelled: not sent)',
    labelNames: ['event_type', 'outcome'],
  });
  const duration = metrics.histogram({
    name: 'webhook_attempt_duration_seconds',
    help: "Delivery attempts' time from request to answer (or failure), by outcome",
    labelNames: ['outcome'],
    buckets: DURATION_BUCKETS,
  });
  const lag = metrics.histogram({
    name: 'webhook_delivery_lag_seconds',
    help: 'From publishing an event to its delivery succeeding, retries included, by event type',
    labelNames: ['event_type'],
    buckets: LAG_BUCKETS,
  });
  metrics.gauge({
    name: 'webhook_requests',
    help: "This process's delivery requests by state: open (in flight) or waiting for their endpoint's share of slots",
    labelNames: ['state'],
    collect(gauge) {
      const stats = lanes();
      gauge.set({ state: 'open' }, stats.running);
      gauge.set({ state: 'waiting' }, stats.waiting);
    },
  });
  metrics.gauge({
    name: 'webhook_consumers_at_cap',
    help: 'Consumers whose endpoints together hold all the request slots one consumer may (WEBHOOK_CONSUMER_CONCURRENCY), with sends waiting behind them',
    collect(gauge) {
      gauge.set(lanes().consumersAtCap);
    },
  });
  metrics.gauge({
    name: 'webhook_saturated_endpoints',
    help: "Endpoints whose share of this process's request slots is all in use with sends waiting behind it",
    collect(gauge) {
      gauge.set(lanes().saturated);
    },
  });

  return {
    settled(eventType, outcome, durationMs, deliveryId) {
      attempts.inc({ event_type: eventType, outcome });
      if (durationMs !== undefined) duration.observe({ outcome }, durationMs / 1000);
      if (outcome === 'succeeded' && deliveryId !== undefined) {
        const published = publishedAt(deliveryId);
        if (published !== undefined) lag.observe({ event_type: eventType }, Math.max(0, Date.now() - published) / 1000);
      }
    },
  };
}

/**
 * The backlog, read from the database when scraped: deliveries pending or retrying, whichever
 * process will send them (the partial index on those states keeps the count cheap).
 */
export function backlogMetric(strapi: Core.Strapi): void {
  getService(strapi, 'metrics').gauge({
    name: 'webhook_backlog',
    help: 'Deliveries not yet settled (pending or retrying), from the database',
    labelNames: ['status'],
    async collect(gauge) {
      let rows: Array<{ status: string; count: unknown }>;
      try {
        rows = (await strapi.db
          .connection(tableOf(strapi, UIDS.webhookDelivery))
          .whereIn('status', ['pending', 'retrying'])
          .select('status')
          .count({ count: '*' })
          .groupBy('status')) as Array<{ status: string; count: unknown }>;
      } catch (error) {
        // The database away: the last figures stand, and the process's own metrics are still scraped.
        if (unavailableDependency(error)) return;
        throw error;
      }
      gauge.set({ status: 'pending' }, 0);
      gauge.set({ status: 'retrying' }, 0);
      for (const row of rows) gauge.set({ status: row.status }, toCount(row.count));
    },
  });
}

/** A delivery id is a UUID v7 (`ids.ts`): its first 48 bits are when publishing made it. */
export function publishedAt(deliveryId: string): number | undefined {
  if (deliveryId.length !== 36 || deliveryId[14] !== '7') return undefined;
  const ms = Number.parseInt(deliveryId.slice(0, 8) + deliveryId.slice(9, 13), 16);
  return Number.isFinite(ms) ? ms : undefined;
}
