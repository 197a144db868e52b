import type { Core } from '@strapi/strapi';
import type { Context } from 'koa';

/**
 * The `/api/v1` error family's refusal for the host's routes, taken from the api-suite plugin:
 * thrown by a handler whose route names `plugin::api-suite.nested-errors`, it is answered as
 * `{ error: { code, message, details? } }` by the plugin's formatter (zod errors become a 400
 * naming every field).
 */
export interface V1Http {
  ApiError: new (status: number, code: string, message: string, details?: unknown) => Error;
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
