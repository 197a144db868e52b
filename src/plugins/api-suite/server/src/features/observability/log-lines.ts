import { redactSecrets } from '../../http/redact';

/** Winston's key for the finished line (`Symbol.for('message')`, the `triple-beam` convention every transport reads). */
const LINE = Symbol.for('message');

type Info = Record<string | symbol, unknown>;

interface LogFormat {
  transform(info: Info, options?: unknown): Info | boolean;
  options?: unknown;
}

export interface LogLineOptions {
  /** One JSON object a line instead of the logger's own format. */
  json: boolean;
  /** The id of the request being served, if any. */
  requestId(): string | undefined;
}

/**
 * Shape every line of Strapi's logger (the one logger: no second one is made): API keys
 * redacted, the request's id added, and, with `json`, the line written as one JSON object
 * (`{ timestamp, level, message, request_id, … }`) instead of Strapi's pretty format.
 */
export function shapeLogLines(logger: { format?: LogFormat }, options: LogLineOptions): void {
  const own = logger.format;
  logger.format = {
    transform(info) {
      const id = options.requestId();
      if (info.message instanceof Error) {
        const error = info.message;
        info.message = error.message;
        if (error.stack && info.stack === undefined) info.stack = error.stack;
      }
      if (typeof info.message === 'string') info.message = redactSecrets(info.message);
      if (typeof info.stack === 'string') info.stack = redactSecrets(info.stack);
      if (options.json) {
        info[LINE] = JSON.stringify(jsonLine(info, id));
        return info;
      }
      if (id !== undefined && typeof info.message === 'string') info.message = `${info.message} [request ${id}]`;
      return own ? own.transform(info, own.options) : info;
    },
  };
}

function jsonLine(info: Info, requestId: string | undefined): Record<string, unknown> {
  const line: Record<string, unknown> = { timestamp: new Date().toISOString(), level: info.level, message: info.message };
  if (requestId !== undefined) line.request_id = requestId;
  for (const [key, value] of Object.entries(info)) {
    if (key !== 'level' && key !== 'message' && key !== 'timestamp' && value !== undefined) line[key] = value;
  }
  return line;
}
