import crypto from 'node:crypto';

/**
 * The shape of API keys and the few operations on them that must be exactly right: uniform
 * randomness, hashing, and comparisons that take the same time whatever the input.
 */
export const API_KEY_PATTERN = /^sk_[A-Za-z0-9]{48}$/;
export const KEY_PREFIX_LENGTH = 8;

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** `length` characters of [A-Za-z0-9] from the CSPRNG, each equally likely. */
export function randomAlphanumeric(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of crypto.randomBytes(length * 2)) {
      // 248 = 4 × 62: bytes above it would make the first characters likelier than the rest.
      if (byte < 248) out += ALPHANUMERIC[byte % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

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
