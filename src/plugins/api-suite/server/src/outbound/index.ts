import dns from 'node:dns';
import net from 'node:net';
import { performance } from 'node:perf_hooks';
import { Agent, ProxyAgent, type Dispatcher } from 'undici';
import { EndpointNotAllowedError, isForbiddenAddress, unbracketHost } from './address-guard';
import { createGuardedConnector, resolveAll } from './connector';
import { normalizeError } from './errors';
import { exchange } from './exchange';
import {
  OUTBOUND_DEFAULTS,
  type LookupAll,
  type Outbound,
  type OutboundOptions,
  type OutboundRequest,
  type OutboundResponse,
} from './types';
import { parseHttpUrl } from './urls';

export { EndpointNotAllowedError, isForbiddenAddress } from './address-guard';
export { InvalidUrlError, OutboundTimeoutError } from './errors';
export * from './types';

/**
 * The plugin's single outbound HTTP client. Every connection it opens is checked against
 * `isForbiddenAddress` inside the undici connector, i.e. after DNS resolution and immediately
 * before the socket is opened to that very address, so a host that answers a public address to
 * an earlier check and a private one later (DNS rebinding) still cannot be reached.
 *
 * Its parts: the guarded connector and DNS (`connector.ts`), one request's exchange with undici
 * (`exchange.ts`), URL parsing (`urls.ts`), its errors (`errors.ts`) and shapes (`types.ts`).
 */
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

  const send = (url: URL, req: OutboundRequest): Promise<OutboundResponse> => {
    const dispatcher: Dispatcher = req.proxy ? proxyAgent(req.proxy) : agent;
    const timeoutMs = req.timeoutMs ?? OUTBOUND_DEFAULTS.requestTimeoutMs;
    const maxResponseBytes = req.maxResponseBytes ?? OUTBOUND_DEFAULTS.maxResponseBytes;
    const callerSignal = req.signal;
    if (callerSignal?.aborted) return Promise.reject(callerSignal.reason);
    const started = performance.now();
    return exchange(dispatcher, url, req, { signal: callerSignal, timeoutMs, maxResponseBytes, userAgent }).then(
      (response) => {
        response.durationMs = Math.round(performance.now() - started);
        return response;
      },
      (err: unknown) => {
        throw normalizeError(err, url.origin, timeoutMs, connectTimeoutMs);
      }
    );
  };

  const outbound: Outbound = {
    dispatcher: agent,
    allowPrivate,

    // Not async: a webhook delivery makes thousands of these a second, so one promise each (the
    // exchange's `then`) rather than an async frame and its await besides.
    request(input, req = {}) {
      try {
        const url = parseHttpUrl(input);
        // Through a proxy, the target is checked here (the direct agent checks the address it connects to).
        if (req.proxy && !allowPrivate) return outbound.assertAllowed(url).then(() => send(url, req));
        return send(url, req);
      } catch (error) {
        return Promise.reject(error);
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
