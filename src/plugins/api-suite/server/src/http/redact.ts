/**
 * API keys out of log lines: a client that sends its key as `?api_key=` puts it in the URL, which
 * the request log writes. Pure, so it is tested alone; every log line goes through it
 * (`features/observability/log-lines.ts`).
 */
const API_KEY = /sk_[A-Za-z0-9]{48}/g;
const API_KEY_PARAMETER = /([?&]api_key=)[^&#\s]*/gi;

/** Keeps a key's first 8 characters (its `key_prefix`, which is no secret) and drops the rest. */
export function redactSecrets(text: string): string {
  return text
    .replace(API_KEY_PARAMETER, (_match, name: string) => `${name}[redacted]`)
    .replace(API_KEY, (key) => `${key.slice(0, 8)}[redacted]`);
}
