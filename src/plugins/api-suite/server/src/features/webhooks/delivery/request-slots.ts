import type { Core } from '@strapi/strapi';
import { systemClock, type Clock } from '../../../clock';
import { getConfig, getService } from '../../../utils';
import type { DeliveryTarget } from '../services/subscriptions';
import { deferSends, lotsBySecond, spillSends } from './deferral';
import { createLeaseBook, memoryLeaseBook } from './endpoint-leases';
import { eventLoopGauge } from './event-loop';
import { createLanes, type Lanes, type SlotTask } from './lanes';
import { displayShare } from './share';
import type { DeliverySend } from './types';

/** An endpoint answering faster than this is never held back, however many sends it has waiting. */
const SLOW_MS = 250;
/** A slow endpoint keeps in the process only the sends that would start within this long; the rest wait in the queue. */
const ADMIT_WAIT_MS = 1000;
/** How soon a process asks again for an endpoint's slots that other processes hold. */
const LEASE_RETRY_MS = 100;
/** A send deferred for its endpoint comes back within this long at most (and is deferred again if it must). */
const MAX_DEFER_MS = 10_000;
/** With other worker processes about, a fast endpoint's sends beyond this long's worth go back to the queue for any of them. */
const KEEP_MS = 500;
/** A process whose event loop ran code for more than this share of the last half second spills nothing (its CPU bounds it). */
const SPILL_BUSY_UTILIZATION = 0.7;
const SPILL_BUSY_WINDOW_MS = 500;
/** A saturated endpoint is logged at most this often. */
const SATURATION_LOG_MS = 5 * 60_000;
/** An endpoint idle this long is forgotten (its answer time with it). */
const LANE_IDLE_MS = 10 * 60_000;

/**
 * The worker's request slots (docs/webhooks.md#a-fair-share-per-endpoint): the lanes that share
 * them fairly between endpoints, the endpoint leases behind them, and what a job hands them now
 * (`admit`): a slow endpoint's sends beyond a second's worth, and a fast one's beyond what this
 * process should keep while others could help, go back to the queue.
 */
export function createRequestSlots(strapi: Core.Strapi, clock: Clock = systemClock) {
  /** Requests open at once across every job of this process, shared fairly between endpoints. */
  let lanes: Lanes = createLanes({
    clock,
    size: 1,
    cap: 1,
    leases: memoryLeaseBook(),
    slowMs: SLOW_MS,
    admitWaitMs: ADMIT_WAIT_MS,
    retryMs: LEASE_RETRY_MS,
    maxDeferMs: MAX_DEFER_MS,
    keepMs: KEEP_MS,
    busy: () => false,
    onError: () => undefined,
  });
  let closeLeases: () => Promise<void> = async () => undefined;
  let loop: ReturnType<typeof eventLoopGauge> | undefined;
  /** When each saturated endpoint was last logged. */
  const saturationLogged = new Map<string, number>();
  const logSaturation = (endpoint: string, deferred: number): void => {
    const now = clock.now();
    const last = saturationLogged.get(endpoint);
    if (last !== undefined && now - last < SATURATION_LOG_MS) return;
    saturationLogged.set(endpoint, now);
    if (saturationLogged.size > 10_000) saturationLogged.clear();
    strapi.log.warn(
      `[api-suite] webhooks: the endpoint ${displayShare(endpoint)} is saturated (its share of request slots is busy and it answers slowly): ${deferred} sends went back to the queue to wait for it, still pending`
    );
  };

  const slots = {
    /** Lanes sized from the settings, on the shared lease book (Redis) when there is one. */
    start(): void {
      const { concurrency, endpointConcurrency, consumerConcurrency, endpointLeaseMs } = getConfig(strapi).webhooks;
      const onError = (error: Error) => strapi.log.error(`[api-suite] webhooks: endpoint slots: ${error.message}`);
      loop = eventLoopGauge(SPILL_BUSY_WINDOW_MS, SPILL_BUSY_UTILIZATION);
      const leases = createLeaseBook(getService(strapi, 'platform').redis(), getConfig(strapi).jobs.prefix, endpointLeaseMs, onError);
      closeLeases = () => leases.close();
      lanes = createLanes({
        clock,
        size: concurrency,
        cap: endpointConcurrency,
        // Whatever names a consumer gives one place (localhost, 127.0.0.2, wildcard DNS), its endpoints share this.
        consumerCap: consumerConcurrency ?? 2 * endpointConcurrency,
        leases,
        slowMs: SLOW_MS,
        admitWaitMs: ADMIT_WAIT_MS,
        retryMs: LEASE_RETRY_MS,
        maxDeferMs: MAX_DEFER_MS,
        keepMs: KEEP_MS,
        busy: () => loop?.busy() ?? false,
        onError,
      });
    },

    stop(): void {
      loop?.stop();
    },

    /** Give the endpoints' slots back (after the sends under way have ended). */
    close(): Promise<void> {
      return closeLeases();
    },

    forgetIdle(): void {
      lanes.forgetIdle(LANE_IDLE_MS);
    },

    stats: (): ReturnType<Lanes['stats']> => lanes.stats(),

    each<T>(items: T[], endpointOf: (item: T) => string, task: SlotTask<T>): Promise<unknown[]> {
      return lanes.each(items, endpointOf, task);
    },

    /**
     * The claimed sends this job makes now. An endpoint that is slow and has more sends waiting
     * than it could start within about a second takes only those; the others are given up here
     * (unclaimed) and put back in the queue for when its slots should be free, still pending. So a
     * job full of sends for a saturated endpoint ends at once instead of keeping a job slot that
     * other endpoints' jobs need.
     */
    async admit(
      sends: DeliverySend[],
      targets: Map<number, DeliveryTarget | null>,
      unclaim: (send: DeliverySend) => void
    ): Promise<DeliverySend[]> {
      const byEndpoint = new Map<string, DeliverySend[]>();
      for (const send of sends) {
        const endpoint = shareOfSend(send, targets);
        const group = byEndpoint.get(endpoint);
        if (group) group.push(send);
        else byEndpoint.set(endpoint, [send]);
      }
      const made: DeliverySend[] = [];
      const deferred: Array<{ send: DeliverySend; waitMs: number }> = [];
      const spilled: Array<{ send: DeliverySend; waitMs: number }> = [];
      for (const [endpoint, group] of byEndpoint) {
        let taken = lanes.admit(endpoint, group.length);
        if (taken === undefined) {
          await lanes.known(endpoint);
          taken = lanes.admit(endpoint, group.length) ?? lanes.admitUnknown(endpoint, group.length);
        }
        if (taken === group.length) {
          // A fast endpoint with more than this process will send soon, while others could help.
          const waits = lanes.spill(endpoint, group.length);
          const kept = group.length - waits.length;
          for (let n = 0; n < kept; n += 1) made.push(group[n]);
          for (let n = kept; n < group.length; n += 1) {
            unclaim(group[n]);
            spilled.push({ send: group[n], waitMs: waits[n - kept] });
          }
          continue;
        }
        for (let n = 0; n < taken; n += 1) made.push(group[n]);
        const waits = lanes.deferWaits(endpoint, group.length - taken);
        logSaturation(endpoint, group.length - taken);
        for (let n = taken; n < group.length; n += 1) {
          unclaim(group[n]);
          deferred.push({ send: group[n], waitMs: waits[n - taken] });
        }
      }
      if (deferred.length > 0)
        await deferSends(
          strapi,
          lotsBySecond(deferred, (_second, first) => first)
        );
      if (spilled.length > 0) await spillSends(strapi, spilled);
      return made;
    },
  };
  return slots;
}

/** The share a send's request slot is taken from (`share.ts`); a gone subscription's sends share one lane, which only cancels them. */
export function shareOfSend(send: DeliverySend, targets: Map<number, DeliveryTarget | null>): string {
  return targets.get(send.subscription)?.share ?? '';
}
