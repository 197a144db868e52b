import { isReservedHeader } from './reserved-headers';
import { z } from 'zod';

/** The zod pieces several features' validation shares: ids, paging, partial updates, http(s) URLs, extra request headers. */

/** Ids are 32-bit integers in the database; a larger one can name nothing (and PostgreSQL would refuse it). */
export const MAX_ID = 2_147_483_647;
/** A row's id in a JSON body. */
export const rowId = z.number().int().positive().max(MAX_ID);
/** A row's id in a path or query string: text there, so coerced. */
export const rowIdParam = z.coerce.number().int().positive().max(MAX_ID);

/** `page` and `limit` of every paged list (API and admin routes): 1 or more, and 1 to 100 (default 20). */
export const pageNumber = z.coerce.number().int().min(1, 'must be 1 or more').default(1);
export const pageLimit = z.coerce.number().int().min(1, 'must be between 1 and 100').max(100, 'must be between 1 and 100').default(20);
/** The query of a list that takes nothing but paging. */
export const pageQuery = z.object({ page: pageNumber, limit: pageLimit });

/** A partial update must name a field: an empty body is a caller's mistake, not a no-op. */
export function requireAChange<T extends z.ZodType<object>>(body: T): T {
  return body.refine((value: object) => Object.keys(value).length > 0, 'must change at least one field');
}

/** An absolute http(s) URL of at most 2,048 characters (webhook endpoints, scraper start URLs). */
export const httpUrl = z
  .string()
  .trim()
  .max(2048, 'must be at most 2048 characters')
  .refine((value) => {
    try {
      const url = new URL(value);
      return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
    } catch {
      return false;
    }
  }, 'must be an absolute http(s) URL')
  .meta({ format: 'uri', maxLength: 2048 });

export const MAX_HEADERS = 20;
// RFC 9110 token characters; values without control characters (no header injection).
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/;
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]{0,1000}$/;

/** Extra request headers: an object of at most 20 HTTP-token names to single-line string values. */
export const extraHeaders = z
  .custom<Record<string, unknown>>(
    (value) => typeof value === 'object' && value !== null && !Array.isArray(value),
    'must be an object of header names to string values'
  )
  .refine((value) => Object.keys(value).length <= MAX_HEADERS, `must hold at most ${MAX_HEADERS} headers`)
  .pipe(
    z.record(
      z.string().regex(HEADER_NAME, 'header names must be HTTP tokens of at most 100 characters'),
      z.string().regex(HEADER_VALUE, 'header values must be strings of at most 1000 characters without line breaks')
    )
  )
  .meta({
    type: 'object',
    maxProperties: MAX_HEADERS,
    propertyNames: { pattern: HEADER_NAME.source },
    additionalProperties: { type: 'string', maxLength: 1000 },
  });

/** Extra headers of an outgoing request (webhook deliveries, scraper runs): none that describes the exchange itself. */
export const outboundHeaders = extraHeaders.refine((value) => Object.keys(value).every((name) => !isReservedHeader(name)), {
  message: 'must not set content-type, the webhook-* signature headers, x-webhook-event or hop-by-hop headers (`_` counts as `-`)',
});
