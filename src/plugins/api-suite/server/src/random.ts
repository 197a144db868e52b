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

/**
 * Strapi's documentId shape (24 lowercase alphanumerics), for rows written without the document
 * service. Hot paths write one per delivery and attempt, so it is cut from a UUID (Node keeps a
 * pool of random bytes for those): 96 random bits in hex, a subset of the alphabet.
 */
export function documentId(): string {
  const uuid = crypto.randomUUID();
  return `${uuid.slice(0, 8)}${uuid.slice(9, 13)}${uuid.slice(15, 18)}${uuid.slice(20, 23)}${uuid.slice(24, 30)}`;
}
