import { Webhook } from 'standardwebhooks';
import { createSecretBox } from '../../src/plugins/api-suite/server/src/features/webhooks/secret-box';
import {
  generateSecret,
  isValidSecret,
  ROTATION_WINDOW_MS,
  sign,
  signatureHeader,
} from '../../src/plugins/api-suite/server/src/features/webhooks/signing';

/** Our signatures verify with the public standardwebhooks library, as a receiver would check them. */
const body = JSON.stringify({
  type: 'order.created',
  timestamp: '2026-11-22T00:00:00.000Z',
  data: { id: 1, status: 'pending', total: 25, created_at: '2026-11-22T00:00:00.000Z' },
});
const id = '3f1c9a52-6a6b-4c5e-9d8e-1a2b3c4d5e6f';

function headersFor(signature: string, timestamp = Math.floor(Date.now() / 1000)) {
  return { 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': signature };
}

describe('webhook signing', () => {
  it('generates 32-character alphanumeric secrets', () => {
    const secrets = new Set(Array.from({ length: 500 }, generateSecret));
    expect(secrets.size).toBe(500);
    for (const secret of secrets) expect(isValidSecret(secret)).toBe(true);
  });

  it('signs so that standardwebhooks verifies, and a changed body does not', () => {
    const secret = generateSecret();
    const now = Math.floor(Date.now() / 1000);
    const header = signatureHeader({ current: secret }, id, now, body);
    expect(header).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    const receiver = new Webhook(secret);
    expect(receiver.verify(body, headersFor(header, now))).toEqual(JSON.parse(body));
    expect(() => receiver.verify(body.replace('pending', 'paid'), headersFor(header, now))).toThrow();
    expect(() => new Webhook(generateSecret()).verify(body, headersFor(header, now))).toThrow();
  });

  it('carries both signatures, new first, during the rotation window, and only the new one after it', () => {
    const [oldSecret, newSecret] = [generateSecret(), generateSecret()];
    const rotatedAt = new Date();
    const now = Math.floor(Date.now() / 1000);
    const during = signatureHeader(
      { current: newSecret, previous: { secret: oldSecret, rotatedAt } },
      id,
      now,
      body,
      new Date(rotatedAt.getTime() + ROTATION_WINDOW_MS - 1000)
    );
    const [first, second] = during.split(' ');
    expect(first).toBe(sign(newSecret, id, now, body));
    expect(second).toBe(sign(oldSecret, id, now, body));
    // A receiver still on the old secret, and one already on the new one, both accept it.
    expect(new Webhook(oldSecret).verify(body, headersFor(during, now))).toBeTruthy();
    expect(new Webhook(newSecret).verify(body, headersFor(during, now))).toBeTruthy();

    const after = signatureHeader(
      { current: newSecret, previous: { secret: oldSecret, rotatedAt } },
      id,
      now,
      body,
      new Date(rotatedAt.getTime() + ROTATION_WINDOW_MS)
    );
    expect(after.split(' ')).toHaveLength(1);
    expect(new Webhook(newSecret).verify(body, headersFor(after, now))).toBeTruthy();
    expect(() => new Webhook(oldSecret).verify(body, headersFor(after, now))).toThrow();
  });

  it('refuses to sign with a malformed secret', () => {
    expect(() => sign('short', id, 1, body)).toThrow(/32 characters/);
  });
});

describe('secret box', () => {
  it('seals and opens, with a fresh IV each time', () => {
    const box = createSecretBox('an encryption key from the environment');
    const secret = generateSecret();
    const [a, b] = [box.seal(secret), box.seal(secret)];
    expect(a).not.toBe(b);
    expect(a).not.toContain(secret);
    expect(box.open(a)).toBe(secret);
    expect(box.open(b)).toBe(secret);
  });

  it('refuses a tampered value or another key', () => {
    const box = createSecretBox('key one');
    const sealed = box.seal(generateSecret());
    const parts = sealed.split(':');
    const flipped = Buffer.from(parts[3], 'base64url');
    flipped[0] ^= 1;
    expect(() => box.open([parts[0], parts[1], parts[2], flipped.toString('base64url')].join(':'))).toThrow();
    expect(() => createSecretBox('key two').open(sealed)).toThrow();
    expect(() => box.open('plain text')).toThrow(/not a sealed/);
  });
});
