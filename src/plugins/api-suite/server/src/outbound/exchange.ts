import { StringDecoder } from 'node:string_decoder';
import { util as undiciUtil, type Dispatcher } from 'undici';
import { OutboundTimeoutError } from './errors';
import type { OutboundRequest, OutboundResponse } from './types';

/**
 * One request through undici's dispatch interface: the response is read by callbacks, with no
 * stream, abort controller or promise per chunk, since a webhook delivery makes thousands of these
 * a second. Settles once: with the response, the first error, the timeout, or the caller's abort.
 * The timeout covers the whole exchange, including waiting for a pooled connection: undici only
 * notices an abort once the request is on a socket, so a request still waiting for its connection
 * (slow DNS, blackholed SYN) is given up at once and aborted when it gets one.
 */
export function exchange(
  dispatcher: Dispatcher,
  url: URL,
  req: OutboundRequest,
  settings: { signal: AbortSignal | undefined; timeoutMs: number; maxResponseBytes: number; userAgent: string }
): Promise<OutboundResponse> {
  const { origin, path } = partsOf(url);
  return new Promise((resolve, reject) => {
    const handler = new ExchangeHandler(origin, settings, resolve, reject);
    try {
      dispatcher.dispatch(
        {
          origin,
          path,
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

/**
 * A URL's origin and path, worked out once per URL object: its getters build new strings on each
 * read, and a webhook endpoint's parsed URL is shared by all its deliveries (`urls.ts`).
 */
const parts = new WeakMap<URL, { origin: string; path: string }>();
function partsOf(url: URL): { origin: string; path: string } {
  let found = parts.get(url);
  if (!found) {
    found = { origin: url.origin, path: `${url.pathname}${url.search}` };
    parts.set(url, found);
  }
  return found;
}

/**
 * What `exchange` resolves with. `headers` is parsed from undici's raw list the first time it is
 * read (a webhook delivery reads none unless it was refused with a Retry-After); `durationMs` is
 * set by the caller that timed it.
 */
class ExchangeResult implements OutboundResponse {
  durationMs = 0;
  private parsed: OutboundResponse['headers'] | undefined;
  constructor(
    readonly status: number,
    private readonly rawHeaders: Buffer[] | undefined,
    readonly body: string,
    readonly truncated: boolean
  ) {}
  get headers(): OutboundResponse['headers'] {
    this.parsed ??= this.rawHeaders ? (undiciUtil.parseHeaders(this.rawHeaders) as OutboundResponse['headers']) : {};
    return this.parsed;
  }
}

/** undici's callbacks for one exchange, as one object (not a closure per callback: one request, one allocation). */
class ExchangeHandler implements Dispatcher.DispatchHandler {
  private settled = false;
  private completed = false;
  private abortRequest: ((err?: Error) => void) | undefined;
  private abortedWith: Error | undefined;
  private status = 0;
  private rawHeaders: Buffer[] | undefined;
  private readonly body: CappedText;
  private readonly timer: NodeJS.Timeout;
  private readonly signal: AbortSignal | undefined;
  private readonly onCallerAbort: (() => void) | undefined;

  constructor(
    origin: string,
    settings: { signal: AbortSignal | undefined; timeoutMs: number; maxResponseBytes: number },
    private readonly resolve: (value: OutboundResponse) => void,
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

  finish(err: unknown, result?: OutboundResponse): void {
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
    this.rawHeaders = rawHeaders;
    return true;
  }

  onData(chunk: Buffer): boolean {
    this.body.write(chunk);
    return true;
  }

  onComplete(): void {
    this.completed = true;
    const result = new ExchangeResult(this.status, this.rawHeaders, this.body.text(), this.body.truncated);
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
