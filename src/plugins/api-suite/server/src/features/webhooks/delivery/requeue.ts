import type { Core } from '@strapi/strapi';
import { UIDS } from '../../../constants';
import { UNSENT_CONDITION } from '../content-types/tables';
import { tableOf, toDate } from '../../../db';
import { getService } from '../../../utils';
import type { JobDefinition } from '../../../jobs';
import { DELIVER_JOB, DELIVERY_QUEUE, jobOptions, packSends, sendOf, SENDS_PER_JOB } from './jobs';
import type { DeliveryJobData, DeliveryRow, DeliverySend } from './types';

const RECOVERY_PAGE = 1000;
/** Deliveries remembered by id while the queue is away; past this many, every unsent one is enqueued again on its return. */
const PARKED_MAX = 100_000;
/** A requeue that failed (the database or Redis away again) is tried again this often. */
const REQUEUE_RETRY_MS = 2_000;

/** Which unsent deliveries to enqueue: all, those overdue since a time, or those named. */
export type Unsent = { overdueBefore?: Date; uuids?: string[] };

/**
 * Enqueue the deliveries the database says are still to be sent: all of them (at boot, or after
 * Redis lost its jobs), those overdue since `overdueBefore` (their job was lost), or those named
 * by `uuids` (stored while the queue was away). Job ids make this idempotent.
 */
export async function requeueUnsent(strapi: Core.Strapi, which: Unsent = {}): Promise<number> {
  const { overdueBefore, uuids } = which;
  if (uuids) {
    let total = 0;
    for (let start = 0; start < uuids.length; start += RECOVERY_PAGE) {
      total += await enqueueRows(strapi, await unsentRows(strapi, { uuids: uuids.slice(start, start + RECOVERY_PAGE) }));
    }
    return total;
  }
  let lastId = 0;
  let total = 0;
  for (;;) {
    const rows = await unsentRows(strapi, { afterId: lastId, overdueBefore });
    if (rows.length === 0) return total;
    lastId = rows[rows.length - 1].id;
    total += await enqueueRows(strapi, rows);
    if (rows.length < RECOVERY_PAGE) return total;
  }
}

/**
 * Deliveries stored while the queue could not take their jobs (Redis away): remembered by id, and
 * enqueued once it is back. The database holds them meanwhile, so the publish that stored them is
 * answered at once; should this process stop first, the sweep for lost jobs finds them.
 */
export function createParking(strapi: Core.Strapi, beforeRequeue: () => Promise<void>) {
  const queueAvailable = () => getService(strapi, 'platform').jobs().available();
  let parked = new Set<string>();
  /** More were parked than are remembered, or the store lost its jobs: every unsent delivery is enqueued. */
  let everything = false;
  let retry: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let announced = false;

  const requeue = async (): Promise<void> => {
    const all = everything;
    const uuids = [...parked];
    if (!all && uuids.length === 0) return;
    everything = false;
    parked = new Set();
    try {
      await beforeRequeue();
      const count = all ? await requeueUnsent(strapi) : await requeueUnsent(strapi, { uuids });
      announced = false;
      if (count > 0) {
        strapi.log.info(
          all
            ? `[api-suite] webhooks: enqueued ${count} pending deliveries from the database (Redis held none of their jobs)`
            : `[api-suite] webhooks: enqueued ${count} deliveries stored while Redis was away`
        );
      }
    } catch (error) {
      // Away again, or the database is: keep them and try again (Redis's next return tries too).
      if (all) everything = true;
      else for (const uuid of uuids) parked.add(uuid);
      strapi.log.warn(
        `[api-suite] webhooks: enqueueing deliveries stored while the queue was away failed, trying again: ${(error as Error).message}`
      );
      retry ??= setTimeout(() => {
        retry = undefined;
        if (queueAvailable()) void parking.requeue();
      }, REQUEUE_RETRY_MS);
      retry.unref();
    }
  };

  const parking = {
    /** Remember deliveries whose jobs could not be enqueued. */
    park(uuids: string[], reason: string): void {
      if (!announced) {
        announced = true;
        strapi.log.warn(
          `[api-suite] webhooks: the queue is unavailable (${reason}): deliveries are stored and will be enqueued when it is back`
        );
      }
      if (everything) return;
      for (const uuid of uuids) parked.add(uuid);
      if (parked.size > PARKED_MAX) {
        parked = new Set();
        everything = true;
      }
    },

    /** The store lost its jobs: everything unsent is enqueued on the next requeue. */
    lostEverything(): void {
      parked = new Set();
      everything = true;
    },

    /** Enqueue what was parked (one run at a time; a run asked for meanwhile follows it). */
    requeue(): Promise<void> {
      const next = (running ?? Promise.resolve()).then(requeue);
      running = next.finally(() => {
        if (running === next) running = undefined;
      });
      return next;
    },

    /** Deliveries remembered now (tests, logs). */
    size(): number {
      return parked.size;
    },

    close(): void {
      if (retry) clearTimeout(retry);
      retry = undefined;
    },
  };
  return parking;
}

export type Parking = ReturnType<typeof createParking>;

async function unsentRows(
  strapi: Core.Strapi,
  where: { afterId?: number; overdueBefore?: Date; uuids?: string[] }
): Promise<DeliveryRow[]> {
  const query = strapi.db
    .connection(tableOf(strapi, UIDS.webhookDelivery))
    .select('id', 'uuid', 'subscription_id', 'event_type', 'payload', 'attempts', 'next_attempt_at', 'created_at', 'trace_context')
    .whereRaw(UNSENT_CONDITION)
    .orderBy('id', 'asc');
  if (where.uuids) query.whereIn('uuid', where.uuids);
  else query.where('id', '>', where.afterId ?? 0).limit(RECOVERY_PAGE);
  if (where.overdueBefore) query.where('next_attempt_at', '<', where.overdueBefore);
  return (await query) as DeliveryRow[];
}

/**
 * Each delivery's next attempt, due when its row says. Those due now travel `SENDS_PER_JOB` to a
 * job, as fresh ones do: a backlog of thousands taken up at once (Redis back without its jobs, a
 * restart) costs the queue a job per hundred rather than per delivery. Those due later (a retry's
 * backoff, a send put off for its endpoint) get a job each, delayed until then.
 */
async function enqueueRows(strapi: Core.Strapi, rows: DeliveryRow[]): Promise<number> {
  if (rows.length === 0) return 0;
  const now = Date.now();
  const dueNow: DeliverySend[] = [];
  const definitions: JobDefinition<DeliveryJobData>[] = [];
  for (const row of rows) {
    const attempt = (row.attempts ?? 0) + 1;
    const delayMs = Math.max(0, (toDate(row.next_attempt_at)?.getTime() ?? now) - now);
    if (delayMs === 0) dueNow.push(sendOf(row, attempt));
    else definitions.push({ name: DELIVER_JOB, data: packSends([sendOf(row, attempt)]), options: jobOptions(row.uuid, attempt, delayMs) });
  }
  for (let start = 0; start < dueNow.length; start += SENDS_PER_JOB) {
    const part = dueNow.slice(start, start + SENDS_PER_JOB);
    const first = part[0];
    // Named after its first send: enqueued twice (two recoveries at once), the copy is skipped by the worker's look in the database.
    const options =
      part.length === 1
        ? jobOptions(first.delivery, first.attempt, 0)
        : { ...jobOptions(first.delivery, first.attempt, 0), jobId: `recovered-${first.delivery}-${first.attempt}` };
    definitions.push({ name: DELIVER_JOB, data: packSends(part), options });
  }
  await getService(strapi, 'platform').jobs().enqueueBulk<DeliveryJobData>(DELIVERY_QUEUE, definitions);
  return rows.length;
}
