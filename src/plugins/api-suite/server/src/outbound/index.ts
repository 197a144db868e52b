import dns from 'node:dns';
import net from 'node:net';
import { performance } from 'node:perf_hooks';
import { StringDecoder } from 'node:string_decoder';
import { isNativeError } from 'node:util/types';
import { Agent, buildConnector, errors as undiciErrors, ProxyAgent, util as undiciUtil, type Dispatcher } from 'undici';
import { EndpointNotAllowedError, isForbiddenAddress, unbracketHost } from './address-guard';

export { EndpointNotAllowedError, isForbiddenAddress } from './address-guard';

/**
 * The plugin's single outbound HTTP client. Every connection it opens is checked against
 * `isForbiddenAddress` inside the undici connector, i.e. after DNS resolution and immediately
 * before the socket is opened to that very address, so a host that answers a public address to
 * an earlier check and a private one later (DNS rebinding) still cannot be reached.
 */

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

/** A request that ran out of time; `code` lets callers treat every kind of timeout alike. */
export class OutboundTimeoutError extends Error {
  readonly code = 'timeout' as const;
  readonly timeoutMs: number;

  constructor(target: string, timeoutMs: number, options?: { cause?: unknown; phase?: string }) {
    super(`${target} did not ${options?.phase ?? 'complete'} within ${timeoutMs} ms`, { cause: options?.cause });
    this.name = 'OutboundTimeoutError';
    this.timeoutMs = timeoutMs;
  }
}

/** A URL that is malformed or not http(s). */
export class InvalidUrlError extends Error {
  readonly code = 'invalid_url' as const;

  constructor(message: string) {
    super(message);
    this.name = 'InvalidUrlError';
  }
}

export function createOutbound(options: OutboundOptions): Outbound {
  const allowPrivate = options.allowPrivate;
  const connectTimeoutMs = options.connectTimeoutMs ?? OUTBOUND_DEFAULTS.connectTimeoutMs;
  const keepAliveTimeoutMs = options.keepAliveTimeoutMs ?? OUTBOUND_DEFAULTS.keepAliveTimeoutMs;
  const userAgent = options.userAgent ?? OUTBOUND_DEFAULTS.userAgent;
  const lookup: LookupAll = options.lookup ?? dns.lookup;

  const agent = new Agent({
    connect: createGuardedConnector({ allowPrivate, lookup, connectTimeoutMs }),
    connections: options.connectionsPerOrigin ?? OUTBOUND_DEFAULTS.connectionsPerOrigin,
    keepAliveTimeout: keepAliveTimeoutMs,
    // Without this a server advertising `keep-alive: timeout=600` would keep sockets far longer than configured.
    keepAliveMaxTimeout: keepAliveTimeoutMs,
  });

  const proxies = new Map<string, ProxyAgent>();
  const proxyAgent = (proxy: string): ProxyAgent => {
    let dispatcher = proxies.get(proxy);
    if (!dispatcher) {
      dispatcher = new ProxyAgent({
        uri: parseHttpUrl(proxy).href,
        connections: options.connectionsPerOrigin ?? OUTBOUND_DEFAULTS.connectionsPerOrigin,
      });
      proxies.set(proxy, dispatcher);
    }
    return dispatcher;
  };

  const outbound: Outbound = {
    dispatcher: agent,
    allowPrivate,

    async request(input, req = {}) {
      const url = parseHttpUrl(input);
      if (req.proxy && !allowPrivate) await outbound.assertAllowed(url);
      const dispatcher: Dispatcher = req.proxy ? proxyAgent(req.proxy) : agent;
      const timeoutMs = req.timeoutMs ?? OUTBOUND_DEFAULTS.requestTimeoutMs;
      const maxResponseBytes = req.maxResponseBytes ?? OUTBOUND_DEFAULTS.maxResponseBytes;
      const callerSignal = req.signal;
      if (callerSignal?.aborted) throw callerSignal.reason;
      const started = performance.now();
      try {
        const exchanged = await exchange(dispatcher, url, req, { signal: callerSignal, timeoutMs, maxResponseBytes, userAgent });
        return { ...exchanged, durationMs: Math.round(performance.now() - started) };
      } catch (err) {
        throw normalizeError(err, url.origin, timeoutMs, connectTimeoutMs);
      }
    },

    async assertAllowed(input) {
      const url = parseHttpUrl(input);
      if (allowPrivate) return;
      const host = unbracketHost(url.hostname);
      const addresses = net.isIP(host) ? [host] : await resolveAll(lookup, host, connectTimeoutMs);
      const refused = addresses.find(isForbiddenAddress);
      if (refused !== undefined) throw new EndpointNotAllowedError({ target: url.origin, host, address: refused });
    },

    async close() {
      await Promise.all([agent.close(), ...[...proxies.values()].map((dispatcher) => dispatcher.close())]);
      proxies.clear();
    },
  };
  return outbound;
}

/**
 * The Agent's `connect` option. undici calls it for every new pooled connection with the origin's
 * host name; it resolves the name itself, refuses forbidden addresses, and hands undici's own
 * connector the checked IP so no second, unchecked resolution happens inside net.connect.
 */
function createGuardedConnector(settings: {
  allowPrivate: boolean;
  lookup: LookupAll;
  connectTimeoutMs: number;
}): buildConnector.connector {
  const { allowPrivate, lookup, connectTimeoutMs } = settings;
  const connectTo = buildConnector({ timeout: connectTimeoutMs });

  return (opts, callback) => {
    let settled = false;
    const fail = (err: Error): void => {
      if (settled) return;
      settled = true;
      callback(err, null);
    };
    const succeed = (socket: net.Socket): void => {
      if (settled) {
        socket.destroy();
        return;
      }
      settled = true;
      callback(null, socket);
    };

    const host = unbracketHost(opts.hostname);
    const target = `${opts.protocol}//${opts.host ?? opts.hostname}`;

    const attempt = (addresses: string[], index: number, servername: string | undefined): void => {
      const address = addresses[index];
      if (address === undefined) {
        fail(new Error(`${target}: no address to connect to`));
        return;
      }
      try {
        connectTo({ ...opts, hostname: address, servername }, (...result) => {
          if (result[0] === null) {
            succeed(result[1]);
            return;
          }
          const err = result[0];
          // Dual-stack answers often list an unreachable IPv6 address first; the next one may work.
          if (index + 1 < addresses.length && RETRYABLE_CONNECT_CODES.has(errorCode(err) ?? '')) {
            attempt(addresses, index + 1, servername);
            return;
          }
          fail(err);
        });
      } catch (err) {
        fail(toError(err));
      }
    };

    if (net.isIP(host)) {
      if (!allowPrivate && isForbiddenAddress(host)) {
        fail(new EndpointNotAllowedError({ target, host, address: host }));
        return;
      }
      // undici derives no SNI name from an IP literal, which is what TLS requires.
      attempt([host], 0, opts.servername);
      return;
    }

    resolveAll(lookup, host, connectTimeoutMs).then(
      (addresses) => {
        const refused = allowPrivate ? undefined : addresses.find(isForbiddenAddress);
        if (refused !== undefined) {
          fail(new EndpointNotAllowedError({ target, host, address: refused }));
          return;
        }
        // The socket goes to an IP, so TLS must be told the name for SNI and certificate checks.
        attempt(addresses, 0, opts.servername || host);
      },
      (err: unknown) => fail(toError(err))
    );
  };
}

const RETRYABLE_CONNECT_CODES = new Set([
  'ECONNREFUSED',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EADDRNOTAVAIL',
  'EAFNOSUPPORT',
  'ETIMEDOUT',
  'UND_ERR_CONNECT_TIMEOUT',
]);

type Exchanged = Omit<OutboundResponse, 'durationMs'>;

/**
 * One request through undici's dispatch interface: the response is read by callbacks, with no
 * stream, abort controller or promise per chunk, since a webhook delivery makes thousands of these
 * a second. Settles once: with the response, the first error, the timeout, or the caller's abort.
 * The timeout covers the whole exchange, including waiting for a pooled connection: undici only
 * notices an abort once the request is on a socket, so a request still waiting for its connection
 * (slow DNS, blackholed SYN) is given up at once and aborted when it gets one.
 */
function exchange(
  dispatcher: Dispatcher,
  url: URL,
  req: OutboundRequest,
  settings: { signal: AbortSignal | undefined; timeoutMs: number; maxResponseBytes: number; userAgent: string }
): Promise<Exchanged> {
  return new Promise((resolve, reject) => {
    const handler = new ExchangeHandler(url.origin, settings, resolve, reject);
    try {
      dispatcher.dispatch(
        {
          origin: url.origin,
          path: `${url.pathname}${url.search}`,
          method: (req.method ?? 'GET').toUpperCase() as Dispatcher.HttpMethod,
          headers: requestHeaders(url, req.headers, settings.userAgent),
          body: req.body ?? null,
          // Backstops for the timer; they also make undici drop the socket on a stalled response.
          headersTimeout: settings.timeoutMs,
          bodyTimeout: settings.timeoutMs,
        },
        handler
      );
    } catch (err) {
      handler.finish(err);
    }
  });
}

/** undici's callbacks for one exchange, as one object (not a closure per callback: one request, one allocation). */
class ExchangeHandler implements Dispatcher.DispatchHandler {
  private settled = false;
  private completed = false;
  private abortRequest: ((err?: Error) => void) | undefined;
  private abortedWith: Error | undefined;
  private status = 0;
  private headers: OutboundResponse['headers'] = {};
  private readonly body: CappedText;
  private readonly timer: NodeJS.Timeout;
  private readonly signal: AbortSignal | undefined;
  private readonly onCallerAbort: (() => void) | undefined;

  constructor(
    origin: string,
    settings: { signal: AbortSignal | undefined; timeoutMs: number; maxResponseBytes: number },
    private readonly resolve: (value: Exchanged) => void,
    private readonly reject: (error: unknown) => void
  ) {
    this.body = new CappedText(settings.maxResponseBytes);
    this.timer = setTimeout(() => this.abort(new OutboundTimeoutError(origin, settings.timeoutMs)), settings.timeoutMs);
    this.signal = settings.signal;
    if (this.signal) {
      const signal = this.signal;
      this.onCallerAbort = () => this.abort(signal.reason as Error);
      signal.addEventListener('abort', this.onCallerAbort, { once: true });
    }
  }

  finish(err: unknown, result?: Exchanged): void {
    if (this.settled) return;
    this.settled = true;
    clearTimeout(this.timer);
    if (this.onCallerAbort) this.signal?.removeEventListener('abort', this.onCallerAbort);
    if (result) this.resolve(result);
    else this.reject(err);
  }

  private abort(reason: Error): void {
    if (this.completed || this.abortedWith) return;
    this.abortedWith = reason;
    this.abortRequest?.(reason);
    this.finish(reason);
  }

  onConnect(abort: (err?: Error) => void): void {
    if (this.abortedWith) abort(this.abortedWith);
    else this.abortRequest = abort;
  }

  onHeaders(statusCode: number, rawHeaders: Buffer[]): boolean {
    // 1xx answers come before the real one.
    if (statusCode < 200) return true;
    this.status = statusCode;
    this.headers = undiciUtil.parseHeaders(rawHeaders) as OutboundResponse['headers'];
    return true;
  }

  onData(chunk: Buffer): boolean {
    this.body.write(chunk);
    return true;
  }

  onComplete(): void {
    this.completed = true;
    const result: Exchanged = { status: this.status, headers: this.headers, body: this.body.text(), truncated: this.body.truncated };
    // undici hands the finished socket back to the pool one event-loop turn after this call
    // (client-h1 onMessageComplete -> setImmediate, queued just after it returns). Settling in
    // a later immediate lets that go first: otherwise a caller that sends its next request
    // right away to the same origin would open a second connection.
    queueMicrotask(() => setImmediate(() => this.finish(null, result)));
  }

  onError(err: Error): void {
    this.finish(err);
  }
}

/** The caller's headers, with the default user-agent and basic auth from URL credentials when the caller set neither. */
function requestHeaders(url: URL, given: Record<string, string> | undefined, userAgent: string): Record<string, string> {
  const headers: Record<string, string> = {};
  let hasUserAgent = false;
  let hasAuthorization = false;
  for (const name in given) {
    headers[name] = given[name];
    // Only names starting with u or a can be either; most are not lowercased at all.
    const first = name.charCodeAt(0) | 0x20;
    if (first === 0x75 && name.length === 10 && name.toLowerCase() === 'user-agent') hasUserAgent = true;
    else if (first === 0x61 && name.length === 13 && name.toLowerCase() === 'authorization') hasAuthorization = true;
  }
  if (!hasUserAgent) headers['user-agent'] = userAgent;
  // Dispatcher.dispatch only takes origin + path, so credentials in the URL would silently vanish.
  if ((url.username || url.password) && !hasAuthorization) {
    headers.authorization = `Basic ${Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString('base64')}`;
  }
  return headers;
}

/** Keeps the first `limit` bytes of a body as UTF-8 text; the rest is counted as cut off and dropped. */
class CappedText {
  private decoder: StringDecoder | undefined;
  private kept = 0;
  private value = '';
  truncated = false;

  constructor(private readonly limit: number) {}

  write(chunk: Buffer): void {
    if (this.kept >= this.limit) {
      if (chunk.length > 0) this.truncated = true;
      return;
    }
    const room = this.limit - this.kept;
    const part = chunk.length > room ? chunk.subarray(0, room) : chunk;
    if (part.length < chunk.length) this.truncated = true;
    this.decoder ??= new StringDecoder('utf8');
    this.value += this.decoder.write(part);
    this.kept += part.length;
  }

  /** A truncated body may end inside a multi-byte character; leaving it in the decoder drops it instead of appending a replacement character. */
  text(): string {
    return this.truncated || !this.decoder ? this.value : this.value + this.decoder.end();
  }
}

function resolveAll(lookup: LookupAll, hostname: string, timeoutMs: number): Promise<string[]> {
  return new Promise<string[]>((resolve, reject) => {
    // getaddrinfo cannot be cancelled; the timer only stops us waiting for it.
    const timer = setTimeout(
      () => reject(new undiciErrors.ConnectTimeoutError(`DNS lookup of ${hostname} timed out after ${timeoutMs} ms`)),
      timeoutMs
    );
    try {
      lookup(hostname, { all: true }, (err, addresses) => {
        clearTimeout(timer);
        if (err) {
          reject(err);
          return;
        }
        // A lookup that ignores `all: true` answers a single string; accept it rather than misjudge it.
        const list: unknown = addresses;
        const found = Array.isArray(list) ? list.map((entry: dns.LookupAddress) => entry.address) : typeof list === 'string' ? [list] : [];
        if (found.length === 0) {
          reject(Object.assign(new Error(`${hostname} did not resolve to any address`), { code: 'ENOTFOUND' }));
          return;
        }
        resolve(found);
      });
    } catch (err) {
      clearTimeout(timer);
      reject(toError(err));
    }
  });
}

/** Parsed URLs by their text: a webhook endpoint is parsed once, not once per delivery. Read only. */
const parsedUrls = new Map<string, URL>();
const PARSED_URLS_KEPT = 1000;

function parseHttpUrl(input: string | URL): URL {
  if (typeof input !== 'string') return checkHttpUrl(new URL(input.href));
  let url = parsedUrls.get(input);
  if (url) return url;
  url = checkHttpUrl(parseUrl(input));
  if (parsedUrls.size >= PARSED_URLS_KEPT) parsedUrls.clear();
  parsedUrls.set(input, url);
  return url;
}

function parseUrl(input: string): URL {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw new InvalidUrlError(`${JSON.stringify(input)} is not a valid URL`);
  }
  return url;
}

function checkHttpUrl(url: URL): URL {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new InvalidUrlError(`${url.protocol}// URLs are not allowed; only http: and https: are`);
  }
  return url;
}

/** Surfaces our own errors from wherever undici put them, and gives every timeout one shape. */
function normalizeError(err: unknown, target: string, timeoutMs: number, connectTimeoutMs: number): unknown {
  for (let current: unknown = err, depth = 0; isNativeError(current) && depth < 5; current = current.cause, depth++) {
    if (current instanceof EndpointNotAllowedError || current instanceof OutboundTimeoutError) return current;
  }
  switch (errorCode(err)) {
    case 'UND_ERR_CONNECT_TIMEOUT':
      return new OutboundTimeoutError(target, connectTimeoutMs, { cause: err, phase: 'accept a connection' });
    case 'UND_ERR_HEADERS_TIMEOUT':
      return new OutboundTimeoutError(target, timeoutMs, { cause: err, phase: 'send response headers' });
    case 'UND_ERR_BODY_TIMEOUT':
      return new OutboundTimeoutError(target, timeoutMs, { cause: err, phase: 'send the response body' });
    default:
      return err;
  }
}

function errorCode(err: unknown): string | undefined {
  if (typeof err !== 'object' || err === null || !('code' in err)) return undefined;
  const { code } = err;
  return typeof code === 'string' ? code : undefined;
}

/** isNativeError rather than instanceof: errors from Node internals may come from another realm (Jest's VM sandboxes). */
function toError(err: unknown): Error {
  return isNativeError(err) ? err : new Error(String(err));
}
