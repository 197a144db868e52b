import { problemOfResponse, send as sendShared } from '../../shared/http';
import { sitePathOf } from '../../server/src/http/site-paths';
import { siteSettings } from './settings';

/**
 * The portal's one way to the server: same-origin fetch with the signed-in user's JWT, exactly as
 * a customer's own code would call the public API. Every error family the API answers in is read
 * by the shared reader (`shared/http.ts`) into one ApiProblem with the fields the server named,
 * so forms show them beside their inputs.
 */
export { ApiProblem } from '../../shared/http';

let token: string | null = null;
let onUnauthorized: () => void = () => {};

export function setToken(value: string | null): void {
  token = value;
}

export function currentToken(): string | null {
  return token;
}

/** What a 401 does (sign out, back to sign-in); set once by the auth provider. */
export function whenUnauthorized(handler: () => void): void {
  onUnauthorized = handler;
}

export async function request<T>(method: string, path: string, body?: unknown, options: { anonymous?: boolean } = {}): Promise<T> {
  const response = await send(method, path, { body, anonymous: options.anonymous });
  if (response.status === 204) return undefined as T;
  if (!response.ok) throw await problemOfResponse(response);
  return (await response.json().catch(() => null)) as T;
}

/** The answer as a file (CSV or NDJSON exports), with the name the browser should save it under. */
export async function download(path: string, filename: string): Promise<void> {
  const response = await send('GET', path);
  if (!response.ok) throw await problemOfResponse(response);
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** An authenticated fetch whose answer the caller reads (the usage stream); a 401 signs out. */
export async function send(
  method: string,
  path: string,
  options: { body?: unknown; anonymous?: boolean; accept?: string; signal?: AbortSignal } = {}
): Promise<Response> {
  // The client names API paths as /api/…: on a site with a REST prefix of its own, they are under that.
  const response = await sendShared(method, sitePathOf(siteSettings().restPrefix, path), {
    ...options,
    token: options.anonymous ? null : token,
  });
  if (response.status === 401 && !options.anonymous) onUnauthorized();
  return response;
}
