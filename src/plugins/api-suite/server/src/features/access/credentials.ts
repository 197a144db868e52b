import crypto from 'node:crypto';
import { randomAlphanumeric } from '../../random';

export { randomAlphanumeric };

/**
 * The shape of API keys and the few operations on them that must be exactly right: uniform
 * randomness, hashing, and comparisons that take the same time whatever the input.
 */
export const API_KEY_PATTERN = /^sk_[A-Za-z0-9]{48}$/;
export const KEY_PREFIX_LENGTH = 8;

export function generateApiKey(): string {
  return `sk_${randomAlphanumeric(48)}`;
}

export function generateClientId(): string {
  return `ci_${randomAlphanumeric(24)}`;
}

export function hashApiKey(key: string): string {
  return crypto.createHash('sha256').update(key, 'utf8').digest('hex');
}

export function keyPrefixOf(key: string): string {
  return key.slice(0, KEY_PREFIX_LENGTH);
}

/** Constant-time equality of two strings: compares their SHA-256, so not even the length leaks. */
export function safeEqual(a: string, b: string): boolean {
  const left = crypto.createHash('sha256').update(a, 'utf8').digest();
  const right = crypto.createHash('sha256').update(b, 'utf8').digest();
  return crypto.timingSafeEqual(left, right);
}
