import type dns from 'node:dns';
import net from 'node:net';
import { buildConnector, errors as undiciErrors } from 'undici';
import { EndpointNotAllowedError, isForbiddenAddress, unbracketHost } from './address-guard';
import { errorCode, toError } from './errors';
import type { LookupAll } from './types';

/**
 * The Agent's `connect` option. undici calls it for every new pooled connection with the origin's
 * host name; it resolves the name itself, refuses forbidden addresses, and hands undici's own
 * connector the checked IP so no second, unchecked resolution happens inside net.connect.
 */
export function createGuardedConnector(settings: {
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

export function resolveAll(lookup: LookupAll, hostname: string, timeoutMs: number): Promise<string[]> {
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
