import type { Core } from '@strapi/strapi';
import type { Context, Next } from 'koa';
import { UIDS } from '../../../constants';
import { getConfig, getService } from '../../../utils';
import { createPasswordAttempts, sharedPasswordAttempts } from '../password-attempts';
import type { ClosingAccount, Later, PreparedClosing } from '../types';
import { TooManyAttemptsError, UserGoneError, WrongPasswordError } from '../errors';

/** Wrong passwords allowed per user within the window before the next is refused with 429. */
const PASSWORD_ATTEMPTS = { limit: 5, windowMs: 15 * 60_000 };

/**
 * Closing an account (docs/accounts.md): the consumer's own `DELETE /api/v1/account`, and an
 * administrator deleting the user in the admin panel (the Content Manager, or the
 * users-permissions API), which a lifecycle on the user turns into the same closing.
 *
 * Everything the site keeps about a consumer is a part a feature added (`../types.ts`,
 * docs/accounts.md): each reads what it will act on before anything changes, may end something
 * outside the site first (billing's live Stripe subscription: if Stripe refuses, nothing changes),
 * and then deletes or detaches what it keeps, phase by phase: keys and plan first (refused with
 * 401 at once), then what acts for the consumer (webhook subscriptions, scrapers), then what stays
 * for accounting without the person (orders, usage, billing). Then the user goes, and an e-mail
 * says so.
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
  const later: Later = (ms, what, work) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      work().catch((error: Error) => strapi.log.error(`[api-suite] accounts: ${what} failed: ${error.message}`));
    }, ms);
    timer.unref();
    timers.add(timer);
  };

  /**
   * What closing `userId` acts on: the user, and each part's share, read through the query
   * engine (inside an administrator's deletion, what that transaction sees).
   */
  const gather = async (userId: number, by: ClosingAccount['by']): Promise<ClosingAccount | null> => {
    const user = (await strapi.db.query(UIDS.user).findOne({
      where: { id: userId },
      select: ['id', 'username', 'email', 'consumer_id'],
    })) as { id: number; username?: string | null; email?: string | null; consumer_id?: string | null } | null;
    if (!user) return null;
    const holder = { userId, consumerId: user.consumer_id ?? null };
    const parts: PreparedClosing[] = [];
    for (const part of getService(strapi, 'account-parts').list()) {
      const prepared = await part.prepareClosing?.(holder);
      if (prepared) parts.push(prepared);
    }
    return { ...holder, email: user.email ?? null, username: user.username ?? null, by, parts };
  };

  /** Each part's hook, one part after another in closing order. */
  const each = async (account: ClosingAccount, hook: (part: PreparedClosing) => Promise<void> | undefined): Promise<void> => {
    for (const part of account.parts) await hook(part);
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
      // A line from each part of the account, in closing order.
      ...account.parts.flatMap((part) => part.confirmation?.() ?? []),
    ];
    await email.send({ to: account.email, subject: `Your ${site} account has been deleted`, text: lines.join('\n') });
  };

  const service = {
    /**
     * Everything but the user row, once what must end first has (`endFirst`, `check`): safe to run again, each step
     * finding what is left. The confirmation goes out last.
     */
    async carryOut(account: ClosingAccount): Promise<void> {
      await each(account, (part) => part.carryOut?.(later));
    },

    /**
     * `DELETE /api/v1/account`: the password checked (429 after too many wrong ones), then the
     * account closed before the user row goes, so a failure part-way leaves an account its owner
     * can close again. Two requests at once close it once.
     */
    async closeOwn(userId: number, password: string): Promise<void> {
      const wait = await shared.reserve(userId);
      if (wait > 0) {
        throw new TooManyAttemptsError(wait);
      }
      const stored = (await strapi.db.query(UIDS.user).findOne({ where: { id: userId }, select: ['id', 'password'] })) as {
        password?: string | null;
      } | null;
      if (!stored) throw new UserGoneError();
      const users = strapi.plugin('users-permissions').service('user') as {
        validatePassword(password: string, hash: string): Promise<boolean>;
        remove(params: { id: number }): Promise<unknown>;
      };
      // An account made through a login provider has no password: it cannot be confirmed this way.
      const valid =
        typeof stored.password === 'string' && stored.password !== '' && (await users.validatePassword(password, stored.password));
      // A wrong password stays counted (reserved above); the right one forgets the others.
      if (!valid) throw new WrongPasswordError();
      await shared.succeeded(userId);
      const under = ownClosings.get(userId);
      if (under) return under;

      const closing = (async () => {
        const account = await gather(userId, 'consumer');
        if (!account) return;
        // Something outside the site a part must end first (a paid subscription): refusing refuses the closing.
        await each(account, (part) => part.endFirst?.());
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
          await each(account, (part) => part.check?.());
          accounts.push(account);
        }
        return accounts;
      };
      const finish = async (accounts: unknown): Promise<void> => {
        if (!Array.isArray(accounts) || accounts.length === 0) return;
        const run = async () => {
          for (const account of accounts as ClosingAccount[]) {
            try {
              await each(account, (part) => part.endAfterDelete?.());
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
