'use strict';
/**
 * Standard Webhooks signatures with `node:crypto`, as the engine makes them
 * (`features/webhooks/signing.ts`): HMAC-SHA256 over `<id>.<timestamp>.<body>` with the secret
 * read as base64, sent as `v1,<base64 mac>`. The bench's ceiling signs with it and its receiver
 * verifies every delivery with it: the `standardwebhooks` package hashes in JavaScript, several
 * times slower, and would measure that rather than undici or the engine. A sample of the
 * deliveries is still verified with the package (`sampledVerify`), so the signatures stay proven
 * against the reference implementation.
 */
const crypto = require('node:crypto');
const { Webhook } = require('standardwebhooks');

const keys = new Map();
const keyOf = (secret) => {
  let key = keys.get(secret);
  if (!key) keys.set(secret, (key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64')));
  return key;
};

const macOf = (secret, id, timestampSeconds, body) =>
  crypto.createHmac('sha256', keyOf(secret)).update(`${id}.${timestampSeconds}.${body}`, 'utf8').digest();

/** The `webhook-signature` header for a delivery. */
function sign(secret, id, timestampSeconds, body) {
  return `v1,${macOf(secret, id, timestampSeconds, body).toString('base64')}`;
}

/** Whether any `v1,` signature of the header is the delivery's (constant-time), as a receiver checks. */
function verify(secret, headers, body) {
  const id = headers['webhook-id'];
  const timestamp = headers['webhook-timestamp'];
  const header = headers['webhook-signature'];
  if (typeof id !== 'string' || typeof timestamp !== 'string' || typeof header !== 'string') return false;
  const expected = macOf(secret, id, timestamp, body);
  return header.split(' ').some((part) => {
    if (!part.startsWith('v1,')) return false;
    const given = Buffer.from(part.slice(3), 'base64');
    return given.length === expected.length && crypto.timingSafeEqual(given, expected);
  });
}

/** One delivery in `every` is verified with the `standardwebhooks` package too: true when it was and passed, false when it failed, null when not sampled. */
function sampledVerify(every) {
  let seen = 0;
  const packages = new Map();
  return (secret, headers, body) => {
    seen += 1;
    if (seen % every !== 0) return null;
    let webhook = packages.get(secret);
    if (!webhook) packages.set(secret, (webhook = new Webhook(secret)));
    try {
      webhook.verify(body, {
        'webhook-id': headers['webhook-id'],
        'webhook-timestamp': headers['webhook-timestamp'],
        'webhook-signature': headers['webhook-signature'],
      });
      return true;
    } catch {
      return false;
    }
  };
}

module.exports = { sign, verify, sampledVerify };
