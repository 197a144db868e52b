import { ADMINISTRATOR_ROLE } from '../../constants';
import type { Scope } from '../../http/principal';
import type { ApiKey } from './validation/responses';

// API keys as their table holds them, as the access middleware caches them and as the API answers them.

export type { Scope };

export type KeyStatus = 'active' | 'revoked' | 'expired';

/** What the access middleware needs to know about a key, cached so a hot key costs no query. */
export interface KeyEntry {
  id: number;
  keyHash: string;
  clientId: string;
  status: KeyStatus;
  expiresAt: number | null;
  scopes: Scope[];
  user: { id: number; consumerId: string | null; isAdmin: boolean; blocked: boolean } | null;
  /** The plan an administrator issued the key on; null: the key follows its owner's plan. */
  planId: number | null;
  /** Limits an administrator gave this key; a key with either is counted in a pool of its own. */
  ownLimits: { perMinute: number | null; perMonth: number | null };
  /** The key that pool is named after: this one, or the first key of its reroll chain (which it carries on). */
  poolKeyId: number;
}

/** A key as the API answers it: the response schema's type, so the two cannot drift. */
export type PublicKey = ApiKey;

export interface KeyRow {
  id: number;
  name: string | null;
  key_prefix: string;
  key_hash: string;
  client_id: string;
  scopes: unknown;
  status: KeyStatus;
  expires_at: string | Date | null;
  revoked_at: string | Date | null;
  createdAt: string | Date;
  requests_per_minute?: number | null;
  requests_per_month?: number | null;
  replaced_by?: number | null;
  pool_key_id?: number | null;
  user?: { id: number; consumer_id?: string | null; blocked?: boolean | null; role?: { type?: string } | null } | null;
  plan?: { id: number } | null;
}

export function toEntry(row: KeyRow): KeyEntry {
  return {
    id: row.id,
    keyHash: row.key_hash,
    clientId: row.client_id,
    status: row.status,
    expiresAt: row.expires_at ? new Date(row.expires_at).getTime() : null,
    scopes: normaliseScopes(row.scopes),
    user: row.user
      ? {
          id: row.user.id,
          consumerId: row.user.consumer_id ?? null,
          isAdmin: row.user.role?.type === ADMINISTRATOR_ROLE.type,
          blocked: Boolean(row.user.blocked),
        }
      : null,
    planId: row.plan?.id ?? null,
    ownLimits: { perMinute: row.requests_per_minute ?? null, perMonth: row.requests_per_month ?? null },
    poolKeyId: row.pool_key_id ?? row.id,
  };
}

/**
 * What a key is now, in the order verification checks it (expired before revoked): the one
 * definition behind the middleware's refusal, the OAuth token endpoint and the `status` lists show,
 * so a key listed as expired also answers key_expired.
 */
export function effectiveStatus(status: KeyStatus, expiresAt: number | null, now = Date.now()): KeyStatus {
  if (status === 'expired' || (expiresAt !== null && expiresAt <= now)) return 'expired';
  if (status === 'revoked') return 'revoked';
  return 'active';
}

export function toPublic(row: KeyRow, planId: number | null): PublicKey {
  const expiresAt = row.expires_at ? new Date(row.expires_at) : null;
  return {
    id: row.id,
    name: row.name ?? null,
    key_prefix: row.key_prefix,
    client_id: row.client_id,
    plan_id: planId,

    user_id: row.user?.id ?? null,
    scopes: normaliseScopes(row.scopes),
    status: effectiveStatus(row.status, expiresAt ? expiresAt.getTime() : null),
    expires_at: expiresAt ? expiresAt.toISOString() : null,
    revoked_at: row.revoked_at ? new Date(row.revoked_at).toISOString() : null,
    created_at: new Date(row.createdAt).toISOString(),
  };
}

export interface KeyDetails extends KeyLimits {
  plan_source: 'key' | 'consumer';
  replaced_by: number | null;
  replaced_by_prefix: string | null;
}

export interface KeyLimits {
  requests_per_minute: number | null;
  requests_per_month: number | null;
}

export function limitsOf(row: KeyRow): KeyLimits {
  return { requests_per_minute: row.requests_per_minute ?? null, requests_per_month: row.requests_per_month ?? null };
}

export function normaliseScopes(value: unknown): Scope[] {
  const list = typeof value === 'string' ? safeParse(value) : value;
  return Array.isArray(list) ? list.filter((scope): scope is Scope => scope === 'read' || scope === 'write') : [];
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return [];
  }
}
