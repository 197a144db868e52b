import { fromJson, toBool, toDate, toIso, toIsoRequired } from '../../../db';
import { isReservedHeader } from '../../../http/reserved-headers';
import type { SecretBox } from '../secret-box';
import { shareKeyOf } from '../delivery/share';
import { ROTATION_WINDOW_MS, type SigningSecrets } from '../signing';
import type { Subscription } from '../validation/responses';

// Webhook subscriptions as their table holds them, as the API answers them and as the delivery worker sends to them.

/** A subscription row as knex reads it. */
export interface SubscriptionRow {
  id: number;
  uuid: string;
  consumer_id: string;
  endpoint_url: string;
  description: string | null;
  events: unknown;
  is_active: unknown;
  headers: unknown;
  timeout_seconds: number | null;
  rate_limit: number | null;
  filter: unknown;
  last_delivery_at: unknown;
  failure_count: number | null;
  disabled_at: unknown;
  secret: string | null;
  secret_old: string | null;
  secret_rotated_at: unknown;
  created_at: unknown;
  updated_at: unknown;
}

/** Everything the delivery worker needs about a subscription, with the secrets opened. */
export interface DeliveryTarget {
  id: number;
  uuid: string;
  consumerId: string;
  endpointUrl: string;
  headers: Record<string, string>;
  timeoutMs: number;
  /** Deliveries per second at most, or null. */
  rateLimit: number | null;
  isActive: boolean;
  secrets: SigningSecrets;
  /** The share of request slots its sends take (`delivery/share.ts`), worked out once with the target. */
  share: string;
}

export interface SubscriptionInput {
  endpoint_url: string;
  events: string[];
  description?: string;
  headers?: Record<string, string>;
  timeout_seconds?: number;
  rate_limit?: number | null;
  /** A payload filter in Strapi's filter syntax, checked before it gets here; null for none. */
  filter?: Record<string, unknown> | null;
}

export interface SubscriptionPatch extends Partial<SubscriptionInput> {
  is_active?: boolean;
}

/** Secrets older than this are flagged `rotation_recommended`. */
export const ROTATION_RECOMMENDED_AFTER_MS = 90 * 24 * 3600 * 1000;
export const DEFAULT_TIMEOUT_SECONDS = 10;

/**
 * The API's view of a subscription: never a secret. Typed by the response schema, so the two
 * cannot drift.
 */
export function presentSubscription(row: SubscriptionRow): Subscription {
  const rotatedOrCreated = toDate(row.secret_rotated_at) ?? toDate(row.created_at);
  return {
    id: row.uuid,
    consumer_id: row.consumer_id,
    endpoint_url: row.endpoint_url,
    description: row.description ?? '',
    events: eventsOf(row.events),
    is_active: toBool(row.is_active),
    headers: fromJson<Record<string, string>>(row.headers, {}),
    timeout_seconds: row.timeout_seconds ?? DEFAULT_TIMEOUT_SECONDS,
    rate_limit: row.rate_limit ?? null,
    filter: filterOf(row.filter),
    created_at: toIsoRequired(row.created_at, 'created_at'),
    updated_at: toIsoRequired(row.updated_at, 'updated_at'),
    last_delivery_at: toIso(row.last_delivery_at),
    failure_count: row.failure_count ?? 0,
    disabled_at: toIso(row.disabled_at),
    secret_rotated_at: toIso(row.secret_rotated_at),
    rotation_recommended: rotatedOrCreated ? Date.now() - rotatedOrCreated.getTime() > ROTATION_RECOMMENDED_AFTER_MS : false,
  };
}

/** Everything the delivery worker needs about a subscription, its secrets opened with the box `secretBox` gives. */
export function deliveryTarget(row: SubscriptionRow, secretBox: () => SecretBox): DeliveryTarget {
  const rotatedAt = toDate(row.secret_rotated_at);
  if (!row.secret) throw new Error(`webhook subscription ${row.uuid} has no secret`);
  const secrets: SigningSecrets = { current: secretBox().open(row.secret) };
  if (row.secret_old && rotatedAt && Date.now() - rotatedAt.getTime() < ROTATION_WINDOW_MS) {
    secrets.previous = { secret: secretBox().open(row.secret_old), rotatedAt };
  }
  const headers = Object.fromEntries(
    Object.entries(fromJson<Record<string, unknown>>(row.headers, {})).filter(
      (entry): entry is [string, string] => typeof entry[1] === 'string' && !isReservedHeader(entry[0])
    )
  );
  return {
    id: row.id,
    uuid: row.uuid,
    consumerId: row.consumer_id,
    endpointUrl: row.endpoint_url,
    headers,
    timeoutMs: (row.timeout_seconds ?? DEFAULT_TIMEOUT_SECONDS) * 1000,
    rateLimit: row.rate_limit ?? null,
    isActive: toBool(row.is_active),
    secrets,
    share: shareKeyOf({ consumerId: row.consumer_id, endpointUrl: row.endpoint_url }),
  };
}

export function eventsOf(value: unknown): string[] {
  const events = fromJson<unknown>(value, []);
  return Array.isArray(events) ? events.filter((event): event is string => typeof event === 'string') : [];
}

/** The stored filter as the API shows it: an object, or null for none. */
export function filterOf(value: unknown): Record<string, unknown> | null {
  const filter = fromJson<unknown>(value, null);
  return typeof filter === 'object' && filter !== null && !Array.isArray(filter) ? (filter as Record<string, unknown>) : null;
}

export function dedupe(values: string[]): string[] {
  return [...new Set(values)];
}

/**
 * Columns no edit changes: a subscription's identity and its secrets. `create` writes them once,
 * `rotate` is the secrets' only writer after that; `update` refuses them and an edit in the admin
 * panel has them dropped (subscriptions/editor-hooks.ts).
 */
export const FIXED_COLUMNS = ['uuid', 'secret', 'secret_old'] as const;

/** What re-enabling a subscription writes besides `is_active`: its count of consecutive failures starts afresh. */
export const REENABLED = { failure_count: 0, disabled_at: null };
