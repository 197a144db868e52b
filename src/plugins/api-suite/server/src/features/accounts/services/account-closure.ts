import type { Core } from '@strapi/strapi';
import type { Context, Next } from 'koa';
import { UIDS } from '../../../constants';
import { dialectOf, tableOf, type Knex } from '../../../db';
import { ApiError } from '../../../http/errors';
import { InvalidError, UnauthenticatedError } from '../../../errors';
import { getConfig, getService } from '../../../utils';
import { isLive } from '../../billing/services/subscriptions';
import { createPasswordAttempts, sharedPasswordAttempts } from '../password-attempts';
import { stripeEnding, StripeCancellationError, type ClosingAccount } from '../stripe-ending';

export { StripeCancellationError, type ClosingAccount };

/** Wrong passwords allowed per user within the window before the next is refused with 429. */
const PASSWORD_ATTEMPTS = { limit: 5, windowMs: 15 * 60_000 };
/**
 * Usage records are written in batches off the request path, every second on each instance:
 * records of the leaving consumer still buffered elsewhere are detached by a second pass this
 * much later.
 */
const LATE_RECORDS_MS = 5_000;
/**
 * A request on another instance that read a key just before it was deleted may cache it just
 * after the deletion was announced; the keys are announced again this much later.
 */
const LATE_CACHE_MS = 500;
/** Usage records detached per statement, so a heavy consumer's millions never hold one long write. */
const DETACH_BATCH = 5_000;

/**
 * Closing an account (docs/accounts.md): the consumer's own `DELETE /api/v1/account`, and an
 * administrator deleting the user in the admin panel (the Content Manager, or the
 * users-permissions API), which a lifecycle on the user turns into the same closing.
 *
 * In order: a live Stripe subscription is cancelled first (if Stripe refuses, nothing changes);
 * the keys are deleted and every instance drops them from its cache (refused with 401 at once);
 * webhook subscriptions are deleted through the webhook engine's own path, so a send waiting for
 * its turn finds its subscription gone and is cancelled; scrapers are unscheduled, their running
 * run stopped on whichever instance runs it, and deleted with their runs and results; orders and
 * usage records stay for accounting under the opaque consumer id, without the user or the
 * shipping address; billing's rows lose the user too. Then the user goes, and an e-mail says so.
 */
const accountClosureService = ({ strapi }: { strapi: Core.Strapi }) => {
  const shared = sharedPasswordAttempts(
    () => getService(strapi, 'platform').redis(),
    getConfig(strapi).jobs.prefix,
    createPasswordAttempts(PASSWORD_ATTEMPTS),
    PASSWORD_ATTEMPTS
  );
  /** Users this process is closing by their own request: the user lifecycle leaves them to it. */
  const ownClosings = new Map<number, Promise<void>>();
  const timers = new Set<NodeJS.Timeout>();
  /** Closings started once an administrator's deleting transaction committed, still running. */
  const settling = new Set<Promise<void>>();
  const knex = () => strapi.db.connection;

  const later = (ms: number, what: string, work: () => Promise<unknown>) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      work().catch((error: Error) => strapi.log.error(`[api-suite] accounts: ${what} failed: ${error.message}`));
    }, ms);
    timer.unref();
    timers.add(timer);
  };

  /**
   * What closing `userId` acts on. Through the query engine and, for billing's table, the
   * current transaction: inside an administrator's deletion it reads what that transaction sees
   * (on SQLite a second connection would wait for it forever).
   */
  const gather = async (userId: number, by: ClosingAccount['by']): Promise<ClosingAccount | null> => {
    const user = (await strapi.db.query(UIDS.user).findOne({
      where: { id: userId },
      select: ['id', 'username', 'email', 'consumer_id'],
    })) as { id: number; username?: string | null; email?: string | null; consumer_id?: string | null } | null;
    if (!user) return null;
    const ownedBy = { where: { user: { id: userId } }, select: ['id'] };
    const ids = (rows: unknown) => (rows as Array<{ id: number }>).map((row) => row.id);
    const keyIds = ids(await strapi.db.query(UIDS.apiKey).findMany(ownedBy));
    const orderIds = ids(await strapi.db.query(UIDS.order).findMany(ownedBy));
    const consumerId = user.consumer_id ?? null;
    const billing = consumerId
      ? ((await inCurrentTransaction(async (connection) =>
          connection(tableOf(strapi, UIDS.billingSubscription)).where({ consumer_id: consumerId }).first('stripe_subscription_id', 'status')
        )) as { stripe_subscription_id: string | null; status: string | null } | undefined)
      : undefined;
    return {
      userId,
      consumerId,
      email: user.email ?? null,
      username: user.username ?? null,
      keyIds,
      orderIds,
      stripeSubscriptionId: billing && isLive(billing.status) ? billing.stripe_subscription_id : null,
      stripeEnded: false,
      by,
    };
  };

  const inCurrentTransaction = async <T>(work: (connection: Knex) => Promise<T>): Promise<T> => {
    if (!strapi.db.inTransaction()) return work(knex());
    let result: T | undefined;
    await strapi.db.transaction(async ({ trx }) => {
      result = await work(trx as unknown as Knex);
    });
    return result as T;
  };

  /** Cancel the account's live Stripe subscription now; StripeCancellationError when Stripe cannot. */
  const { endStripeSubscription, checkStripeSubscription, cancelAfterDelete } = stripeEnding(strapi);

  /**
   * Keys deleted through the query engine, one by one: the access feature's lifecycle on keys
   * drops each from the cache here and, through Redis, on every instance, as a revocation does.
   * Refused with 401 from then on.
   */
  const deleteKeys = async (keyIds: number[]): Promise<void> => {
    if (keyIds.length === 0) return;
    for (const id of keyIds) await strapi.db.query(UIDS.apiKey).delete({ where: { id } });
    const keys = getService(strapi, 'keys');
    later(LATE_CACHE_MS, 'announcing deleted keys again', () => Promise.all(keyIds.map((id) => keys.invalidate(id))));
  };

  /** Through each feature's own delete: a subscription's pending sends cancel, a scraper's run stops everywhere. */
  const deleteOwnedWork = async (consumerId: string): Promise<void> => {
    const subscriptions = getService(strapi, 'webhook-subscriptions');
    const subscriptionIds = (await knex()(tableOf(strapi, UIDS.webhookSubscription))
      .where({ consumer_id: consumerId })
      .select('id')) as Array<{ id: number }>;
    for (const { id } of subscriptionIds) {
      const row = await subscriptions.getById(id);
      if (row) await subscriptions.remove(row);
    }
    const scrapers = getService(strapi, 'scrapers');
    const scraperIds = (await knex()(tableOf(strapi, UIDS.scraper)).where({ consumer_id: consumerId }).select('id')) as Array<{
      id: number;
    }>;
    for (const { id } of scraperIds) {
      const row = await scrapers.get(id);
      if (row) await scrapers.remove(row);
    }
  };

  /** Orders stay for accounting under the consumer id, without the buyer or where they live. */
  const detachOrders = async (account: ClosingAccount): Promise<void> => {
    for (const id of account.orderIds) {
      await strapi.db
        .query(UIDS.order)
        .update({ where: { id }, data: { user: null, consumer_id: account.consumerId, shipping_address: null } });
    }
  };

  /** Usage records stay for accounting (and billed overage) under the consumer id, in batches. */
  const detachUsage = async (userId: number, consumerId: string | null): Promise<number> => {
    const table = tableOf(strapi, UIDS.usageRecord);
    let detached = 0;
    // MySQL refuses LIMIT in an IN subquery, and takes it on the UPDATE itself, which the others refuse.
    const mysql = dialectOf(strapi) === 'mysql';
    for (;;) {
      const rows = mysql
        ? knex()(table).where({ user_id: userId }).limit(DETACH_BATCH)
        : knex()(table).whereIn('id', knex()(table).select('id').where({ user_id: userId }).limit(DETACH_BATCH));
      const changed = Number(await rows.update({ user_id: null, consumer_id: consumerId }));
      detached += changed;
      if (changed < DETACH_BATCH) return detached;
    }
  };

  /** Billing keeps the customer and subscription rows (Stripe holds the invoices they name), no longer tied to the user. */
  const detachBilling = async (account: ClosingAccount): Promise<void> => {
    if (!account.consumerId) return;
    const now = new Date();
    await knex()(tableOf(strapi, UIDS.billingCustomer)).where({ consumer_id: account.consumerId }).update({ user_id: null });
    await knex()(tableOf(strapi, UIDS.billingSubscription))
      .where({ consumer_id: account.consumerId })
      .update({
        user_id: null,
        updated_at: now,
        ...(account.stripeEnded ? { status: 'canceled', cancel_at_period_end: false, grace_until: null } : {}),
      });
  };

  const confirm = async (account: ClosingAccount): Promise<void> => {
    if (!account.email) return;
    const email = strapi.plugin('email')?.service('email') as { send(options: Record<string, unknown>): Promise<unknown> } | undefined;
    if (!email) {
      strapi.log.warn('[api-suite] accounts: the email plugin is not installed; the closing of an account was not confirmed by e-mail');
      return;
    }
    const site = getConfig(strapi).portal.title;
    const lines = [
      `Hello ${account.username ?? ''},`.trim(),
      '',
      account.by === 'consumer'
        ? `As you asked, your account ${account.email} on ${site} has been deleted.`
        : `Your account ${account.email} on ${site} has been deleted by an administrator of the site.`,
      '',
      'Its API keys no longer work, and its webhook subscriptions and scrapers have been deleted.',
      ...(account.stripeEnded ? ['Your paid subscription has been cancelled: you will not be charged again.'] : []),
      'Records of your orders and of the requests made are kept for accounting, without your name or address.',
    ];
    await email.send({ to: account.email, subject: `Your ${site} account has been deleted`, text: lines.join('\n') });
  };

  const service = {
    /**
     * Everything but the user row, once Stripe is dealt with: safe to run again, each step
     * finding what is left. The confirmation goes out last.
     */
    async carryOut(account: ClosingAccount): Promise<void> {
      await deleteKeys(account.keyIds);
      await getService(strapi, 'consumer-plans').grant(account.userId, null);
      if (account.consumerId) await deleteOwnedWork(account.consumerId);
      await detachOrders(account);
      await getService(strapi, 'usage').flush();
      await detachUsage(account.userId, account.consumerId);
      later(LATE_RECORDS_MS, 'detaching late usage records', () => detachUsage(account.userId, account.consumerId));
      await detachBilling(account);
    },

    /**
     * `DELETE /api/v1/account`: the password checked (429 after too many wrong ones), then the
     * account closed before the user row goes, so a failure part-way leaves an account its owner
     * can close again. Two requests at once close it once.
     */
    async closeOwn(userId: number, password: string): Promise<void> {
      const wait = await shared.reserve(userId);
      if (wait > 0) {
        throw new ApiError(429, 'too_many_attempts', `Too many wrong passwords: try again in ${wait} seconds`, undefined, {
          'Retry-After': String(wait),
        });
      }
      const stored = (await strapi.db.query(UIDS.user).findOne({ where: { id: userId }, select: ['id', 'password'] })) as {
        password?: string | null;
      } | null;
      if (!stored) throw new UnauthenticatedError('invalid_token', 'The access token is not valid or has expired');
      const users = strapi.plugin('users-permissions').service('user') as {
        validatePassword(password: string, hash: string): Promise<boolean>;
        remove(params: { id: number }): Promise<unknown>;
      };
      // An account made through a login provider has no password: it cannot be confirmed this way.
      const valid =
        typeof stored.password === 'string' && stored.password !== '' && (await users.validatePassword(password, stored.password));
      // A wrong password stays counted (reserved above); the right one forgets the others.
      if (!valid) throw new InvalidError('invalid_password', 'The password is not correct');
      await shared.succeeded(userId);
      const under = ownClosings.get(userId);
      if (under) return under;

      const closing = (async () => {
        const account = await gather(userId, 'consumer');
        if (!account) return;
        try {
          await endStripeSubscription(account);
        } catch (error) {
          if (!(error instanceof StripeCancellationError)) throw error;
          throw new ApiError(
            502,
            'payment_provider_error',
            'Stripe could not cancel your subscription, so nothing was deleted; try again in a moment'
          );
        }
        await service.carryOut(account);
        // users-permissions' own removal: it ends the user's sessions too. The lifecycle below leaves this user to us.
        await users.remove({ id: userId });
        await confirm(account).catch((error: Error) =>
          strapi.log.error(`[api-suite] accounts: the confirmation of ${account.consumerId}'s closing was not sent: ${error.message}`)
        );
      })();
      ownClosings.set(userId, closing);
      try {
        await closing;
      } finally {
        ownClosings.delete(userId);
      }
    },

    /**
     * An administrator deleting users (the Content Manager, the users-permissions API, or any
     * `strapi.db.query(user).delete`): the same closing. Before the delete, inside its transaction,
     * what to act on is read and each live Stripe subscription is read from Stripe (if Stripe does
     * not answer, the delete is refused, with nothing cancelled: a bulk delete of many users
     * changes nothing when one of them cannot be checked); once the delete is committed, the
     * subscriptions are cancelled and the rest runs.
     */
    watchDeletions(): void {
      const prepare = async (where: unknown, many: boolean): Promise<ClosingAccount[]> => {
        const users = (
          many
            ? await strapi.db.query(UIDS.user).findMany({ where: where as Record<string, unknown>, select: ['id'] })
            : [await strapi.db.query(UIDS.user).findOne({ where: where as Record<string, unknown>, select: ['id'] })]
        ) as Array<{ id: number } | null>;
        const accounts: ClosingAccount[] = [];
        for (const user of users) {
          if (!user || ownClosings.has(user.id)) continue;
          const account = await gather(user.id, 'administrator');
          if (!account) continue;
          // Read only: nothing is cancelled before every user of the delete has been checked and the delete has committed.
          await checkStripeSubscription(account);
          accounts.push(account);
        }
        return accounts;
      };
      const finish = async (accounts: unknown): Promise<void> => {
        if (!Array.isArray(accounts) || accounts.length === 0) return;
        const run = async () => {
          for (const account of accounts as ClosingAccount[]) {
            try {
              await cancelAfterDelete(account);
              await service.carryOut(account);
              await confirm(account);
            } catch (error) {
              strapi.log.error(
                `[api-suite] accounts: closing the account of ${account.consumerId} (user ${account.userId}, deleted by an administrator) stopped part-way: ${(error as Error).message}`
              );
            }
          }
        };
        if (!strapi.db.inTransaction()) return run();
        // In the deleting transaction: once it commits (a rolled-back delete closes nothing).
        await strapi.db.transaction(({ onCommit }) =>
          onCommit(() => {
            const running = run().finally(() => settling.delete(running));
            settling.add(running);
          })
        );
      };
      strapi.db.lifecycles.subscribe({
        models: [UIDS.user],
        async beforeDelete(event) {
          event.state.closing = await prepare(event.params.where, false);
        },
        async afterDelete(event) {
          await finish(event.state.closing);
        },
        async beforeDeleteMany(event) {
          event.state.closing = await prepare(event.params.where, true);
        },
        async afterDeleteMany(event) {
          await finish(event.state.closing);
        },
      });
      // The Content Manager deletes a user through the document service, in a transaction of its
      // own: the closing starts when it commits, and the admin's answer waits for it here, so it
      // comes once nothing more is sent or fetched for that consumer. (A bulk delete runs inside
      // one more transaction, committed after this returns: its answer waits in `holdBulkAnswers`.)
      strapi.documents.use(async (context, next) => {
        if (context.uid !== UIDS.user || context.action !== 'delete') return next();
        const result = await next();
        await Promise.all([...settling]);
        return result;
      });
    },

    /**
     * The Content Manager's bulk delete of users runs every per-user delete (and its lifecycle)
     * in one transaction of its own, which commits after they have returned: the closings start
     * then, and its answer waits for them here, as the answer to deleting one user does. In
     * register: a router middleware must come before the routes, which are mounted before bootstrap.
     */
    holdBulkAnswers(): void {
      strapi.server.router.use('/content-manager/collection-types/:model/actions/bulkDelete', async (ctx: Context, next: Next) => {
        await next();
        if (ctx.params?.model === UIDS.user) await Promise.all([...settling]);
      });
    },

    /** Timers of the late passes cleared, at shutdown. */
    stop(): void {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
    },
  };
  return service;
};

export type AccountClosureService = ReturnType<typeof accountClosureService>;
export default accountClosureService;
