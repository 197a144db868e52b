import { toIso } from '../../../db';
import type { DeliveryJobData, DeliveryRow, DeliverySend } from './types';

/** The queue's side of deliveries: job names, ids and options, and what a job carries. */

export const DELIVERY_QUEUE = 'webhook-deliveries';
export const DELIVER_JOB = 'deliver';

/**
 * Fresh deliveries travel in jobs of up to this many sends: the queue's own cost (a few Redis
 * scripts per job, the job's data encoded and decoded) is paid once per batch rather than once
 * per delivery. Each send still succeeds, fails and is retried on its own; retries are jobs of
 * one send. In bench/webhooks' burst, 100 rather than 50 cut the app's CPU per delivery by about
 * a seventh; 200 did no better, and smaller jobs spread a short burst over more worker processes.
 */
export const SENDS_PER_JOB = 100;

/** One job per retry, so a retry scheduled later never collides with the attempt that scheduled it. */
export function jobIdOf(deliveryUuid: string, attempt: number): string {
  return `${deliveryUuid}-${attempt}`;
}

export function jobOptions(deliveryUuid: string, attempt: number, delayMs: number) {
  // Attempts here cover faults of our own (the database briefly away), not the endpoint's answers.
  return { jobId: jobIdOf(deliveryUuid, attempt), delayMs, attempts: 3, backoff: { type: 'exponential' as const, delayMs: 1000 } };
}

/** A send's identity within this process: one delivery's one attempt. */
export function keyOf(send: DeliverySend): string {
  return `${send.delivery}-${send.attempt}`;
}

/**
 * Sends into a job's data, a body shared by consecutive sends stored once: publishing lists an
 * event's sends together, so an event fanned out to many subscriptions carries its body once.
 * (Consecutive rather than any equal bodies: a map of bodies hashed every body, each one new,
 * and was about 2.5 % of the app's CPU samples while bench/webhooks' burst was published.
 * Object literals rather than spreads: this runs for every delivery.)
 */
export function packSends(sends: DeliverySend[]): DeliveryJobData {
  const bodies: string[] = [];
  let last: string | undefined;
  return {
    bodies,
    sends: sends.map((send) => {
      if (send.body !== last) {
        last = send.body;
        bodies.push(last);
      }
      const packed: DeliveryJobData['sends'][number] = {
        delivery: send.delivery,
        subscription: send.subscription,
        type: send.type,
        body: bodies.length - 1,
        attempt: send.attempt,
      };
      if (send.slotAt !== undefined) packed.slotAt = send.slotAt;
      if (send.trace !== undefined) packed.trace = send.trace;
      return packed;
    }),
  };
}

export function unpackSends(data: DeliveryJobData): DeliverySend[] {
  return data.sends.map((send) => {
    const unpacked: DeliverySend = {
      delivery: send.delivery,
      subscription: send.subscription,
      type: send.type,
      body: data.bodies[send.body],
      attempt: send.attempt,
    };
    if (send.slotAt !== undefined) unpacked.slotAt = send.slotAt;
    if (send.trace !== undefined) unpacked.trace = send.trace;
    return unpacked;
  });
}

/** The delivery body, `{ type, timestamp, data }`, with the event's time as the timestamp. */
export function buildBody(type: string, timestamp: string, payloadJson: string): string {
  return `{"type":${JSON.stringify(type)},"timestamp":${JSON.stringify(timestamp)},"data":${payloadJson}}`;
}

/** A stored delivery's body, as it was first sent. */
export function bodyOf(row: Pick<DeliveryRow, 'event_type' | 'payload' | 'created_at'>): string {
  const payload = typeof row.payload === 'string' ? row.payload : JSON.stringify(row.payload ?? null);
  return buildBody(row.event_type, toIso(row.created_at) ?? new Date().toISOString(), payload);
}

/** A send of a stored delivery: its next attempt. */
export function sendOf(
  row: Pick<DeliveryRow, 'uuid' | 'subscription_id' | 'event_type' | 'payload' | 'created_at' | 'trace_context'>,
  attempt: number
): DeliverySend {
  const send: DeliverySend = { delivery: row.uuid, subscription: row.subscription_id, type: row.event_type, body: bodyOf(row), attempt };
  if (row.trace_context) send.trace = row.trace_context;
  return send;
}
