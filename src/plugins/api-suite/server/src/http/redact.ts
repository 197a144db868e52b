/**
 * API keys out of log lines: a client that sends its key as `?api_key=` puts it in the URL, which
 * the request log writes. Pure, so it is tested alone and applied to every line (see
 * `redactLogs`).
 */
const API_KEY = /sk_[A-Za-z0-9]{48}/g;
const API_KEY_PARAMETER = /([?&]api_key=)[^&#\s]*/gi;

/** Keeps a key's first 8 characters (its `key_prefix`, which is no secret) and drops the rest. */
export function redactSecrets(text: string): string {
  return text
    .replace(API_KEY_PARAMETER, (_match, name: string) => `${name}[redacted]`)
    .replace(API_KEY, (key) => `${key.slice(0, 8)}[redacted]`);
}

interface LogFormat {
  transform(info: Record<string | symbol, unknown>, options?: unknown): Record<string | symbol, unknown> | boolean;
  options?: unknown;
}

/**
 * Put `redactSecrets` in front of the logger's own format, so every line, Strapi's request log
 * included, is redacted before it is formatted and written.
 */
export function redactLogs(logger: { format?: LogFormat }): void {
  const own = logger.format;
  logger.format = {
    transform(info) {
      if (typeof info.message === 'string') info.message = redactSecrets(info.message);
      return own ? own.transform(info, own.options) : info;
    },
  };
}
