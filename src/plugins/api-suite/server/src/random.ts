import crypto from 'node:crypto';

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** `length` characters of [A-Za-z0-9] from the CSPRNG, each equally likely (API keys, webhook secrets). */
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
