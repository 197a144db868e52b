import Stripe from 'stripe';
import { newId, now } from './store';
import type { StubEvent, StubEventType, StubObject } from './types';

export const API_VERSION = '2026-10-28.endive';

export interface WebhookTarget {
  url: string;
  secret: string;
}

/** The request that caused an event: Stripe names it when an API call did, and leaves it null otherwise. */
export interface EventCause {
  requestId: string | null;
  idempotencyKey: string | null;
}

/** Top-level fields whose value changed, with their previous value: Stripe's `previous_attributes`. */
export function changedFields<T extends object>(before: T, after: T): Partial<T> {
  const previous: Partial<T> = {};
  for (const key of Object.keys(after) as (keyof T)[]) {
    if (JSON.stringify(before[key]) !== JSON.stringify(after[key])) previous[key] = before[key];
  }
  return previous;
}

/** Events made by state changes, in order: `pending` until delivered, `all` forever. */
export class EventQueue {
  readonly pending: StubEvent[] = [];
  readonly all: StubEvent[] = [];

  emit(type: StubEventType, object: StubObject, previous?: object, cause?: EventCause): StubEvent {
    const event: StubEvent = {
      id: newId('evt_'),
      object: 'event',
      api_version: API_VERSION,
      created: now(),
      data: { object: structuredClone(object) },
      livemode: false,
      pending_webhooks: 1,
      request: { id: cause?.requestId ?? null, idempotency_key: cause?.idempotencyKey ?? null },
      type,
    };
    if (previous) event.data.previous_attributes = structuredClone(previous) as Record<string, unknown>;
    this.pending.push(event);
    this.all.push(event);
    return event;
  }

  /** Take the pending events out of the queue, oldest first. */
  drain(): StubEvent[] {
    return this.pending.splice(0, this.pending.length);
  }
}

/** An event to deliver: one the stub made, or one a test made or changed (typed with the SDK's `Stripe.Event`). */
export type Deliverable = StubEvent | Stripe.Event;

/** POST each event in turn to the target, signed as Stripe signs (the SDK's own test header); their HTTP statuses. */
export async function deliver(events: readonly Deliverable[], target: WebhookTarget): Promise<number[]> {
  const statuses: number[] = [];
  for (const event of events) {
    const payload = JSON.stringify(event, null, 2);
    const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret: target.secret });
    const response = await fetch(target.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json; charset=utf-8',
        'stripe-signature': signature,
        'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
      },
      body: payload,
    });
    await response.arrayBuffer();
    statuses.push(response.status);
  }
  return statuses;
}
