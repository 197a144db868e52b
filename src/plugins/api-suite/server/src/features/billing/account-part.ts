import type { Core } from '@strapi/strapi';
import { errors } from '@strapi/utils';
import Stripe from 'stripe';
import { UIDS } from '../../constants';
import { inCurrentTransaction, tableOf, toBool, toIso } from '../../db';
import { getService } from '../../utils';
import type { AccountPart, PreparedClosing } from '../accounts/types';
import { isLive } from './services/subscriptions';
import type { AccountBilling } from './validation/responses';
import { PaymentProviderError } from './errors';

/** Tries at cancelling a deleted user's Stripe subscription once the delete has committed, and the pause before the n-th retry (n × this). */
const CANCEL_ATTEMPTS = 3;
const CANCEL_RETRY_MS = 1_000;

/** A live Stripe subscription could not be read or cancelled: nothing of the account was deleted. */
export class StripeCancellationError extends errors.ApplicationError {
  constructor(readonly reason: string) {
    super('The user has a live Stripe subscription that could not be cancelled, so nothing was deleted: try again in a moment');
  }
}

/**
 * What billing keeps about a consumer (docs/accounts.md): exported as the customer and the
 * subscription last read from Stripe. On closing, a live Stripe subscription ends first: cancelled
 * before anything is deleted when the consumer closes their own account (Stripe refusing refuses
 * the closing, 502), and read before, cancelled after the delete when an administrator deletes
 * users. Billing's rows then stay (Stripe holds the invoices they name), no longer tied to the user.
 */
export function billingAccountPart(strapi: Core.Strapi): AccountPart {
  const knex = () => strapi.db.connection;

  const exported = async (consumerId: string | null): Promise<AccountBilling | null> => {
    if (!consumerId) return null;
    const [customer, subscription] = await Promise.all([
      knex()(tableOf(strapi, UIDS.billingCustomer)).where({ consumer_id: consumerId }).first('stripe_customer_id') as Promise<
        { stripe_customer_id: string | null } | undefined
      >,
      knex()(tableOf(strapi, UIDS.billingSubscription)).where({ consumer_id: consumerId }).first() as Promise<BillingRow | undefined>,
    ]);
    if (!customer && !subscription) return null;
    return {
      customer_id: customer?.stripe_customer_id ?? subscription?.stripe_customer_id ?? null,
      subscription: subscription
        ? {
            subscription_id: subscription.stripe_subscription_id,
            plan_id: subscription.plan_id ?? null,
            status: subscription.status,
            current_period_end: toIso(subscription.current_period_end),
            cancel_at_period_end: toBool(subscription.cancel_at_period_end),
            grace_until: toIso(subscription.grace_until),
          }
        : null,
    };
  };

  const closing = (userId: number, consumerId: string, subscriptionId: string | null): PreparedClosing => {
    /** Set once the subscription is cancelled in Stripe, or found already ended. */
    let ended = false;

    const end = async (): Promise<void> => {
      if (!subscriptionId) return;
      const stripe = getService(strapi, 'stripe');
      if (!stripe.configured()) {
        // The site stopped talking to Stripe: nothing here can cancel it, and the person must still be able to leave.
        strapi.log.error(
          `[api-suite] accounts: ${consumerId} is leaving with the live Stripe subscription ${subscriptionId}, which cannot be cancelled without STRIPE_SECRET_KEY: cancel it in the Stripe dashboard`
        );
        return;
      }
      try {
        const client = stripe.client();
        const current = await client.subscriptions.retrieve(subscriptionId);
        if (current.status !== 'canceled' && current.status !== 'incomplete_expired') {
          await client.subscriptions.cancel(subscriptionId, { cancellation_details: { comment: 'The customer deleted their account' } });
        }
        ended = true;
      } catch (error) {
        // Stripe no longer knows it: nothing is left to cancel.
        if (error instanceof Stripe.errors.StripeError && error.statusCode === 404) {
          ended = true;
          return;
        }
        const reason = error instanceof Error ? error.message : String(error);
        strapi.log.error(
          `[api-suite] accounts: the Stripe subscription ${subscriptionId} of ${consumerId} could not be cancelled: ${reason}`
        );
        throw new StripeCancellationError(reason);
      }
    };

    return {
      async endFirst() {
        try {
          await end();
        } catch (error) {
          if (!(error instanceof StripeCancellationError)) throw error;
          throw new PaymentProviderError('Stripe could not cancel your subscription, so nothing was deleted; try again in a moment');
        }
      },

      /**
       * Before an administrator's delete: the subscription is read, not cancelled, so that a delete
       * Stripe refuses (or a bulk delete one of whose users it refuses) changes nothing anywhere; the
       * cancellation follows once the delete has committed. A subscription Stripe no longer knows,
       * or that has ended, needs nothing more.
       */
      async check() {
        if (!subscriptionId || !getService(strapi, 'stripe').configured()) return;
        try {
          const current = await getService(strapi, 'stripe').client().subscriptions.retrieve(subscriptionId);
          if (current.status === 'canceled' || current.status === 'incomplete_expired') ended = true;
        } catch (error) {
          if (error instanceof Stripe.errors.StripeError && error.statusCode === 404) {
            ended = true;
            return;
          }
          const reason = error instanceof Error ? error.message : String(error);
          strapi.log.error(`[api-suite] accounts: the Stripe subscription ${subscriptionId} of ${consumerId} could not be read: ${reason}`);
          throw new StripeCancellationError(reason);
        }
      },

      /**
       * After an administrator's delete has committed: the subscription checked before is
       * cancelled, tried again a few times (Stripe answered a moment ago). Should it still fail,
       * the log names the subscription to cancel in the Stripe dashboard: the user is gone and
       * must not be charged.
       */
      async endAfterDelete() {
        if (!subscriptionId || ended) return;
        for (let attempt = 1; ; attempt += 1) {
          try {
            await end();
            return;
          } catch (error) {
            if (!(error instanceof StripeCancellationError) || attempt >= CANCEL_ATTEMPTS) {
              strapi.log.error(
                `[api-suite] accounts: the Stripe subscription ${subscriptionId} of ${consumerId} (user ${userId}, deleted by an administrator) is still live: cancel it in the Stripe dashboard`
              );
              return;
            }
            await new Promise((resolve) => setTimeout(resolve, CANCEL_RETRY_MS * attempt));
          }
        }
      },

      async carryOut() {
        const now = new Date();
        await knex()(tableOf(strapi, UIDS.billingCustomer)).where({ consumer_id: consumerId }).update({ user_id: null });
        await knex()(tableOf(strapi, UIDS.billingSubscription))
          .where({ consumer_id: consumerId })
          .update({
            user_id: null,
            updated_at: now,
            ...(ended ? { status: 'canceled', cancel_at_period_end: false, grace_until: null } : {}),
          });
      },

      confirmation: () => (ended ? 'Your paid subscription has been cancelled: you will not be charged again.' : null),
    };
  };

  return {
    name: 'billing',
    phase: 'records',
    async export({ consumerId }) {
      return { billing: await exported(consumerId) };
    },
    async prepareClosing({ userId, consumerId }) {
      if (!consumerId) return null;
      // Inside an administrator's deletion this reads what that transaction sees.
      const live = (await inCurrentTransaction(strapi, (connection) =>
        connection(tableOf(strapi, UIDS.billingSubscription)).where({ consumer_id: consumerId }).first('stripe_subscription_id', 'status')
      )) as { stripe_subscription_id: string | null; status: string | null } | undefined;
      return closing(userId, consumerId, live && isLive(live.status) ? live.stripe_subscription_id : null);
    },
  };
}

interface BillingRow {
  stripe_customer_id: string | null;
  stripe_subscription_id: string;
  plan_id: number | null;
  status: NonNullable<AccountBilling['subscription']>['status'];
  current_period_end: unknown;
  cancel_at_period_end: unknown;
  grace_until: unknown;
}
