import type { Core } from '@strapi/strapi';
import type { Context } from 'koa';

/**
 * The `/api/v1` error family for the host's routes, taken from the api-suite plugin so both
 * answer `{ error: { code, message, details? } }` through one formatter (zod errors become a
 * 400 naming every field).
 */
export interface V1Http {
  ApiError: new (status: number, code: string, message: string, details?: unknown) => Error;
  respondNestedError(ctx: Context, handler: () => Promise<void>): Promise<void>;
}

export function v1Http(strapi: Core.Strapi): V1Http {
  return strapi.plugin('api-suite').service('http') as V1Http;
}

/** The caller as the api-suite access middleware identified it. */
export interface Caller {
  kind: 'key' | 'oauth' | 'user' | 'shared';
  userId: number | null;
  isAdmin: boolean;
  scopes: Array<'read' | 'write'>;
}

export function callerOf(strapi: Core.Strapi, ctx: Context): Caller {
  const principal = (ctx.state.apiSuite as { principal?: Caller | null } | undefined)?.principal;
  if (!principal) {
    const { ApiError } = v1Http(strapi);
    throw new ApiError(
      401,
      'api_key_required',
      'An API key is required: send it as X-API-Key, as a Bearer token or as the api_key parameter'
    );
  }
  return principal;
}
