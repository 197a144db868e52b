import { isNativeError } from 'node:util/types';
import { EndpointNotAllowedError } from './address-guard';

// The outbound client's own errors, and every error undici raises brought to their shapes.

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

/** Surfaces our own errors from wherever undici put them, and gives every timeout one shape. */
export function normalizeError(err: unknown, target: string, timeoutMs: number, connectTimeoutMs: number): unknown {
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

export function errorCode(err: unknown): string | undefined {
  if (typeof err !== 'object' || err === null || !('code' in err)) return undefined;
  const { code } = err;
  return typeof code === 'string' ? code : undefined;
}

/** isNativeError rather than instanceof: errors from Node internals may come from another realm (Jest's VM sandboxes). */
export function toError(err: unknown): Error {
  return isNativeError(err) ? err : new Error(String(err));
}
