import { isFetchError } from '@strapi/strapi/admin';

/** A failed call as the pages show it: the server's message, and its messages per field. */
export interface ServerProblem {
  message: string;
  status: number | null;
  code: string | null;
  /** Field name (dotted path) → the server's message about it. */
  fields: Record<string, string>;
}

interface ErrorBody {
  status?: number;
  name?: string;
  message?: string;
  details?: { errors?: Array<{ path?: Array<string | number>; message?: string }> };
}

/**
 * Read the admin routes' error body (`{ error: { status, name, message, details.errors } }`) out
 * of whatever the fetch client threw, so no server message is swallowed.
 */
export function toProblem(error: unknown, fallback: string): ServerProblem {
  if (isFetchError(error)) {
    const body = (error.response?.data as { error?: ErrorBody } | undefined)?.error;
    const fields: Record<string, string> = {};
    for (const item of body?.details?.errors ?? []) {
      const path = (item.path ?? []).join('.');
      if (item.message && !(path in fields)) fields[path] = item.message;
    }
    return {
      message: body?.message || error.message || fallback,
      status: body?.status ?? error.status ?? null,
      code: body?.name ?? null,
      fields,
    };
  }
  return { message: error instanceof Error && error.message ? error.message : fallback, status: null, code: null, fields: {} };
}

/**
 * The message for a field and everything under it (`selectors` covers `selectors.fields.title`);
 * `describe` names a part below the field (an index of a list becomes its line, say).
 */
export function fieldError(
  problem: ServerProblem | null,
  field: string,
  describe: (subPath: string) => string = (subPath) => subPath
): string | undefined {
  if (!problem) return undefined;
  const messages = Object.entries(problem.fields)
    .filter(([path]) => path === field || path.startsWith(`${field}.`))
    .map(([path, message]) => (path === field ? message : `${describe(path.slice(field.length + 1))}: ${message}`));
  return messages.length > 0 ? messages.join('; ') : undefined;
}
