import crypto from 'node:crypto';
import { randomAlphanumeric } from '../../random';

/**
 * Standard Webhooks signatures (docs/webhooks.md#the-delivery-request), so receivers can verify
 * deliveries with the public `standardwebhooks` or `svix` libraries: the HMAC key is the
 * subscription secret base64-decoded, the signed content is
 * "{webhook-id}.{webhook-timestamp}.{raw body}", and the header value is
 * "v1,<base64 HMAC-SHA256>". Within the rotation window the header carries the new secret's
 * signature first and the old one's after a space.
 */
export const SECRET_LENGTH = 32;
export const ROTATION_WINDOW_MS = 10 * 60 * 1000;
const SECRET_PATTERN = /^[A-Za-z0-9]{32}$/;

/** 32 characters of [A-Za-z0-9] from the CSPRNG: also a valid base64 string of 24 bytes. */
export function generateSecret(): string {
  return randomAlphanumeric(SECRET_LENGTH);
}

export function isValidSecret(secret: string): boolean {
  return SECRET_PATTERN.test(secret);
}

/** Secrets already checked and decoded into HMAC keys: a subscription's is decoded once, not once per delivery. */
const keys = new Map<string, Buffer>();
const KEYS_KEPT = 10_000;

function keyOf(secret: string): Buffer {
  let key = keys.get(secret);
  if (key) return key;
  if (!isValidSecret(secret)) throw new Error('a webhook secret is 32 characters of [A-Za-z0-9]');
  key = Buffer.from(secret, 'base64');
  if (keys.size >= KEYS_KEPT) keys.clear();
  keys.set(secret, key);
  return key;
}

export function sign(secret: string, webhookId: string, timestampSeconds: number, body: string): string {
  const key = keyOf(secret);
  const mac = crypto.createHmac('sha256', key).update(`${webhookId}.${timestampSeconds}.${body}`, 'utf8').digest('base64');
  return `v1,${mac}`;
}

export interface SigningSecrets {
  current: string;
  /** The secret before the last rotation, and when that rotation happened. */
  previous?: { secret: string; rotatedAt: Date };
}

/** The `webhook-signature` header: the current secret's signature, then the old one's while the rotation window lasts. */
export function signatureHeader(secrets: SigningSecrets, webhookId: string, timestampSeconds: number, body: string, now?: Date): string {
  const current = sign(secrets.current, webhookId, timestampSeconds, body);
  const previous = secrets.previous;
  if (!previous) return current;
  const at = now ? now.getTime() : Date.now();
  return at - previous.rotatedAt.getTime() < ROTATION_WINDOW_MS
    ? `${current} ${sign(previous.secret, webhookId, timestampSeconds, body)}`
    : current;
}
