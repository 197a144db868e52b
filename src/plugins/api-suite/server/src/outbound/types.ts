import type dns from 'node:dns';
import type { Dispatcher } from 'undici';

// The outbound client's shapes (what it is built with, what a request asks and what it answers) and defaults.

/** The all-addresses form of `dns.lookup`; `dns.lookup` itself satisfies it. */
export type LookupAll = (
  hostname: string,
  options: dns.LookupAllOptions,
  callback: (err: NodeJS.ErrnoException | null, addresses: dns.LookupAddress[]) => void
) => void;

export interface OutboundOptions {
  allowPrivate: boolean;
  /** DNS lookup plus TCP/TLS handshake, per address tried. Default 5000. */
  connectTimeoutMs?: number;
  /** How long an idle pooled connection is kept (capped by the server's keep-alive hint). Default 30000. */
  keepAliveTimeoutMs?: number;
  /** Default 64. */
  connectionsPerOrigin?: number;
  userAgent?: string;
  /** Injectable for tests; defaults to `dns.lookup`. */
  lookup?: LookupAll;
}

export interface OutboundRequest {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Whole request: connect, headers and body. Default 30000. */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Body kept up to this size, default 64 KiB; the rest is drained and discarded. */
  maxResponseBytes?: number;
  /**
   * An http:// or https:// forward proxy to send the request through. The proxy resolves the
   * target itself, so the target is checked against the guard by name first (a DNS answer that
   * changes between that check and the proxy's own lookup is not caught); the connection to the
   * proxy is not guarded, since proxies are configured by the site owner.
   */
  proxy?: string;
}

export interface OutboundResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** UTF-8 text, truncated to maxResponseBytes (a character cut in half at the limit is dropped). */
  body: string;
  truncated: boolean;
  durationMs: number;
}

export interface Outbound {
  request(url: string | URL, req?: OutboundRequest): Promise<OutboundResponse>;
  /**
   * Resolves the host (all addresses) and throws EndpointNotAllowedError when allowPrivate is
   * false and any address is forbidden; throws InvalidUrlError for non-http(s) URLs. Useful to
   * reject a webhook URL when it is saved; request() enforces the same rule again at connect time.
   */
  assertAllowed(url: string | URL): Promise<void>;
  readonly dispatcher: Dispatcher;
  readonly allowPrivate: boolean;
  close(): Promise<void>;
}

export const OUTBOUND_DEFAULTS = {
  connectTimeoutMs: 5_000,
  keepAliveTimeoutMs: 30_000,
  connectionsPerOrigin: 64,
  requestTimeoutMs: 30_000,
  maxResponseBytes: 64 * 1024,
  userAgent: 'strapi-plugin-api-suite',
} as const;
