import type { Core } from '@strapi/strapi';
import { UIDS } from '../../../constants';
import { rowsOf, tableOf, toBool } from '../../../db';
import { getService } from '../../../utils';
import { DELIVERY_QUEUE, jobIdOf } from './jobs';
import type { Recorder } from './recorder';

/** Consecutive failed attempts that disable a subscription. */
export const DISABLE_AFTER_FAILURES = 100;

/**
 * The failure policy: every failed attempt counts on its subscription; the 100th in a row
 * disables it, cancels its pending deliveries and e-mails its owner, exactly once across every
 * instance (the count and the switch-off are one statement).
 */
export function createFailurePolicy(strapi: Core.Strapi, recorder: Recorder) {
  const knex = () => strapi.db.connection;
  const deliveries = () => tableOf(strapi, UIDS.webhookDelivery);
  const subscriptions = () => getService(strapi, 'webhook-subscriptions');
  const jobs = () => getService(strapi, 'platform').jobs();

  const policy = {
    /**
     * failure_count + 1, and at the 100th the subscription is disabled in the same statement, so
     * exactly one caller (on any instance) sees the transition and notifies the owner. Successes
     * buffered before this failure are written first, or their reset would land after it.
     * `active` is false when the subscription was already inactive: the attempt is not counted.
     */
    async countFailure(subscriptionId: number): Promise<{ active: boolean; failureCount: number }> {
      if (recorder.hasSuccess(subscriptionId)) await recorder.flush();
      const result = await knex().raw(
        `UPDATE ?? SET failure_count = failure_count + 1,
           is_active = CASE WHEN failure_count + 1 >= ? THEN ? ELSE is_active END,
           disabled_at = CASE WHEN failure_count + 1 >= ? THEN ? ELSE disabled_at END
         WHERE id = ? AND is_active = ?
         RETURNING failure_count, is_active`,
        [tableOf(strapi, UIDS.webhookSubscription), DISABLE_AFTER_FAILURES, false, DISABLE_AFTER_FAILURES, new Date(), subscriptionId, true]
      );
      const row = rowsOf<{ failure_count: number; is_active: unknown }>(result)[0];
      if (!row) return { active: false, failureCount: 0 };
      const failureCount = Number(row.failure_count);
      if (toBool(row.is_active)) return { active: true, failureCount };
      await policy.onDisabled(subscriptionId);
      return { active: false, failureCount };
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
      const owner = (await strapi.db
        .query(UIDS.user)
        .findOne({ where: { consumer_id: row.consumer_id }, select: ['email', 'username'] })) as {
        email?: string;
        username?: string;
      } | null;
      if (!owner?.email) return;
      const email = strapi.plugin('email')?.service('email') as { send(options: Record<string, unknown>): Promise<unknown> } | undefined;
      if (!email) {
        strapi.log.warn('[api-suite] webhooks: the email plugin is not installed; the owner was not notified');
        return;
      }
      const lines = [
        `Hello ${owner.username ?? ''},`.trim(),
        '',
        `Your webhook subscription ${row.uuid} to ${row.endpoint_url} was disabled after ${DISABLE_AFTER_FAILURES} consecutive failed deliveries.`,
        'No further events are sent to it, and its pending retries were cancelled.',
        '',
        'Once the endpoint answers with a 2xx status again, re-enable it with:',
        `  PATCH /api/webhooks/subscriptions/${row.uuid}  { "is_active": true }`,
      ];
      await email.send({ to: owner.email, subject: 'Your webhook subscription was disabled', text: lines.join('\n') });
    },
  };
  return policy;
}
