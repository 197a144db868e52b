import crypto from 'node:crypto';

/**
 * Webhook secrets must be readable to sign deliveries, so they are encrypted at rest rather than
 * hashed: AES-256-GCM with a key derived from ENCRYPTION_KEY, a fresh 12-byte IV per value,
 * and the auth tag kept beside it, so a changed or swapped ciphertext fails to open.
 * Stored form: "v1:<iv>:<tag>:<ciphertext>", each part base64url.
 */
export interface SecretBox {
  seal(plaintext: string): string;
  open(sealed: string): string;
}

export function createSecretBox(encryptionKey: string): SecretBox {
  if (!encryptionKey) throw new Error('an encryption key is required to store webhook secrets');
  // Derived, not used as is: ENCRYPTION_KEY is any string, and the derivation is bound to this use.
  const key = crypto.createHmac('sha256', encryptionKey).update('api-suite:webhook-secret:v1').digest();
  return {
    seal(plaintext) {
      const iv = crypto.randomBytes(12);
      const cipher = crypto.createCipheriv('aes-256-gcm', key, iv);
      const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return ['v1', iv, cipher.getAuthTag(), ciphertext]
        .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
        .join(':');
    },
    open(sealed) {
      const [version, iv, tag, ciphertext] = sealed.split(':');
      if (version !== 'v1' || !iv || !tag || ciphertext === undefined) throw new Error('not a sealed webhook secret');
      const decipher = crypto.createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
    },
  };
}
