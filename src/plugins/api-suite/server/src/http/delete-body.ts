import type { Context } from 'koa';
import { BodyTooLargeError, MalformedBodyError } from './errors';

/** The most a DELETE's body may hold: such a body confirms something (a password), it never carries content. */
const LIMIT_BYTES = 16 * 1024;

/**
 * The JSON body of a DELETE, which Strapi's body parser leaves unread (it parses POST, PUT and
 * PATCH bodies only): read for the routes whose input names a body (`validate` in input.ts), so a
 * DELETE that asks for a confirmation (closing an account asks for the password) is checked like
 * any other body. The input guard has already refused a body that is not JSON (415); a site whose
 * parser reads DELETE bodies itself has consumed the request already and is left to it.
 */
export async function readDeleteBody(ctx: Context): Promise<void> {
  const request = ctx.request as Context['request'] & { body?: unknown };
  // koa-body leaves `{}` as the body of a method it does not parse; a parser that did read it has ended the stream.
  if (ctx.method !== 'DELETE' || ctx.req.readableEnded) return;
  const length = Number(ctx.get('content-length') || 0);
  if (length === 0 && ctx.get('transfer-encoding') === '') return;
  const tooLarge = () => new BodyTooLargeError();
  if (length > LIMIT_BYTES) throw tooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > LIMIT_BYTES) throw tooLarge();
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') return;
  try {
    request.body = JSON.parse(text) as unknown;
  } catch {
    throw new MalformedBodyError();
  }
}
