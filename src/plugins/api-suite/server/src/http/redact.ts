/**
 * API keys out of everything the server writes about a request: log lines
 * (`features/observability/log-lines.ts`) and trace spans (`features/observability/tracing/redaction.ts`)
 * both go through this one function. A client that sends its key as `?api_key=` (or as an OAuth
 * `client_secret=`) puts it in the URL, which the request log writes and the HTTP
 * instrumentation records as `url.query`; a key pasted into a path ends up in `url.path`. Pure,
 * so it is tested alone.
 */
const API_KEY = /sk_[A-Za-z0-9]{48}/g;
/** A parameter that holds a key, at the start of a query string or after `?`, `&` or a space. */
const SECRET_PARAMETER = /(^|[?&\s])((?:api_key|client_secret)=)[^&#\s]*/gi;

/**
 * Keeps a key's first 8 characters (its `key_prefix`, which is no secret) and drops the rest;
 * the value of an `api_key=` or `client_secret=` parameter goes whole, whatever its shape.
 */
export function redactSecrets(text: string): string {
  return text
    .replace(SECRET_PARAMETER, (_match, before: string, name: string) => `${before}${name}[redacted]`)
    .replace(API_KEY, (key) => `${key.slice(0, 8)}[redacted]`);
}
