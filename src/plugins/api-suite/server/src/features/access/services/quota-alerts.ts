import type { Core } from '@strapi/strapi';
import { UIDS } from '../../../constants';
import { dialectOf, insertNew, tableOf } from '../../../db';
import { getConfig, getService } from '../../../utils';
import { greeting, recipientOf, sendMail } from '../../../mail';
import { monthWindow, UNLIMITED, type QuotaWindow } from '../quota';
import { reachedThresholds, type QuotaThreshold } from '../../../../../shared/quota-thresholds';
import type { QuotaThresholdEventData } from '../event-types';

/** Whose pool a counted request drew on, as the access check knows it. */
export interface QuotaSubject {
  pool: string;
  userId: number;
  consumerId: string;
  plan: { id: number; name: string };
  /** The key with limits of its own whose pool this is (the key the request used); null for the consumer's pool on their plan. */
  keyId: number | null;
  /** Past the quota, requests are served and billed as overage rather than refused. */
  overage: boolean;
}

/**
 * Quota alerts (docs/billing.md#quota-alerts): the first time in a month that a pool reaches 80 %
 * and 100 % of its monthly quota, its consumer gets an e-mail and `quota.threshold` on their own
 * webhook subscriptions, once per threshold across every instance.
 *
 * The access check hands every counted decision to `observe`, which costs two comparisons until a
 * threshold is reached. Reaching one claims it with an insert into a table whose unique index is
 * (pool, month, threshold, quota): the instance whose insert lands sends the alert, any other finds
 * the row and sends nothing. Each instance remembers what it has claimed or found claimed this
 * month, so the database is asked once per pool and threshold per instance, never per request.
 */
const quotaAlertsService = ({ strapi }: { strapi: Core.Strapi }) => {
  const table = () => tableOf(strapi, UIDS.quotaAlert);
  /** The month `known` is for (YYYYMM), and `<pool>|<quota>|<percent>` claimed here or found claimed elsewhere. */
  let month = '';
  let known = new Set<string>();
  /** The month whose older rows were last deleted, so each instance does it once a month. */
  let prunedFor = '';

  const service = {
    /**
     * A counted request's month as the counter left it (allowed or refused), and whose pool it is
     * (asked for only past a threshold). Synchronous: it never holds the request up, and does
     * nothing more than compare numbers until a threshold is first seen in this pool this month.
     */
    observe(pool: string, window: QuotaWindow, subjectOf: () => QuotaSubject): void {
      if (window.limit === UNLIMITED) return;
      const reached = reachedThresholds(window.used, window.limit);
      if (reached.length === 0) return;
      const periodStart = window.resetAt - window.windowSeconds;
      const period = monthWindow(new Date(periodStart * 1000)).id;
      if (period !== month) {
        month = period;
        known = new Set();
      }
      const fresh = reached.filter((percent) => !known.has(memoKey(pool, window.limit, percent)));
      if (fresh.length === 0) return;
      for (const percent of fresh) known.add(memoKey(pool, window.limit, percent));
      const work = service.claimAndAlert(subjectOf(), window, period, fresh).catch((error: Error) => {
        // Not claimed: a later request tries again.
        for (const percent of fresh) known.delete(memoKey(pool, window.limit, percent));
        strapi.log.error(`[api-suite] access: quota alert for ${pool} not sent: ${error.message}`);
      });
      // Shutting down waits for it, as for any publish under way.
      getService(strapi, 'webhooks').track(work);
    },

    /**
     * Claim the thresholds reached and alert for the highest one claimed here: a pool that jumps
     * past both at once (a quota cut mid-month, a quota of 1) gets the 100 % alert only, and the
     * 80 % one is claimed with it so it does not follow later.
     */
    async claimAndAlert(subject: QuotaSubject, window: QuotaWindow, period: string, percents: QuotaThreshold[]): Promise<void> {
      const knex = strapi.db.connection;
      if (prunedFor !== period) {
        prunedFor = period;
        // This month's rows and last month's are kept; older ones are no claim on anything.
        await knex(table()).where('period', '<', previousMonthId(period)).delete();
      }
      const now = new Date();
      const claimed = await insertNew(
        knex,
        dialectOf(strapi),
        table(),
        percents.map((percent) => ({
          pool: subject.pool,
          period,
          percent,
          quota: window.limit,
          used: window.used,
          user_id: subject.userId,
          plan_id: subject.plan.id,
          created_at: now,
        })),
        ['pool', 'period', 'percent', 'quota']
      );
      const inserted = percents.filter((_, index) => claimed[index]);
      if (inserted.length === 0) return;
      const percent = Math.max(...inserted) as QuotaThreshold;
      const data: QuotaThresholdEventData = {
        plan_id: subject.plan.id,
        plan: subject.plan.name,
        used: window.used,
        quota: window.limit,
        percent,
        period_start: new Date((window.resetAt - window.windowSeconds) * 1000).toISOString(),
      };
      const results = await Promise.allSettled([
        getService(strapi, 'webhooks').publish('quota.threshold', data, { consumerId: subject.consumerId }),
        service.notify(subject, data, window.resetAt),
      ]);
      for (const result of results) {
        if (result.status === 'rejected')
          strapi.log.error(
            `[api-suite] access: quota alert for ${subject.pool} (${percent} %) partly failed: ${(result.reason as Error).message}`
          );
      }
    },

    async notify(subject: QuotaSubject, data: QuotaThresholdEventData, resetAt: number): Promise<void> {
      const recipient = await recipientOf(strapi, { id: subject.userId });
      if (!recipient) return;
      const whose =
        subject.keyId === null ? `Your requests on the ${data.plan} plan` : `Requests with your key ${await keyLabel(subject.keyId)}`;
      const resets = new Date(resetAt * 1000).toISOString().slice(0, 10);
      const beyond = subject.overage
        ? 'Requests over the quota are served and billed as overage.'
        : `Requests over the quota are refused (429 monthly_quota_exceeded) until the quota renews on ${resets} (UTC).`;
      const lines = [
        greeting(recipient),
        '',
        `${whose} have reached ${formatCount(data.used)} of the ${formatCount(data.quota)} this month: ${data.percent} % of the monthly quota.`,
        beyond,
      ];
      const billing = billingPageUrl();
      if (billing) lines.push('', `A plan with a larger quota: ${billing}`);
      const title =
        data.percent === 100 ? 'You have used your monthly API quota' : `You have used ${data.percent} % of your monthly API quota`;
      const sent = await sendMail(strapi, { to: recipient.email, subject: title, lines });
      if (!sent)
        strapi.log.warn(`[api-suite] access: the email plugin is not installed; the quota alert for ${subject.pool} was not e-mailed`);
    },
  };

  /** "“CI job” (sk_Ab12…)", or the prefix alone for a key without a name. */
  const keyLabel = async (keyId: number): Promise<string> => {
    const row = (await strapi.db.connection(tableOf(strapi, UIDS.apiKey)).where({ id: keyId }).first('name', 'key_prefix')) as
      { name: string | null; key_prefix: string } | undefined;
    if (!row) return `#${keyId}`;
    return row.name ? `"${row.name}" (${row.key_prefix}…)` : `${row.key_prefix}…`;
  };

  /** The portal's Plans and billing page, where the site has a public URL and serves the portal. */
  const billingPageUrl = (): string | null => {
    const server = String(strapi.config.get('server.absoluteUrl') ?? '').replace(/\/+$/, '');
    const portal = getConfig(strapi).portal;
    if (!server.startsWith('http') || !portal.enabled) return null;
    return `${server}${portal.path}/billing`;
  };

  return service;
};

function memoKey(pool: string, quota: number, percent: QuotaThreshold): string {
  return `${pool}|${quota}|${percent}`;
}

/** "202611" → "202610"; "202601" → "202512". */
function previousMonthId(period: string): string {
  const year = Number(period.slice(0, 4));
  const month = Number(period.slice(4, 6));
  return monthWindow(new Date(Date.UTC(year, month - 2, 1))).id;
}

function formatCount(value: number): string {
  return value.toLocaleString('en-US');
}

export type QuotaAlertsService = ReturnType<typeof quotaAlertsService>;
export default quotaAlertsService;
