/** A pure module (no server imports), so the request schemas that use it can be read by any client's type check. */

/**
 * Headers a webhook subscription or a scraper may not set: the signature headers (a receiver must
 * be able to trust them) and the ones that describe the HTTP exchange itself (a scraper sending
 * its own `host`, `transfer-encoding` or `expect` breaks every request of its runs).
 */
export const RESERVED_HEADERS = new Set([
  'webhook-id',
  'webhook-timestamp',
  'webhook-signature',
  'x-webhook-event',
  'content-type',
  'content-length',
  'content-encoding',
  'transfer-encoding',
  'host',
  'connection',
  'keep-alive',
  'upgrade',
  'expect',
  'te',
  'trailer',
]);

/**
 * Compared after folding `_` to `-`: servers and proxies that read `Webhook_Signature` as
 * `webhook-signature` (nginx with underscores allowed, CGI-style gateways) must not receive a forged one.
 */
export function isReservedHeader(name: string): boolean {
  const lower = name.toLowerCase().replace(/_/g, '-');
  return RESERVED_HEADERS.has(lower) || lower.startsWith('webhook-') || lower.startsWith('proxy-');
}
