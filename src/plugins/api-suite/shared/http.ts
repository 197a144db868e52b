/**
 * The browsers' side of HTTP, shared by the admin panel and the consumer portal: one problem type
 * for a failed call, one reader of every error body the plugin's routes answer in, and the page
 * shape of every list (the calls themselves go by their contracts: client.ts).
 */
import type { z } from 'zod';
import type { pageMeta } from '../server/src/contract/common';

/** A failed call as the screens show it: the server's message, its code, and its messages per field. */
export class ApiProblem extends Error {
  constructor(
    /** The HTTP status; 0 when no answer came. */
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

/** A page of a list, as every paged route answers it (`pageOf` in server/src/contract/common.ts), for screens that show any list. */
export interface Page<T> {
  data: T[];
  meta: z.output<typeof pageMeta>;
}

export interface SendOptions {
  body?: unknown;
  /** Sent as `Authorization: Bearer …` when set. */
  token?: string | null;
  accept?: string;
  signal?: AbortSignal;
}

/** A fetch that fails only when no answer came (as an ApiProblem with status 0); the caller reads the answer. */
export async function send(method: string, path: string, options: SendOptions = {}): Promise<Response> {
  const headers: Record<string, string> = { Accept: options.accept ?? 'application/json' };
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  if (options.token) headers.Authorization = `Bearer ${options.token}`;
  try {
    return await fetch(path, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: options.signal,
    });
  } catch (error) {
    if (options.signal?.aborted) throw error;
    throw new ApiProblem(0, 'network_error', 'The server could not be reached. Check your connection and try again.');
  }
}

/** The problem an unsuccessful answer describes (its body read as JSON, if it is). */
export async function problemOfResponse(response: Response): Promise<ApiProblem> {
  return problemOf(response.status, await response.json().catch(() => null));
}

/**
 * Every error family the plugin's routes answer in, read into one ApiProblem with the fields the
 * server named: /api/v1 and the admin routes (`{ error: { code | name, message, details } }`),
 * /api/webhooks (`{ error: "<message>", code, details? }`), and checkout (`{ errors: [{ message }] }`).
 * `fallback` is the message when the body has none.
 */
export function problemOf(status: number, body: unknown, fallback?: string): ApiProblem {
  const otherwise = fallback || (status === 0 ? 'The server could not be reached.' : `The server answered ${status}.`);
  if (!isObject(body)) return new ApiProblem(status, null, otherwise);
  const error = body.error;
  // /api/v1: { error: { code, message, details: [{ field, message }] } }; admin routes and users-permissions: { error: { name, message, details: { errors: [{ path, message }] } } }
  if (isObject(error)) {
    const code = typeof error.code === 'string' ? error.code : typeof error.name === 'string' ? error.name : null;
    const details = isObject(error.details) ? error.details.errors : error.details;
    const message = typeof error.message === 'string' && error.message ? error.message : otherwise;
    const fields = fieldsOf(details);
    if (isObject(error.details)) atPlace(fields, error.details.path, message);
    return new ApiProblem(status, code, message, fields);
  }
  // /api/webhooks: { error: "<message>", code, details?, invalid_events?, path? }
  if (typeof error === 'string') {
    const fields = fieldsOf(body.details);
    if (Array.isArray(body.invalid_events)) fields.events = `unknown or inactive: ${body.invalid_events.join(', ')}`;
    atPlace(fields, body.path, error);
    return new ApiProblem(status, typeof body.code === 'string' ? body.code : null, error, fields);
  }
  // /api/checkout family: { errors: [{ message }] }
  if (Array.isArray(body.errors) && isObject(body.errors[0]) && typeof body.errors[0].message === 'string') {
    return new ApiProblem(status, null, body.errors[0].message);
  }
  return new ApiProblem(status, null, otherwise);
}

/** Whatever was thrown, as a problem: an ApiProblem as it is, anything else by its message (or `fallback`). */
export function asProblem(error: unknown, fallback: string): ApiProblem {
  if (error instanceof ApiProblem) return error;
  return new ApiProblem(0, null, error instanceof Error && error.message ? error.message : fallback);
}

/**
 * The message for a field and everything under it (`selectors` covers `selectors.fields.title`);
 * `describe` names a part below the field (an index of a list becomes its line, say).
 */
export function fieldError(
  problem: ApiProblem | null | undefined,
  field: string,
  describe: (subPath: string) => string = (subPath) => subPath
): string | undefined {
  if (!problem) return undefined;
  const messages = Object.entries(problem.fields)
    .filter(([path]) => path === field || path.startsWith(`${field}.`))
    .map(([path, message]) => (path === field ? message : `${describe(path.slice(field.length + 1))}: ${message}`));
  return messages.length > 0 ? messages.join('; ') : undefined;
}

/**
 * The messages for a field and everything under it as the server wrote them, for messages that
 * name their own place ("The filter cannot be applied at filter.total.$gt: …"), where
 * `fieldError`'s prefix would name it twice.
 */
export function placedError(problem: Pick<ApiProblem, 'fields'> | null | undefined, field: string): string | undefined {
  if (!problem) return undefined;
  const messages = Object.entries(problem.fields)
    .filter(([path]) => path === field || path.startsWith(`${field}.`))
    .map(([, message]) => message);
  return messages.length > 0 ? [...new Set(messages)].join('; ') : undefined;
}

/**
 * A refusal that names the one place of its fault (`path`, dotted: `filter.total.$gt` of an
 * invalid_filter) has its message there, so the form shows it at that field; the message names
 * the place itself (see `placedError`).
 */
function atPlace(fields: Record<string, string>, path: unknown, message: string): void {
  if (typeof path === 'string' && path !== '' && !(path in fields)) fields[path] = message;
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
