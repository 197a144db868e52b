/** A pure module (no server imports), so the request schemas that use it can be read by any client's type check. */

/**
 * Headers a subscription may not set: the signature headers (a receiver must be able to trust
 * them) and the ones that describe the HTTP exchange itself.
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

export function isReservedHeader(name: string): boolean {
  const lower = name.toLowerCase();
  return RESERVED_HEADERS.has(lower) || lower.startsWith('webhook-') || lower.startsWith('proxy-');
}
