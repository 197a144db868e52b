import type { Core } from '@strapi/strapi';
import { errors } from '@strapi/utils';
import Stripe from 'stripe';
import { getService } from '../../utils';

/** Tries at cancelling a deleted user's Stripe subscription once the delete has committed, and the pause before the n-th retry (n × this). */
const CANCEL_ATTEMPTS = 3;
const CANCEL_RETRY_MS = 1_000;

/**
 * One account being closed, read before anything changes. Keys and orders are found through the
 * user's relations, which go with the user row, so they are read first (inside the deleting
 * transaction when an administrator deletes the user); everything else is filed under the
 * consumer id, which stays on the rows.
 */
export interface ClosingAccount {
  userId: number;
  consumerId: string | null;
  email: string | null;
  username: string | null;
  keyIds: number[];
  orderIds: number[];
  /** The live Stripe subscription to cancel, if any. */
  stripeSubscriptionId: string | null;
  /** Set once that subscription is cancelled (or found already ended) in Stripe. */
  stripeEnded: boolean;
  /** Who closed it, for the confirmation e-mail. */
  by: 'consumer' | 'administrator';
}

/** A live Stripe subscription could not be cancelled: nothing of the account was deleted. */
export class StripeCancellationError extends errors.ApplicationError {
  constructor(readonly reason: string) {
    super('The user has a live Stripe subscription that could not be cancelled, so nothing was deleted: try again in a moment');
  }
}

/**
 * Ending a closing account's Stripe subscription (docs/accounts.md): cancelled before the delete
 * when the consumer closes their own account (Stripe refusing refuses the closing), checked
 * before and cancelled after the delete when an administrator deletes users.
 */
export function stripeEnding(strapi: Core.Strapi) {
  const endStripeSubscription = async (account: ClosingAccount): Promise<void> => {
    const id = account.stripeSubscriptionId;
    if (!id) return;
    const stripe = getService(strapi, 'stripe');
    if (!stripe.configured()) {
      // The site stopped talking to Stripe: nothing here can cancel it, and the person must still be able to leave.
      strapi.log.error(
        `[api-suite] accounts: ${account.consumerId} is leaving with the live Stripe subscription ${id}, which cannot be cancelled without STRIPE_SECRET_KEY: cancel it in the Stripe dashboard`
      );
      return;
    }
    try {
      const client = stripe.client();
      const current = await client.subscriptions.retrieve(id);
      if (current.status !== 'canceled' && current.status !== 'incomplete_expired') {
        await client.subscriptions.cancel(id, { cancellation_details: { comment: 'The customer deleted their account' } });
      }
      account.stripeEnded = true;
    } catch (error) {
      // Stripe no longer knows it: nothing is left to cancel.
      if (error instanceof Stripe.errors.StripeError && error.statusCode === 404) {
        account.stripeEnded = true;
        return;
      }
      const reason = error instanceof Error ? error.message : String(error);
      strapi.log.error(`[api-suite] accounts: the Stripe subscription ${id} of ${account.consumerId} could not be cancelled: ${reason}`);
      throw new StripeCancellationError(reason);
    }
  };

  /**
   * Before an administrator's delete: the subscription is read, not cancelled, so that a delete
   * Stripe refuses (or a bulk delete one of whose users it refuses) changes nothing anywhere; the
   * cancellation follows once the delete has committed (`cancelAfterDelete`). A subscription
   * Stripe no longer knows, or that has ended, needs nothing more.
   */
  const checkStripeSubscription = async (account: ClosingAccount): Promise<void> => {
    const id = account.stripeSubscriptionId;
    if (!id || !getService(strapi, 'stripe').configured()) return;
    try {
      const current = await getService(strapi, 'stripe').client().subscriptions.retrieve(id);
      if (current.status === 'canceled' || current.status === 'incomplete_expired') account.stripeEnded = true;
    } catch (error) {
      if (error instanceof Stripe.errors.StripeError && error.statusCode === 404) {
        account.stripeEnded = true;
        return;
      }
      const reason = error instanceof Error ? error.message : String(error);
      strapi.log.error(`[api-suite] accounts: the Stripe subscription ${id} of ${account.consumerId} could not be read: ${reason}`);
      throw new StripeCancellationError(reason);
    }
  };

  /**
   * After an administrator's delete has committed: the subscription checked before is cancelled,
   * tried again a few times (Stripe answered a moment ago). Should it still fail, the log names the
   * subscription to cancel in the Stripe dashboard: the user is gone and must not be charged.
   */
  const cancelAfterDelete = async (account: ClosingAccount): Promise<void> => {
    if (!account.stripeSubscriptionId || account.stripeEnded) return;
    for (let attempt = 1; ; attempt += 1) {
      try {
        await endStripeSubscription(account);
        return;
      } catch (error) {
        if (!(error instanceof StripeCancellationError) || attempt >= CANCEL_ATTEMPTS) {
          strapi.log.error(
            `[api-suite] accounts: the Stripe subscription ${account.stripeSubscriptionId} of ${account.consumerId} (user ${account.userId}, deleted by an administrator) is still live: cancel it in the Stripe dashboard`
          );
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, CANCEL_RETRY_MS * attempt));
      }
    }
  };

  return { endStripeSubscription, checkStripeSubscription, cancelAfterDelete };
}
