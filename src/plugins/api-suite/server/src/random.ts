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

/** Strapi's documentId shape (24 lowercase alphanumerics), for rows written without the document service. */
export function documentId(): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  let id = '';
  // 252 = 7 × 36, for the same reason as above.
  while (id.length < 24) {
    for (const byte of crypto.randomBytes(32)) {
      if (byte < 252) id += alphabet[byte % 36];
      if (id.length === 24) break;
    }
  }
  return id;
}
