import type { Context } from 'koa';
import { ApiError } from './errors';
import type { AccessState, Principal } from './principal';

/** The consumer behind the request; the shared key has none, so routes that own resources refuse it. */
export function consumerOf(ctx: Context): Principal & { userId: number } {
  const state = ctx.state.apiSuite as AccessState | undefined;
  const principal = state?.principal;
  if (!principal) throw new ApiError(401, 'api_key_required', 'An API key is required');
  if (principal.userId === null)
    throw new ApiError(
      403,
      'consumer_required',
      'This route acts for a consumer: use an API key, an OAuth token or a user JWT, not the shared key'
    );
  return principal as Principal & { userId: number };
}
