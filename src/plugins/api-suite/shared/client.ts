import type { AnswerOf, CallOf, RouteContract } from '../server/src/contract/route';
import { fillPath } from '../server/src/contract/route';
import type { Contracts } from './contracts';

/**
 * The browsers' one typed client: a route is called by its contract's key, and the call's params,
 * query, body and answer are typed from that contract (server/src/contract/route.ts), so neither
 * browser writes a route's path or answer a second time. The admin panel and the portal each hand
 * it their own way of sending (the admin's fetch client with its session, the portal's fetch with
 * the consumer's JWT); each gets the answer's body as the server wrote it.
 *
 *     const call = contractClient(send);
 *     const scraper = await call('GET /api/v1/scrapers/{id}', { params: { id: 7 } });
 */

/** Sends one request to a path (its query already on it) and resolves to the answer's body (undefined for a 204). */
export type Sender = (method: string, path: string, body?: unknown) => Promise<unknown>;

export type ContractName = keyof Contracts;

/** A call's parts; a route that takes none may be called with none. */
type Parts<C extends RouteContract> = object extends CallOf<C> ? [call?: CallOf<C>] : [call: CallOf<C>];

export type Call = <K extends ContractName>(key: K, ...parts: Parts<Contracts[K]>) => Promise<AnswerOf<Contracts[K]>>;

export function contractClient(send: Sender): Call {
  return (async (key: string, call?: { params?: Record<string, unknown>; query?: Record<string, unknown>; body?: unknown }) => {
    const space = key.indexOf(' ');
    const path = withQuery(fillPath(key.slice(space + 1), call?.params), call?.query);
    return send(key.slice(0, space), path, call?.body);
  }) as Call;
}

/** The path of a route with its query: the key's contract decides which parameters it takes (an SSE stream, a download). */
export function contractPath<K extends ContractName>(key: K, ...parts: Parts<Contracts[K]>): string {
  const call = parts[0] as { params?: Record<string, unknown>; query?: Record<string, unknown> } | undefined;
  return withQuery(fillPath(key.slice(key.indexOf(' ') + 1), call?.params), call?.query);
}

/** `path?key=value…` with the parameters that are set (neither undefined, null nor empty); a list is sent comma-separated. */
function withQuery(path: string, query: Record<string, unknown> = {}): string {
  const entries = Object.entries(query).flatMap(([key, value]): Array<[string, string]> => {
    if (value === undefined || value === null || value === '') return [];
    return [[key, Array.isArray(value) ? value.join(',') : String(value)]];
  });
  return entries.length === 0 ? path : `${path}?${new URLSearchParams(entries).toString()}`;
}
