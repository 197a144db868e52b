/**
 * What a share of request slots belongs to (docs/webhooks.md#a-fair-share-per-endpoint): the
 * consumer who owns the subscription and the host its URL names. A receiver's capacity is its
 * host's, whatever the path, query, fragment, port, scheme or letter case of the URL; and the
 * share is its consumer's, so one consumer's twenty subscriptions to variants of one slow URL hold
 * one share between them, while two consumers who send to one host each keep their own.
 */
export function shareKeyOf(target: { consumerId: string; endpointUrl: string }): string {
  return `${target.consumerId} ${hostOf(target.endpointUrl)}`;
}

/** The host of a URL as the share counts it: lower case, without a trailing dot; the URL itself when it does not parse. */
export function hostOf(url: string): string {
  try {
    return new URL(url).hostname.toLowerCase().replace(/\.$/, '');
  } catch {
    return url;
  }
}

/** A share in a log line: its host and the consumer's id, never a path or query (which may hold a token). */
export function displayShare(key: string): string {
  const space = key.indexOf(' ');
  return space === -1 ? '(unknown)' : `${key.slice(space + 1)} (consumer ${key.slice(0, space)})`;
}
