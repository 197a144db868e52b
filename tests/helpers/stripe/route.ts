import type { EventCause } from './events';
import type { Params } from './form';
import type { StubContext } from './store';

/** One API call as a handler sees it: the decoded parameters (body, or query for GET and DELETE) and the path's ids. */
export interface ApiRequest {
  ctx: StubContext;
  params: Params;
  /** The path's captures: `/v1/prices/:id` gives `[id]`. */
  ids: string[];
  cause: EventCause;
}

export interface Route {
  method: 'GET' | 'POST' | 'DELETE';
  path: RegExp;
  /** The object to answer with 200, or throws a StubError. */
  handle(request: ApiRequest): object;
}

export const route = (method: Route['method'], path: string, handle: Route['handle']): Route => ({
  method,
  path: new RegExp(`^${path.replace(/:[a-z]+/g, '([^/]+)')}$`),
  handle,
});
