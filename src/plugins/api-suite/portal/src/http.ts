/**
 * The portal's one way to the server: same-origin fetch with the signed-in user's JWT, exactly as
 * a customer's own code would call the public API. Every error family the API answers in (the
 * /api/v1 family, the /api/webhooks family, users-permissions' own) is read into one ApiProblem
 * with the fields the server named, so forms show them beside their inputs.
 */
export class ApiProblem extends Error {
  constructor(
    readonly status: number,
    readonly code: string | null,
    message: string,
    /** Field name (dotted path as the server sent it) → the server's message. */
    readonly fields: Record<string, string> = {}
  ) {
    super(message);
    this.name = 'ApiProblem';
  }
}

type Query = Record<string, string | number | undefined>;

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

export function pathWith(path: string, query: Query = {}): string {
  const entries = Object.entries(query).filter((entry): entry is [string, string | number] => entry[1] !== undefined && entry[1] !== '');
  if (entries.length === 0) return path;
  return `${path}?${new URLSearchParams(entries.map(([key, value]) => [key, String(value)])).toString()}`;
}

export async function request<T>(method: string, path: string, body?: unknown, options: { anonymous?: boolean } = {}): Promise<T> {
  const response = await send(method, path, body, options.anonymous);
  if (response.status === 204) return undefined as T;
  const parsed: unknown = await response.json().catch(() => null);
  if (!response.ok) throw problemOf(response.status, parsed);
  return parsed as T;
}

/** The answer as a file (CSV or NDJSON exports), with the name the browser should save it under. */
export async function download(path: string, filename: string): Promise<void> {
  const response = await send('GET', path);
  if (!response.ok) throw problemOf(response.status, await response.json().catch(() => null));
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** An authenticated fetch whose answer the caller reads (the usage stream). */
export async function send(method: string, path: string, body?: unknown, anonymous = false): Promise<Response> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (token && !anonymous) headers.Authorization = `Bearer ${token}`;
  let response: Response;
  try {
    response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch {
    throw new ApiProblem(0, 'network_error', 'The server could not be reached. Check your connection and try again.');
  }
  if (response.status === 401 && !anonymous) onUnauthorized();
  return response;
}

export function problemOf(status: number, body: unknown): ApiProblem {
  const fallback = status === 0 ? 'The server could not be reached.' : `The server answered ${status}.`;
  if (!isObject(body)) return new ApiProblem(status, null, fallback);
  const error = body.error;
  // /api/v1: { error: { code, message, details: [{ field, message }] } }; users-permissions: { error: { name, message, details: { errors: [{ path, message }] } } }
  if (isObject(error)) {
    const code = typeof error.code === 'string' ? error.code : typeof error.name === 'string' ? error.name : null;
    const details = isObject(error.details) ? error.details.errors : error.details;
    return new ApiProblem(status, code, typeof error.message === 'string' ? error.message : fallback, fieldsOf(details));
  }
  // /api/webhooks: { error: "<message>", code, details?, invalid_events? }
  if (typeof error === 'string') {
    const fields = fieldsOf(body.details);
    if (Array.isArray(body.invalid_events)) fields.events = `unknown or inactive: ${body.invalid_events.join(', ')}`;
    return new ApiProblem(status, typeof body.code === 'string' ? body.code : null, error, fields);
  }
  // /api/checkout family: { errors: [{ message }] }
  if (Array.isArray(body.errors) && isObject(body.errors[0]) && typeof body.errors[0].message === 'string') {
    return new ApiProblem(status, null, body.errors[0].message);
  }
  return new ApiProblem(status, null, fallback);
}

function fieldsOf(details: unknown): Record<string, string> {
  const fields: Record<string, string> = {};
  if (!Array.isArray(details)) return fields;
  for (const item of details) {
    if (!isObject(item) || typeof item.message !== 'string') continue;
    const name = typeof item.field === 'string' ? item.field : Array.isArray(item.path) ? item.path.join('.') : null;
    if (name && !(name in fields)) fields[name] = item.message;
  }
  return fields;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
