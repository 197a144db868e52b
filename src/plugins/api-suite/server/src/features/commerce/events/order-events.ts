import { randomUUID } from 'node:crypto';
import type { Core } from '@strapi/strapi';
import { UIDS } from '../../../constants';
import { getService } from '../../../utils';
import type { Announcement } from '../services/orders';

/**
 * Orders changed through the document service (the admin panel, scripts): a change of an
 * order's status publishes order.updated wherever it is made, the admin panel included, and
 * order.paid as well when it becomes paid (docs/commerce.md#order-events). Checkout and the
 * Stripe webhook write through knex and announce their own changes, so nothing is announced
 * twice.
 *
 * The change, the stock it gives back and the announcement share one transaction: a cancelled
 * pending or paid order returns its stock (once, whoever cancels it), a deleted order that still
 * held stock returns it, and events go out only after the commit.
 */
export function registerOrderEvents(strapi: Core.Strapi): void {
  const orders = () => getService(strapi, 'orders');

  strapi.documents.use(async (ctx, next) => {
    if (ctx.uid !== UIDS.order || !['create', 'clone', 'update', 'delete'].includes(ctx.action)) return next();
    const params = ctx.params as { documentId?: string; data?: Record<string, unknown> };

    return strapi.db.transaction(async ({ trx, onCommit }) => {
      const creating = ctx.action === 'create' || ctx.action === 'clone';
      if (creating) {
        // An order made in the admin panel gets its own identity; it holds no stock (checkout
        // alone reserves), so cancelling it later gives nothing back.
        const data = (params.data ??= {});
        data.uuid = ctx.action === 'create' && typeof data.uuid === 'string' && data.uuid !== '' ? data.uuid : randomUUID();
        data.date_created ??= new Date();
        data.stock_reserved = false;
        if (ctx.action === 'clone') data.stripe_session_id = null;
      }
      const before = !creating && params.documentId ? await orders().findByDocumentId(params.documentId) : null;
      if (
        ctx.action === 'update' &&
        before &&
        params.data?.status === 'paid' &&
        before.status !== 'paid' &&
        !before.paidAt &&
        params.data.paid_at == null
      ) {
        params.data.paid_at = new Date();
      }

      const announcement: Announcement = { orders: [] };
      // Released while the row still exists (the release is a conditional update of it); a
      // failed delete rolls the release back with it.
      if (ctx.action === 'delete' && before?.stockReserved) await orders().releaseStock(trx, before);

      const result = await next();

      if (ctx.action !== 'delete') {
        const returned = (result as { documentId?: unknown } | null)?.documentId;
        const documentId = typeof returned === 'string' ? returned : params.documentId;
        const after = documentId ? await orders().findByDocumentId(documentId) : null;
        if (after && creating) announcement.orders.push({ type: 'order.created', order: after });
        if (after && before && before.status !== after.status) {
          if (after.status === 'cancelled' && orders().returnsStock(before.status)) {
            await orders().releaseStock(trx, after);
          }
          announcement.orders.push({ type: 'order.updated', order: after });
          if (after.status === 'paid') announcement.orders.push({ type: 'order.paid', order: after });
        }
      }
      if (announcement.orders.length > 0) {
        onCommit(() => setImmediate(() => void orders().announce(announcement)));
      }
      return result;
    });
  });
}
