import { randomUUID } from 'node:crypto';
import type { Core } from '@strapi/strapi';
import { UIDS } from '../../../constants';
import { dialectOf, insertRows, tableOf, type Knex } from '../../../db';
import { getService } from '../../../utils';
import { buildBody, DELIVERY_COLUMNS, type DeliverySend } from './deliveries';
import { newDeliveryId } from '../delivery/ids';
import type { Subscriber } from '../subscriptions/filters';
import type { EventPayloads, KnownEventName, PublishableEvent } from '../events/registry';
import { failSpan, SpanKind, startSpan, traceparentOf, tracingOn, withSpan, type Span } from '../../observability/tracing/context';

export interface WebhookEvent {
  type: string;
  payload: Record<string, unknown>;
}

export type { PublishableEvent };

export interface PublishOptions {
  /** Only this consumer's subscriptions receive the event. */
  consumerId?: string;
  /** Only these consumers' subscriptions receive the event (an order's buyer and the administrators). */
  consumerIds?: string[];
  /** This subscription does not receive the event (one about its own endpoint's health goes to its owner's others). */
  exceptSubscription?: number;
}

export interface Published {
  event_id: string;
  /** Delivery records created: one per matching active subscription. */
  deliveries: number;
}

/** Events to write in one round, and to whom. */
interface Round {
  events: Array<WebhookEvent & { id: string; timestamp: string }>;
  /** The publish's span and its trace context (tracing on only), kept with every delivery it makes. */
  span?: Span;
  trace?: string;
  /** Deliver to this subscription rather than to the type's subscribers (test events). */
  only?: number;
  /** Deliver only to these consumers' subscriptions (events about a consumer's own resources). */
  audience?: string[];
  /** Never to this subscription. */
  except?: number;
}

interface Pending extends Round {
  resolve(result: Published[]): void;
  reject(error: unknown): void;
}

/** A round's deliveries, planned but not yet written: records to store, then jobs to enqueue. */
export interface PlannedRound {
  rows: Record<string, unknown>[];
  jobs: DeliverySend[];
  results: Published[][];
  traced: boolean;
}

/** Events of one audience for `plan`. */
export interface PlannedEvents {
  events: Array<WebhookEvent & { timestamp?: string }>;
  options?: PublishOptions;
}

/** Events written in one round at most; more wait for the next round. */
const MAX_EVENTS_PER_ROUND = 2_000;
/**
 * Rounds written at once. One round at a time batches best, but then a publish that arrives
 * while a round waits on the database waits for that round and its own: a few in flight keep
 * the answer quick when the process is busy, and under load each still gathers what is queued.
 */
const MAX_ROUNDS_IN_FLIGHT = 3;

/**
 * Publishing (docs/webhooks.md#the-engine): `publish(type, payload)` is what the rest of the plugin
 * and the host call when something happens. Each event becomes one delivery record and one job per
 * matching active subscription. Concurrent publishes are gathered and written together (one
 * multi-row insert, one bulk enqueue per round), so the cost per event falls as the rate rises; the
 * caller waits for its records to be committed, never for a delivery. Events are not ordered across
 * rounds, as webhooks are not (a retry overtakes nothing and is overtaken).
 */
const webhooksService = ({ strapi }: { strapi: Core.Strapi }) => {
  const deliveriesTable = () => tableOf(strapi, UIDS.webhookDelivery);
  let queue: Pending[] = [];
  let inFlight = 0;
  let gathering = false;
  let idle: Array<() => void> = [];
  /** Work that will publish once it has read what it needs (the site's content events): settling waits for it. */
  const preparing = new Set<Promise<unknown>>();

  /** The deliveries a round makes: one record and one job per receiving subscription of each event. */
  const planRound = async (round: Round[]): Promise<PlannedRound> => {
    const eventTypes = getService(strapi, 'webhook-event-types');
    const subscriptions = getService(strapi, 'webhook-subscriptions');
    // One lookup per audience: everybody's subscriptions, or some consumers'.
    const audiences = new Map<string, { consumers?: string[]; types: Set<string> }>();
    for (const pending of round) {
      if (pending.only !== undefined) continue;
      const key = audienceKey(pending.audience);
      const audience = audiences.get(key) ?? { consumers: pending.audience, types: new Set<string>() };
      for (const event of pending.events) audience.types.add(event.type);
      audiences.set(key, audience);
    }
    const subscribersByAudience = new Map<string, Map<string, Subscriber[]>>();
    for (const [key, audience] of audiences) {
      subscribersByAudience.set(key, await subscriptions.subscribersOf([...audience.types], audience.consumers));
    }
    const active = new Set((await eventTypes.listActive()).map((type) => type.name));

    const rows: Record<string, unknown>[] = [];
    const jobs: DeliverySend[] = [];
    const results = round.map((pending) => {
      const subscribers = subscribersByAudience.get(audienceKey(pending.audience)) ?? new Map<string, Subscriber[]>();
      return pending.events.map((event) => {
        // A type an editor switched off is not published (the test event always is, whatever the filter).
        const targets =
          pending.only !== undefined
            ? [pending.only]
            : active.has(event.type)
              ? receiving(subscribers.get(event.type) ?? [], event.payload, pending.except)
              : [];
        if (targets.length === 0) return { event_id: event.id, deliveries: 0 };
        const payloadJson = JSON.stringify(event.payload);
        const body = buildBody(event.type, event.timestamp, payloadJson);
        const createdAt = new Date(event.timestamp);
        const trace = pending.trace;
        for (const subscription of targets) {
          const uuid = newDeliveryId();
          const row: Record<string, unknown> = {
            uuid,
            subscription_id: subscription,
            event_id: event.id,
            event_type: event.type,
            payload: payloadJson,
            created_at: createdAt,
          };
          const send: DeliverySend = { delivery: uuid, subscription, type: event.type, body, attempt: 1 };
          if (trace) {
            row.trace_context = trace;
            send.trace = trace;
          }
          rows.push(row);
          jobs.push(send);
        }
        return { event_id: event.id, deliveries: targets.length };
      });
    });
    return { rows, jobs, results, traced: round.some((pending) => pending.trace !== undefined) };
  };

  /** Store a round's records through `knex` (a transaction's, to store them with the caller's own writes). */
  const writePlanned = async (knex: Knex, planned: PlannedRound): Promise<void> => {
    if (planned.rows.length === 0) return;
    const now = new Date();
    // What every new delivery shares is bound once for the round: with tracing off, the empty
    // trace context too, rather than a null in each row's part of the statement.
    await insertRows(knex, dialectOf(strapi), deliveriesTable(), DELIVERY_COLUMNS, planned.rows, {
      status: 'pending',
      attempts: 0,
      next_attempt_at: now,
      updated_at: now,
      ...(planned.traced ? {} : { trace_context: null }),
    });
  };

  const persist = async (round: Pending[]): Promise<Published[][]> => {
    const planned = await planRound(round);
    await writePlanned(strapi.db.connection, planned);
    // The records are committed: with the queue away they are enqueued once it is back (never throws).
    await getService(strapi, 'webhook-deliveries').enqueueNew(planned.jobs);
    return planned.results;
  };

  /** Start rounds while there is work and room; each takes what is queued, up to its size. */
  const pump = (): void => {
    while (queue.length > 0 && inFlight < MAX_ROUNDS_IN_FLIGHT) {
      const round: Pending[] = [];
      let events = 0;
      while (queue.length > 0 && (round.length === 0 || events + queue[0].events.length <= MAX_EVENTS_PER_ROUND)) {
        const next = queue.shift() as Pending;
        round.push(next);
        events += next.events.length;
      }
      inFlight += 1;
      // The round's queries are traced inside its first publish (tracing on only).
      withSpan(round[0].span, () => persist(round))
        .then(
          (results) => round.forEach((pending, index) => pending.resolve(results[index])),
          (error: unknown) => round.forEach((pending) => pending.reject(error))
        )
        .finally(() => {
          inFlight -= 1;
          pump();
        });
    }
    if (queue.length === 0 && inFlight === 0 && !gathering) {
      for (const wake of idle) wake();
      idle = [];
    }
  };

  /** One turn of the event loop lets publishes made at the same moment join one round. */
  const schedule = (): void => {
    if (gathering) return;
    gathering = true;
    setImmediate(() => {
      gathering = false;
      pump();
    });
  };

  const submit = (
    events: WebhookEvent[],
    scope: { only?: number; audience?: string[]; except?: number } = {},
    anyAudience = false
  ): Promise<Published[]> => {
    if (scope.only === undefined) {
      // An event about one consumer's own resources published to everybody would leak it.
      const types = getService(strapi, 'webhook-event-types');
      const audienceOfType = (event: WebhookEvent) => types.definition(event.type)?.audience;
      const single = events.find((event) => audienceOfType(event) === 'consumer');
      // Whoever publishes it, an administrator included: nobody but its one consumer may receive it.
      if (single && scope.audience?.length !== 1)
        return Promise.reject(new Error(`${single.type} is published to the one consumer it concerns: name them alone`));
      const named = anyAudience || scope.audience !== undefined ? undefined : events.find((event) => audienceOfType(event) === 'named');
      if (named) return Promise.reject(new Error(`${named.type} is published to the consumers it concerns only: name them`));
    }
    // One span per publish (tracing on only), ended once its deliveries are stored and queued.
    const span = tracingOn()
      ? startSpan('webhooks.publish', { 'api_suite.event_types': [...new Set(events.map((event) => event.type))] }, SpanKind.PRODUCER)
      : undefined;
    const submitted = new Promise<Published[]>((resolve, reject) => {
      const timestamp = new Date().toISOString();
      queue.push({
        events: events.map((event) => ({ type: event.type, payload: event.payload, id: randomUUID(), timestamp })),
        span,
        trace: traceparentOf(span),
        only: scope.only,
        audience: scope.audience,
        except: scope.except,
        resolve,
        reject,
      });
      schedule();
    });
    if (!span) return submitted;
    return submitted.then(
      (published) => {
        span.setAttribute(
          'api_suite.deliveries',
          published.reduce((sum, result) => sum + result.deliveries, 0)
        );
        span.end();
        return published;
      },
      (error: unknown) => {
        failSpan(span, error);
        span.end();
        throw error;
      }
    );
  };

  return {
    /**
     * Publish one event to every active subscription of its type (or of `*`). With `consumerId`
     * (or `consumerIds`), only those consumers' subscriptions receive it: events about one
     * consumer's resources (scraper runs, orders) never reach another consumer.
     */
    async publish<T extends KnownEventName>(type: T, payload: EventPayloads[T], options: PublishOptions = {}): Promise<Published> {
      const [result] = await submit([{ type, payload }], { audience: audienceOf(options), except: options.exceptSubscription });
      return result;
    },

    /** Publish several events in one round. */
    async publishMany(events: PublishableEvent[], options: PublishOptions = {}): Promise<Published[]> {
      if (events.length === 0) return [];
      return submit(events, { audience: audienceOf(options), except: options.exceptSubscription });
    },

    /**
     * Publish events whose names are only known at run time (the site's content types) or that
     * were checked against their registered schema already (an administrator's publish).
     */
    async publishChecked(events: WebhookEvent[], options: PublishOptions & { anyAudience?: boolean } = {}): Promise<Published[]> {
      if (events.length === 0) return [];
      // An administrator may publish any type to its every subscriber.
      const audience = audienceOf(options);
      return submit(events, { audience, except: options.exceptSubscription }, options.anyAudience === true);
    },

    /** An event for one subscription only, whatever it subscribes to (the test event). */
    async publishTo<T extends KnownEventName>(subscriptionId: number, type: T, payload: EventPayloads[T]): Promise<Published> {
      const [result] = await submit([{ type, payload }], { only: subscriptionId });
      return result;
    },

    /**
     * The deliveries of events, planned but not written, for a caller that stores them in its own
     * transaction with its own writes (the content outbox: its records go as their deliveries come,
     * so a change is published exactly once per subscription, whatever dies when): `write` inside
     * the transaction, `enqueue` once it has committed. Nothing else is checked: the events are
     * the caller's, by name, as `publishChecked`'s are.
     */
    async plan(groups: PlannedEvents[]): Promise<PlannedRound> {
      const round: Round[] = groups
        .filter((group) => group.events.length > 0)
        .map((group) => ({
          events: group.events.map((event) => ({
            type: event.type,
            payload: event.payload,
            id: randomUUID(),
            timestamp: event.timestamp ?? new Date().toISOString(),
          })),
          audience: audienceOf(group.options ?? {}),
          except: group.options?.exceptSubscription,
        }));
      return planRound(round);
    },

    /** Store planned deliveries through a transaction's knex (see `plan`). */
    write(knex: Knex, planned: PlannedRound): Promise<void> {
      return writePlanned(knex, planned);
    },

    /** Queue planned deliveries once their records are committed (never throws: the queue's absence parks them). */
    enqueue(planned: PlannedRound): Promise<void> {
      return getService(strapi, 'webhook-deliveries').enqueueNew(planned.jobs);
    },

    /** Work that publishes when it is done (read a document, then publish): `settle` waits for it too. */
    track(work: Promise<unknown>): void {
      preparing.add(work);
      void work.catch(() => undefined).finally(() => preparing.delete(work));
    },

    /** Publishes still waiting to be written; resolves once they are. */
    async settle(): Promise<void> {
      // Content changes committed just before are handed over on the next turn of the event loop
      // (platform's content-changes): one turn lets their events join the queue rather than be
      // published after the database has closed.
      await new Promise<void>((resolve) => setImmediate(resolve));
      while (preparing.size > 0) await Promise.allSettled([...preparing]);
      if (queue.length === 0 && inFlight === 0 && !gathering) return;
      await new Promise<void>((resolve) => idle.push(resolve));
    },

    /** Drop what is still queued (shutdown after settle). */
    reset(): void {
      queue = [];
    },
  };
};

/** The subscribers whose payload filter the event's data matches (all of them when none has a filter), but `except`. */
function receiving(subscribers: Subscriber[], payload: Record<string, unknown>, except: number | undefined): number[] {
  const ids: number[] = [];
  for (const subscriber of subscribers) {
    if (subscriber.id !== except && (!subscriber.filter || subscriber.filter.test(payload))) ids.push(subscriber.id);
  }
  return ids;
}

/** Everybody (undefined), or the consumers named, sorted so equal audiences share one lookup. */
function audienceOf(options: PublishOptions): string[] | undefined {
  if (options.consumerId === undefined && options.consumerIds === undefined) return undefined;
  const ids = [...(options.consumerIds ?? []), ...(options.consumerId === undefined ? [] : [options.consumerId])];
  return [...new Set(ids)].sort();
}

function audienceKey(audience: string[] | undefined): string {
  return audience === undefined ? '' : `a:${audience.join(',')}`;
}

export type WebhooksService = ReturnType<typeof webhooksService>;
export default webhooksService;
