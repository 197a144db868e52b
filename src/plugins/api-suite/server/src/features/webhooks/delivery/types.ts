/** The shapes the delivery engine's parts pass between them. */

export type DeliveryStatus = 'pending' | 'succeeded' | 'failed' | 'retrying' | 'cancelled';

export const FINAL_STATUSES: ReadonlySet<DeliveryStatus> = new Set<DeliveryStatus>(['succeeded', 'failed', 'cancelled']);

/** One attempt at one delivery: everything needed to send it, so the hot path reads nothing else. */
export interface DeliverySend {
  /** The delivery's UUID: the webhook-id. */
  delivery: string;
  subscription: number;
  type: string;
  /** The exact request body, built once per event. */
  body: string;
  attempt: number;
  /**
   * The W3C `traceparent` of the publish that made the delivery (stored while tracing is on):
   * each attempt's span joins that trace, whichever process makes it and however much later.
   */
  trace?: string;
  /**
   * Set on a send of a throttled subscription once it holds a slot: when its slot opens (ms since
   * the epoch). A send that carries it is never booked again.
   */
  slotAt?: number;
}

/** What a delivery job carries: sends made together, each body stored once however many subscriptions share it. */
export interface DeliveryJobData {
  /**
   * Set on the jobs publishing makes: their sends are new deliveries' first attempts, which no
   * other job has made, so on the job's first run nothing of it can be stored yet.
   */
  fresh?: true;
  bodies: string[];
  sends: Array<Omit<DeliverySend, 'body'> & { body: number }>;
}

export interface AttemptOutcome {
  ok: boolean;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  responseBody: string | null;
  retryAfterSeconds?: number;
}

/** A delivery as stored. */
export interface DeliveryRow {
  id: number;
  uuid: string;
  subscription_id: number;
  event_id: string;
  event_type: string;
  payload: unknown;
  status: DeliveryStatus;
  attempts: number | null;
  next_attempt_at: unknown;
  response_status: number | null;
  delivered_at: unknown;
  created_at: unknown;
  trace_context?: string | null;
}

/** An attempt as recorded. */
export interface AttemptRecord {
  delivery_uuid: string;
  attempt: number;
  at: Date;
  status_code: number | null;
  duration_ms: number;
  error: string | null;
  response_body: string | null;
}

/** A delivery's state after an attempt (or its cancellation); its `updated_at` is the time it is written. */
export interface DeliveryState {
  uuid: string;
  status: DeliveryStatus;
  attempts: number;
  next_attempt_at: Date | null;
  response_status: number | null;
  delivered_at: Date | null;
}
