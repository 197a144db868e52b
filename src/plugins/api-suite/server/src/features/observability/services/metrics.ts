import type { Core } from '@strapi/strapi';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { getService } from '../../../utils';
import { createActivity } from '../activity';

/**
 * The label names a plugin metric may use. Each has a bounded set of values (a plan's name, an
 * event type, an outcome): never a consumer, key, URL, e-mail or id, which would make one series
 * per customer and let one tenant blow up the operator's Prometheus.
 */
export type MetricLabel = 'plan' | 'decision' | 'outcome' | 'event_type' | 'status' | 'queue' | 'state' | 'type' | 'kind';

export const METRIC_PREFIX = 'api_suite_';

export interface MetricConfig<L extends MetricLabel> {
  /** Without the `api_suite_` prefix, which is added. */
  name: string;
  help: string;
  labelNames?: readonly L[];
}

/**
 * The process's Prometheus registry (docs/operations.md#metrics): Node's default process metrics
 * and the plugin's own, which each feature declares through `counter`, `gauge` and `histogram`.
 * One registry per Strapi instance, so two apps in one process (as in tests) never share series.
 */
const metricsService = ({ strapi }: { strapi: Core.Strapi }) => {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });

  const named = <L extends MetricLabel>(config: MetricConfig<L>) => ({
    name: `${METRIC_PREFIX}${config.name}`,
    help: config.help,
    labelNames: (config.labelNames ?? []) as L[],
    registers: [registry],
  });

  const apiRequests = new Counter(
    named({
      name: 'api_requests_total',
      help: 'Requests the access middleware decided on, by the plan they were held to ("none": no plan) and the decision (allowed, overage, or the refusal code)',
      labelNames: ['plan', 'decision'] as const,
    })
  );

  new Gauge({
    ...named({
      name: 'queue_jobs',
      help: 'Jobs in each queue by state (waiting, delayed, active), read when scraped',
      labelNames: ['queue', 'state'],
    }),
    async collect() {
      this.reset();
      const jobs = getService(strapi, 'platform').jobs();
      await Promise.all(
        jobs.queueNames().map(async (queue) => {
          const counts = await jobs.counts(queue).catch(() => undefined);
          if (!counts) return;
          for (const state of ['waiting', 'delayed', 'active'] as const) this.set({ queue, state }, counts[state]);
        })
      );
    },
  });

  const activity = createActivity(registry);

  return {
    registry,

    /** The Overview's headline figures of this process (`activity.ts`); `start` keeps their hourly window. */
    activity,

    counter<L extends MetricLabel>(config: MetricConfig<L>): Counter<L> {
      return new Counter(named(config));
    },

    histogram<L extends MetricLabel>(config: MetricConfig<L> & { buckets: number[] }): Histogram<L> {
      return new Histogram({ ...named(config), buckets: config.buckets });
    },

    /** A gauge read when scraped: `collect` sets its values (after a reset, so gone label sets disappear). */
    gauge<L extends MetricLabel>(config: MetricConfig<L> & { collect: (gauge: Gauge<L>) => void | Promise<void> }): Gauge<L> {
      return new Gauge({
        ...named(config),
        async collect() {
          this.reset();
          await config.collect(this);
        },
      });
    },

    /** One request the access middleware decided on. */
    apiRequest(plan: string, decision: string): void {
      apiRequests.inc({ plan, decision });
    },

    async exposition(): Promise<{ contentType: string; body: string }> {
      return { contentType: registry.contentType, body: await registry.metrics() };
    },
  };
};

export type MetricsService = ReturnType<typeof metricsService>;
export default metricsService;
