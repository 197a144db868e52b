import type { Core } from '@strapi/strapi';
import { UIDS } from '../../../constants';
import { dialectOf, rowsOf, tableOf, toBool } from '../../../db';
import { getConfig, getService } from '../../../utils';
import { greeting, recipientOf, sendMail } from '../../../mail';
import type { SubscriptionHealthEventData } from '../events/catalog';
import type { SubscriptionRow } from '../subscriptions/rows';
import { DELIVERY_QUEUE, jobIdOf } from './jobs';
import type { Recorder } from './recorder';

/** Consecutive failed attempts that disable a subscription. */
export const DISABLE_AFTER_FAILURES = 100;

/**
 * The failure policy: every failed attempt counts on its subscription. At `WEBHOOK_FAILING_AFTER`
 * (20) in a row its owner is warned; the 100th disables it, cancels its pending deliveries and
 * tells its owner. Each happens exactly once a streak across every instance: the count is one
 * statement, so exactly one attempt sees each number (docs/webhooks.md#endpoint-health).
 */
export function createFailurePolicy(strapi: Core.Strapi, recorder: Recorder) {
  const knex = () => strapi.db.connection;
  const deliveries = () => tableOf(strapi, UIDS.webhookDelivery);
  const subscriptions = () => getService(strapi, 'webhook-subscriptions');
  const jobs = () => getService(strapi, 'platform').jobs();

  /**
   * The count's statement, answering the row as it left it; undefined when the subscription was
   * inactive. failure_count is assigned last: MySQL evaluates a SET's assignments in order, each
   * seeing the ones before it, where PostgreSQL and SQLite see the old row throughout. MySQL has no
   * RETURNING: the row is read back in the statement's transaction, which holds its lock meanwhile,
   * so the read is of this statement's outcome and another caller's waits for the commit.
   */
  const countInDatabase = async (subscriptionId: number): Promise<{ failure_count: number; is_active: unknown } | undefined> => {
    const table = tableOf(strapi, UIDS.webhookSubscription);
    const statement = `UPDATE ?? SET
         is_active = CASE WHEN failure_count + 1 >= ? THEN ? ELSE is_active END,
         disabled_at = CASE WHEN failure_count + 1 >= ? THEN ? ELSE disabled_at END,
         failure_count = failure_count + 1
       WHERE id = ? AND is_active = ?`;
    const bindings = [table, DISABLE_AFTER_FAILURES, false, DISABLE_AFTER_FAILURES, new Date(), subscriptionId, true];
    if (dialectOf(strapi) !== 'mysql') {
      const result = await knex().raw(`${statement} RETURNING failure_count, is_active`, bindings);
      return rowsOf<{ failure_count: number; is_active: unknown }>(result)[0];
    }
    return knex().transaction(async (trx) => {
      const [header] = (await trx.raw(statement, bindings)) as unknown as [{ affectedRows: number }];
      if (header.affectedRows === 0) return undefined;
      return (await trx(table).select('failure_count', 'is_active').where({ id: subscriptionId }).first()) as
        { failure_count: number; is_active: unknown } | undefined;
    });
  };

  const policy = {
    /**
     * failure_count + 1, and at the 100th the subscription is disabled in the same statement, so
     * exactly one caller (on any instance) sees the transition and notifies the owner. Successes
     * buffered before this failure are written first, or their reset would land after it.
     * `active` is false when the subscription was already inactive: the attempt is not counted.
     */
    async countFailure(subscriptionId: number, lastError: string): Promise<{ active: boolean; failureCount: number }> {
      if (recorder.hasSuccess(subscriptionId)) await recorder.flush();
      const row = await countInDatabase(subscriptionId);
      if (!row) return { active: false, failureCount: 0 };
      const failureCount = Number(row.failure_count);
      if (toBool(row.is_active)) {
        // A success resets the count, so a new streak is warned about again; 21, 22 … of this one are not.
        if (failureCount === getConfig(strapi).webhooks.failingAfter)
          policy.warn('subscription.failing', subscriptionId, failureCount, lastError);
        return { active: true, failureCount };
      }
      await policy.onDisabled(subscriptionId);
      policy.warn('subscription.disabled', subscriptionId, failureCount, lastError);
      return { active: false, failureCount };
    },

    /**
     * Tell the owner's other subscriptions (`subscription.failing` or `.disabled`) and, for a
     * failing one, e-mail the owner (the disabled one's e-mail is `notifyDisabled`'s). In the
     * background: the attempt that crossed the line is settled meanwhile, and shutting down waits for it.
     */
    warn(type: 'subscription.failing' | 'subscription.disabled', subscriptionId: number, failureCount: number, lastError: string): void {
      const work = (async () => {
        const row = await subscriptions().getById(subscriptionId);
        if (!row) return;
        const data: SubscriptionHealthEventData = {
          subscription_id: row.uuid,
          endpoint_url: row.endpoint_url,
          failure_count: failureCount,
          last_error: lastError,
        };
        const results = await Promise.allSettled([
          getService(strapi, 'webhooks').publish(type, data, { consumerId: row.consumer_id, exceptSubscription: subscriptionId }),
          type === 'subscription.failing' ? policy.notifyFailing(row, data) : Promise.resolve(),
        ]);
        for (const result of results) {
          if (result.status === 'rejected')
            strapi.log.error(
              `[api-suite] webhooks: could not tell the owner of ${row.uuid} (${type}): ${(result.reason as Error).message}`
            );
        }
      })();
      getService(strapi, 'webhooks').track(
        work.catch((error: Error) =>
          strapi.log.error(`[api-suite] webhooks: ${type} not sent for subscription ${subscriptionId}: ${error.message}`)
        )
      );
    },

    async notifyFailing(row: SubscriptionRow, data: SubscriptionHealthEventData): Promise<void> {
      strapi.log.warn(`[api-suite] webhooks: subscription ${row.uuid} has failed ${data.failure_count} deliveries in a row`);
      const owner = await recipientOf(strapi, { consumerId: row.consumer_id });
      if (!owner) return;
      const sent = await sendMail(strapi, {
        to: owner.email,
        subject: 'Your webhook endpoint is failing',
        lines: [
          greeting(owner),
          '',
          `Your webhook subscription ${row.uuid} to ${row.endpoint_url} has failed ${data.failure_count} deliveries in a row.`,
          `The last attempt got: ${data.last_error}.`,
          '',
          `Failed deliveries are retried on their schedule. If the endpoint keeps failing, the subscription is disabled at ${DISABLE_AFTER_FAILURES} failures in a row.`,
          'One successful delivery resets the count.',
        ],
      });
      if (!sent) strapi.log.warn('[api-suite] webhooks: the email plugin is not installed; the owner was not notified');
    },

    /** Stop the subscription's pending work and tell its owner, once. */
    async onDisabled(subscriptionId: number): Promise<void> {
      await subscriptions().forget(subscriptionId);
      await recorder.flush();
      const pending = (await knex()(deliveries())
        .select('uuid', 'attempts')
        .where({ subscription_id: subscriptionId })
        .whereIn('status', ['pending', 'retrying'])) as Array<{ uuid: string; attempts: number | null }>;
      await knex()(deliveries())
        .where({ subscription_id: subscriptionId })
        .whereIn('status', ['pending', 'retrying'])
        .update({ status: 'cancelled', next_attempt_at: null, updated_at: new Date() });
      // Jobs that slip through find the subscription inactive and stop there.
      await Promise.allSettled(pending.map((row) => jobs().cancel(DELIVERY_QUEUE, jobIdOf(row.uuid, (row.attempts ?? 0) + 1))));
      await policy
        .notifyDisabled(subscriptionId)
        .catch((error: Error) =>
          strapi.log.error(`[api-suite] webhooks: could not e-mail the owner of a disabled subscription: ${error.message}`)
        );
    },

    async notifyDisabled(subscriptionId: number): Promise<void> {
      const row = await subscriptions().getById(subscriptionId);
      if (!row) return;
      strapi.log.warn(
        `[api-suite] webhooks: subscription ${row.uuid} disabled after ${DISABLE_AFTER_FAILURES} consecutive failed deliveries`
      );
      const owner = await recipientOf(strapi, { consumerId: row.consumer_id });
      if (!owner) return;
      const lines = [
        greeting(owner),
        '',
        `Your webhook subscription ${row.uuid} to ${row.endpoint_url} was disabled after ${DISABLE_AFTER_FAILURES} consecutive failed deliveries.`,
        'No further events are sent to it, and its pending retries were cancelled.',
        '',
        'Once the endpoint answers with a 2xx status again, re-enable it with:',
        `  PATCH /api/webhooks/subscriptions/${row.uuid}  { "is_active": true }`,
      ];
      const sent = await sendMail(strapi, { to: owner.email, subject: 'Your webhook subscription was disabled', lines });
      if (!sent) strapi.log.warn('[api-suite] webhooks: the email plugin is not installed; the owner was not notified');
    },
  };
  return policy;
}
