import type { Registry } from 'prom-client';
import type { Activity } from './validation/responses';

/** What the admin panel's Overview shows of this process: the admin response schema's type. */
export type { Activity };

/** How far back the admin panel's activity reaches. */
export const ACTIVITY_WINDOW_MS = 60 * 60_000;
const SNAPSHOT_EVERY_MS = 60_000;

interface Totals {
  at: number;
  deliveries: Record<string, number>;
  requests: Record<string, number>;
}

/**
 * The Overview's figures, read from the same registry `/metrics` exposes, so an editor without
 * Prometheus sees what an operator's dashboard would. Counters only ever grow, so "the last hour"
 * is today's totals less those of a snapshot taken about an hour ago (one a minute is kept).
 */
export function createActivity(registry: Registry) {
  const started = Date.now();
  const snapshots: Totals[] = [];
  let timer: NodeJS.Timeout | undefined;

  const totals = async (): Promise<Totals> => ({
    at: Date.now(),
    deliveries: await sumBy(registry, 'api_suite_webhook_attempts_total', 'outcome'),
    requests: await sumBy(registry, 'api_suite_api_requests_total', 'decision'),
  });

  return {
    start(): void {
      timer ??= setInterval(() => {
        void totals().then((now) => {
          snapshots.push(now);
          while (snapshots.length > 0 && snapshots[0].at < now.at - ACTIVITY_WINDOW_MS) snapshots.shift();
        });
      }, SNAPSHOT_EVERY_MS);
      timer.unref();
    },

    stop(): void {
      if (timer) clearInterval(timer);
      timer = undefined;
    },

    async read(): Promise<Activity> {
      const now = await totals();
      const base = snapshots.find((snapshot) => snapshot.at >= now.at - ACTIVITY_WINDOW_MS);
      const from = base ?? { at: started, deliveries: {}, requests: {} };
      return {
        since: new Date(from.at).toISOString(),
        deliveries: difference(now.deliveries, from.deliveries),
        requests: difference(now.requests, from.requests),
        backlog: await sumBy(registry, 'api_suite_webhook_backlog', 'status'),
        saturatedEndpoints: Object.values(await sumBy(registry, 'api_suite_webhook_saturated_endpoints', undefined)).reduce(
          (a, b) => a + b,
          0
        ),
      };
    },
  };
}

/** A metric's values summed by one label (or all together under `total`); empty when it is not registered here. */
async function sumBy(registry: Registry, name: string, label: string | undefined): Promise<Record<string, number>> {
  const metric = registry.getSingleMetric(name);
  if (!metric) return {};
  const { values } = await metric.get();
  const sums: Record<string, number> = {};
  for (const { labels, value } of values) {
    const key = label === undefined ? 'total' : String(labels[label] ?? '');
    sums[key] = (sums[key] ?? 0) + value;
  }
  return sums;
}

function difference(now: Record<string, number>, before: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(now).map(([key, value]) => [key, value - (before[key] ?? 0)]));
}
