import { randomUUID } from 'node:crypto';
import type { Core } from '@strapi/strapi';
import { UIDS } from '../../../constants';
import { toBool } from '../../../db';
import { getService } from '../../../utils';
import { generateSecret } from '../signing';
import { FIXED_COLUMNS, REENABLED } from './rows';

/** What the hook before an edit learnt of the row, for the hook after it. */
interface EditorEdit {
  rateLimitChanged: boolean;
}

/**
 * The Content Manager writes subscriptions through Strapi's query engine, not through their
 * service: these hooks hold its writes to the service's rules (docs/architecture.md#who-writes-a-table).
 * A subscription created there gets its identity, a sealed secret and no failures, as `create`
 * gives one; an edit drops the fixed columns (the form never shows them) and re-enabling starts
 * the count of failures afresh; and once the change commits, its topics follow its events, every
 * instance's caches are cleared, and a changed rate limit applies from the next delivery. The
 * service writes with knex itself, so they never run for the API's writes.
 */
export function subscribeEditorHooks(strapi: Core.Strapi): void {
  const subscriptions = () => getService(strapi, 'webhook-subscriptions');
  const idOf = (result: unknown) => (result as { id?: number } | undefined)?.id;

  const changed = (id: number | undefined, edit?: EditorEdit): void => {
    if (!id) return;
    afterCommit(strapi, async () => {
      await subscriptions().resyncTopics(id);
      if (edit?.rateLimitChanged) await getService(strapi, 'webhook-deliveries').forgetThrottle(id);
    });
  };

  strapi.db.lifecycles.subscribe({
    models: [UIDS.webhookSubscription],
    beforeCreate(event) {
      const data = event.params.data as Record<string, unknown>;
      data.uuid ??= randomUUID();
      data.secret = subscriptions().seal(generateSecret());
      delete data.secret_old;
      data.failure_count ??= 0;
      data.headers ??= {};
    },
    // Runs inside the editor's transaction, so the row is read through the query engine, which takes part in it.
    async beforeUpdate(event) {
      const data = event.params.data as Record<string, unknown>;
      for (const column of FIXED_COLUMNS) delete data[column];
      const before = (await strapi.db
        .query(UIDS.webhookSubscription)
        .findOne({ where: event.params.where as Record<string, unknown>, select: ['id', 'is_active', 'rate_limit'] })) as {
        is_active: unknown;
        rate_limit: number | null;
      } | null;
      if (before && data.is_active === true && !toBool(before.is_active)) Object.assign(data, REENABLED);
      const edit: EditorEdit = {
        rateLimitChanged: before !== null && 'rate_limit' in data && (data.rate_limit ?? null) !== (before.rate_limit ?? null),
      };
      event.state.edit = edit;
    },
    afterCreate: (event) => changed(idOf(event.result)),
    afterUpdate: (event) => changed(idOf(event.result), event.state.edit as EditorEdit | undefined),
    afterDelete: (event) => changed(idOf(event.result)),
    // Several deleted at once: the topics whose subscription is gone go.
    afterDeleteMany: () => afterCommit(strapi, () => subscriptions().pruneTopics()),
  });
}

/**
 * Run `work` once the current transaction commits (at once outside one). Lifecycle hooks run
 * inside the content manager's transaction; work done on another connection there would wait
 * for it (on SQLite's single connection, forever), and would act on a change that may yet roll back.
 */
function afterCommit(strapi: Core.Strapi, work: () => Promise<void>): void {
  const run = () => {
    work().catch((error: Error) => strapi.log.error(`[api-suite] webhooks: ${error.message}`));
  };
  if (!strapi.db.inTransaction()) {
    run();
    return;
  }
  void strapi.db.transaction(({ onCommit }) => onCommit(run)).catch(() => undefined);
}
