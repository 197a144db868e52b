import type { Context } from 'koa';
import { ALL_CONSUMERS } from '../constants';
import type { AccessState, Principal } from './principal';
import { AdministratorsOnlyError, ApiKeyRequiredError, ConsumerRequiredError, SessionRequiredError } from './errors';

/**
 * A principal that acts for a consumer: a user, with the consumer id their resources (webhook
 * subscriptions, scrapers, keys) are filed under. Every users-permissions user has one from the
 * moment they exist (access feature), so only the shared key lacks them.
 */
export type Consumer = Principal & { userId: number; consumerId: string };

function actsForConsumer(principal: Principal): principal is Consumer {
  return principal.userId !== null && principal.consumerId !== null;
}

/** The consumer behind the request; the shared key has none, so routes that own resources refuse it. */
export function consumerOf(ctx: Context): Consumer {
  const state = ctx.state.apiSuite as AccessState | undefined;
  const principal = state?.principal;
  if (!principal) throw new ApiKeyRequiredError();
  if (!actsForConsumer(principal)) throw new ConsumerRequiredError();
  return principal;
}

/** A route's `before` check (http/input.ts): it acts for a consumer. */
export const requireConsumer = (ctx: Context): void => void consumerOf(ctx);

/** A route's `before` check: only administrators may call it, refused with `message`. */
export const administratorsOnly =
  (message: string) =>
  (ctx: Context): void => {
    if (!consumerOf(ctx).isAdmin) throw new AdministratorsOnlyError(message);
  };

/**
 * A route's `before` check: it acts for the consumer's own sign-in (a users-permissions JWT), not
 * a program's key or OAuth token: what reads everything held about a person or closes their account.
 */
export const requireSession = (ctx: Context): void => {
  if (consumerOf(ctx).kind !== 'user') throw new SessionRequiredError();
};

/** Whose resources a request may reach: a consumer's own (an administrator's, every one), or every one for the admin panel. */
export type Viewer = Pick<Consumer, 'consumerId' | 'isAdmin'> | typeof ALL_CONSUMERS;

/** Whether `viewer` may reach a resource filed under `ownerConsumerId`; one it may not is answered as one that does not exist. */
export function reaches(viewer: Viewer, ownerConsumerId: string | null): boolean {
  return viewer === ALL_CONSUMERS || viewer.isAdmin || ownerConsumerId === viewer.consumerId;
}
