import type { PublishableEvent } from '../../webhooks/events/registry';
import type { OrderEventData } from '../events/event-types';
import type { Core, UID } from '@strapi/strapi';
import { ADMINISTRATOR_ROLE, UIDS } from '../../../constants';
import { fromJson, tableOf, toBool, toDate, type Knex } from '../../../db';
import { getConfig, getService } from '../../../utils';
import type { OrderStatus } from '../content-types';
import type { OrderListing } from '../validation/responses';

export interface OrderItem {
  product_id: number;
  quantity: number;
  /** Unit price at checkout. */
  price: number;
  /** Product name at checkout. */
  name: string;
}

export interface Order {
  id: number;
  uuid: string;
  userId: number | null;
  status: OrderStatus;
  total: number;
  currency: string | null;
  items: OrderItem[];
  dateCreated: Date | null;
  paymentId: string | null;
  paidAt: Date | null;
  stripeSessionId: string | null;
  stockReserved: boolean;
}

export type OrderEventType = 'order.created' | 'order.updated' | 'order.paid';

/** A change to announce once its transaction commits. */
export interface Announcement {
  orders: Array<{ type: OrderEventType; order: Order }>;
}

/** Statuses in which an order's goods have not left: cancelling it gives its stock back. */
const RETURNS_STOCK_FROM: OrderStatus[] = ['pending', 'paid'];

/**
 * Orders (docs/commerce.md): reading them, the status changes the payment flow makes (each a
 * compare-and-set on the status, so concurrent or repeated notifications change an order once),
 * giving stock back exactly once, and the order events, which reach the buyer's own
 * subscriptions and the administrators' only.
 */
const ordersService = ({ strapi }: { strapi: Core.Strapi }) => {
  const ordersTable = () => tableOf(strapi, UIDS.order);
  const productUid = () => getConfig(strapi).contentTypes.product as UID.ContentType;
  const productsTable = () => tableOf(strapi, productUid());
  const findOne = async (where: { uuid: string } | { documentId: string }): Promise<Order | null> => {
    const row = (await strapi.db.query(UIDS.order).findOne({ where, populate: { user: { select: ['id'] } } })) as OrderRecord | null;
    return row ? toOrder(row) : null;
  };

  return {
    findByUuid(uuid: string): Promise<Order | null> {
      return findOne({ uuid });
    },

    findByDocumentId(documentId: string): Promise<Order | null> {
      return findOne({ documentId });
    },

    /**
     * The newest orders first (by when they were placed, then by id), a page at a time, with
     * their buyer: what the admin panel's Sales page lists.
     */
    async latest(query: { page: number; limit: number; status?: OrderStatus }): Promise<{ rows: OrderListing[]; total: number }> {
      const where = query.status ? { status: query.status } : {};
      const [records, total] = await Promise.all([
        strapi.db.query(UIDS.order).findMany({
          where,
          orderBy: [{ date_created: 'desc' }, { id: 'desc' }],
          offset: (query.page - 1) * query.limit,
          limit: query.limit,
          populate: { user: { select: ['id', 'username', 'email'] } },
        }) as Promise<Array<OrderRecord & { user?: { id: number; username?: string; email?: string } | null }>>,
        strapi.db.query(UIDS.order).count({ where }),
      ]);
      const rows = records.map((record) => {
        const order = toOrder(record);
        return {
          id: order.uuid,
          document_id: record.documentId ?? '',
          status: order.status,
          total: order.total,
          currency: order.currency,
          items: order.items.reduce((sum, item) => sum + item.quantity, 0),
          buyer: record.user ? { id: record.user.id, username: record.user.username ?? '', email: record.user.email ?? '' } : null,
          created_at: order.dateCreated?.toISOString() ?? null,
          paid_at: order.paidAt?.toISOString() ?? null,
          payment_id: order.paymentId,
        };
      });
      return { rows, total: Number(total) };
    },

    /** The event payload: `{ id, status, total, created_at }`, plus `paid_at` and `payment_id` once set. */
    payload(order: Order): OrderEventData {
      return {
        id: order.uuid,
        status: order.status,
        total: order.total,
        created_at: order.dateCreated?.toISOString() ?? null,
        ...(order.paidAt ? { paid_at: order.paidAt.toISOString() } : {}),
        ...(order.paymentId ? { payment_id: order.paymentId } : {}),
      };
    },

    /**
     * pending → paid, once: the conditional update is the compare-and-set, so a repeated or
     * concurrent notification finds the order paid already and changes nothing.
     */
    async markPaid(trx: Knex, uuid: string, paymentId: string, paidAt: Date): Promise<Order | null> {
      const changed = await trx(ordersTable())
        .where({ uuid, status: 'pending' })
        .update({ status: 'paid', payment_id: paymentId, paid_at: paidAt, updated_at: paidAt });
      return changed === 1 ? this.findByUuid(uuid) : null;
    },

    /** pending → cancelled, once, with its stock given back in the same transaction. */
    async cancelPending(trx: Knex, uuid: string): Promise<{ order: Order } | null> {
      const changed = await trx(ordersTable()).where({ uuid, status: 'pending' }).update({ status: 'cancelled', updated_at: new Date() });
      if (changed !== 1) return null;
      const order = await this.findByUuid(uuid);
      if (!order) return null;
      await this.releaseStock(trx, order);
      return { order: { ...order, stockReserved: false } };
    },

    /**
     * Give the order's stock back if it still holds it. `stock_reserved` is cleared by a
     * conditional update first, so whoever gets there second (a repeated event, an editor)
     * gives nothing back (false). Its products are announced with the transaction (`stockChanged`).
     */
    async releaseStock(trx: Knex, order: Pick<Order, 'id' | 'items'>): Promise<boolean> {
      const claimed = await trx(ordersTable()).where({ id: order.id, stock_reserved: true }).update({ stock_reserved: false });
      if (claimed !== 1) return false;
      const lines = inLockOrder(mergeLines(order.items));
      for (const line of lines) {
        await trx(productsTable()).where({ id: line.product_id }).increment('stock', line.quantity);
      }
      await this.stockChanged(lines.map((line) => line.product_id));
      return true;
    },

    /** Whether cancelling from `from` gives stock back (goods that left are not counted again). */
    returnsStock(from: OrderStatus): boolean {
      return RETURNS_STOCK_FROM.includes(from);
    },

    /**
     * Products whose stock this transaction changed, announced as any change of content is
     * (product.updated, through the content outbox): recorded in this transaction, published
     * once it commits, even when the process dies right after.
     */
    async stockChanged(ids: number[]): Promise<void> {
      if (ids.length === 0) return;
      const rows = (await strapi.db.query(productUid()).findMany({
        where: { id: { $in: ids } },
        select: ['documentId'],
        orderBy: { id: 'asc' },
      })) as Array<{ documentId: string }>;
      const documentIds = [...new Set(rows.map((row) => row.documentId))];
      await getService(strapi, 'content-changes').changedOutside(productUid(), documentIds);
    },

    /**
     * Publish what a committed change announces. Order events go to the buyer's subscriptions
     * and the administrators'; product events to every subscriber, as all product events do.
     * Failures are logged: the change is committed whatever happens to its announcement.
     */
    async announce(announcement: Announcement): Promise<void> {
      const webhooks = getService(strapi, 'webhooks');
      const work: Array<Promise<unknown>> = [];
      const byBuyer = new Map<number | null, PublishableEvent[]>();
      for (const { type, order } of announcement.orders) {
        const list = byBuyer.get(order.userId) ?? [];
        list.push({ type, payload: this.payload(order) });
        byBuyer.set(order.userId, list);
      }
      for (const [userId, events] of byBuyer) {
        work.push(this.audienceOf(userId).then((consumerIds) => webhooks.publishMany(events, { consumerIds })));
      }
      const results = await Promise.allSettled(work);
      for (const result of results) {
        if (result.status === 'rejected')
          strapi.log.error(`[api-suite] commerce: event not published: ${(result.reason as Error).message}`);
      }
    },

    /** The consumers who may see an order's events: its buyer and every administrator. */
    async audienceOf(userId: number | null): Promise<string[]> {
      const administrators = { role: { type: ADMINISTRATOR_ROLE.type } };
      const rows = (await strapi.db.query(UIDS.user).findMany({
        where: userId === null ? administrators : { $or: [{ id: userId }, administrators] },
        select: ['consumer_id'],
      })) as Array<{ consumer_id?: string | null }>;
      return rows.map((row) => row.consumer_id).filter((id): id is string => typeof id === 'string' && id !== '');
    },
  };
};

interface OrderRecord {
  id: number;
  documentId?: string;
  uuid: string;
  status: OrderStatus;
  total: number | string;
  currency?: string | null;
  items?: unknown;
  date_created?: unknown;
  payment_id?: string | null;
  paid_at?: unknown;
  stripe_session_id?: string | null;
  stock_reserved?: unknown;
  user?: { id: number } | null;
}

function toOrder(row: OrderRecord): Order {
  return {
    id: row.id,
    uuid: row.uuid,
    userId: row.user?.id ?? null,
    status: row.status,
    total: Number(row.total),
    currency: row.currency ?? null,
    items: fromJson<OrderItem[]>(row.items, []),
    dateCreated: toDate(row.date_created),
    paymentId: row.payment_id ?? null,
    paidAt: toDate(row.paid_at),
    stripeSessionId: row.stripe_session_id ?? null,
    stockReserved: toBool(row.stock_reserved),
  };
}

/** One line per product, quantities added, in the order products first appear. */
export function mergeLines<T extends { product_id: number; quantity: number }>(lines: T[]): T[] {
  const merged = new Map<number, T>();
  for (const line of lines) {
    const seen = merged.get(line.product_id);
    merged.set(line.product_id, seen ? { ...seen, quantity: seen.quantity + line.quantity } : { ...line });
  }
  return [...merged.values()];
}

/**
 * Lines in product id order: every transaction that changes several products' stock takes
 * their row locks in the same order, so two of them never wait for each other (PostgreSQL).
 */
export function inLockOrder<T extends { product_id: number }>(lines: T[]): T[] {
  return [...lines].sort((a, b) => a.product_id - b.product_id);
}

export type OrdersService = ReturnType<typeof ordersService>;
export default ordersService;
