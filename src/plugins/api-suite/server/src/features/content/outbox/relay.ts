import type { Core } from '@strapi/strapi';
import type { Knex } from '../../../db';
import { getService } from '../../../utils';
import type { PlannedEvents } from '../../webhooks/services/webhooks';
import type { OutboxEntry, OutboxStore } from './store';

/**
 * Publishing the content outbox (docs/webhooks.md#never-lost). A round claims what is due, lets
 * the handler turn it into events (reading the documents), and then, in one transaction, deletes
 * the rows it publishes and stores their deliveries: committed together, or not at all. A row
 * whose events could not be prepared is given back with a later try; a round that fails as a
 * whole gives back everything it claimed. Nothing is dropped.
 *
 * Rounds start when this process commits a change (at once), and every `SWEEP_MS` for what is
 * due again or was left by a process that died (its claims lapse after `LEASE_MS`); one round
 * runs at a time per process, and changes committed meanwhile join the next, so under load each
 * round gathers more and the reads per event fall.
 */
export type OutboxHandler = (entries: OutboxEntry[]) => Promise<Array<{ groups: PlannedEvents[] } | { error: Error }>>;

export interface RelayOptions {
  leaseMs?: number;
  sweepMs?: number;
  batch?: number;
}

const LEASE_MS = 15_000;
const SWEEP_MS = 2_000;
const BATCH = 500;

export function outboxRelay(strapi: Core.Strapi, store: OutboxStore, handle: OutboxHandler, options: RelayOptions = {}) {
  const leaseMs = options.leaseMs ?? LEASE_MS;
  const sweepMs = options.sweepMs ?? SWEEP_MS;
  const batch = options.batch ?? BATCH;
  let running = false;
  let again = false;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const log = (message: string) => strapi.log.warn(`[api-suite] content events: ${message}`);

  /** One round; the number of rows it claimed. */
  const round = async (): Promise<number> => {
    const { token, entries } = await store.claim(leaseMs, batch);
    if (entries.length === 0) return 0;
    let prepared: Awaited<ReturnType<OutboxHandler>>;
    try {
      prepared = await handle(entries);
    } catch (error) {
      prepared = entries.map(() => ({ error: error as Error }));
    }
    const ready: OutboxEntry[] = [];
    const groups: PlannedEvents[] = [];
    const failures: Array<{ id: number; attempts: number; error: string }> = [];
    entries.forEach((entry, index) => {
      const outcome = prepared[index];
      if ('error' in outcome) failures.push({ id: entry.id, attempts: entry.attempts, error: outcome.error.message });
      else {
        ready.push(entry);
        groups.push(...outcome.groups);
      }
    });
    if (ready.length > 0) {
      try {
        await publish(token, ready, groups);
      } catch (error) {
        if (error instanceof ClaimLost) log(error.message);
        else failures.push(...ready.map((entry) => ({ id: entry.id, attempts: entry.attempts, error: (error as Error).message })));
      }
    }
    if (failures.length > 0) {
      log(`${failures.length} change(s) not published yet, tried again later: ${failures[0].error}`);
      await store.release(token, failures);
    }
    return entries.length;
  };

  const publish = async (token: string, ready: OutboxEntry[], groups: PlannedEvents[]): Promise<void> => {
    const webhooks = getService(strapi, 'webhooks');
    const planned = await webhooks.plan(groups);
    await strapi.db.transaction(async ({ trx }) => {
      const knex = trx as unknown as Knex;
      if (
        !(await store.complete(
          knex,
          token,
          ready.map((entry) => entry.id)
        ))
      ) {
        throw new ClaimLost(`${ready.length} change(s) were taken over by another process after their claim lapsed; it publishes them`);
      }
      await webhooks.write(knex, planned);
    });
    // Committed: the deliveries are stored, and are queued now (or found at boot, should this process die first).
    await webhooks.enqueue(planned);
  };

  const drain = async (): Promise<void> => {
    do {
      again = false;
      while (!stopped && (await round()) >= batch);
    } while (again && !stopped);
  };

  const run = (): void => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = true;
    // Outside whatever request committed the change: its context must not shape what is read.
    const work = strapi.requestContext
      .run(undefined as never, drain)
      .catch((error: Error) => log(`publishing paused until the next sweep: ${error.message}`))
      .finally(() => {
        running = false;
      });
    // Shutting down (webhooks' settle) waits for a round under way.
    getService(strapi, 'webhooks').track(work);
  };

  return {
    /** A change was committed here: publish it now. */
    kick: run,
    /** Sweep for what is due (boot: what a killed process left). */
    start(): void {
      stopped = false;
      timer = setInterval(run, sweepMs);
      timer.unref();
      run();
    },
    stop(): void {
      stopped = true;
      if (timer) clearInterval(timer);
      timer = undefined;
    },
  };
}

export type OutboxRelay = ReturnType<typeof outboxRelay>;

class ClaimLost extends Error {}
