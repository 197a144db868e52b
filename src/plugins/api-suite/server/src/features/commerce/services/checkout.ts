import { randomUUID } from 'node:crypto';
import type { Core, UID } from '@strapi/strapi';
import { UIDS } from '../../../constants';
import { dialectOf, lockKey, tableOf, type Knex } from '../../../db';
import { documentId } from '../../../random';
import { getConfig, getService } from '../../../utils';
import type { CheckoutInput } from '../validation';
import { inLockOrder, mergeLines, type Announcement, type Order, type OrderItem } from './orders';
import { toMinorUnits } from '../../../stripe';
import { CheckoutFailedError, InsufficientStockError, TooManyHeldError, TotalTooLargeError, UnknownProductsError } from '../errors';

export interface CheckoutResult {
  orderId: string;
  paymentUrl: string;
  total: number;
}

/** Stripe's largest amount for a Checkout Session in a two-decimal currency: 999,999.99. */
export const MAX_TOTAL_MINOR = 99_999_999;

interface ProductRow {
  id: number;
  name: string;
  price: number | string | null;
  stock: number | null;
}

/**
 * Checkout (docs/commerce.md#checkout): the cart is checked, its stock reserved atomically with the
 * pending order, and a Stripe Checkout Session made for it. Reservation is one conditional
 * `UPDATE … SET stock = stock - q WHERE id = ? AND stock >= q` per product inside the order's
 * transaction, so concurrent checkouts can never take more than there is, on SQLite (one writer)
 * as on PostgreSQL (the row lock makes the second update see the first one's result).
 */
const checkoutService = ({ strapi }: { strapi: Core.Strapi }) => {
  const productUid = () => getConfig(strapi).contentTypes.product as UID.ContentType;
  const orders = () => getService(strapi, 'orders');

  /** Only published, non-deleted products are for sale (the flags the host's products have). */
  const forSale = (): Record<string, boolean> => {
    const attributes = strapi.contentType(productUid()).attributes as Record<string, unknown>;
    return { ...('published' in attributes ? { published: true } : {}), ...('deleted' in attributes ? { deleted: false } : {}) };
  };

  const columnOf = (attribute: string): string => {
    const meta = strapi.db.metadata.get(productUid()) as { attributes: Record<string, { columnName?: string }> };
    return meta.attributes[attribute]?.columnName ?? attribute;
  };

  const readProducts = async (ids: number[]): Promise<Map<number, ProductRow>> => {
    const rows = (await strapi.db.query(productUid()).findMany({
      where: { id: { $in: ids }, ...forSale() },
      select: ['id', 'name', 'price', 'stock'],
    })) as ProductRow[];
    return new Map(rows.map((row) => [row.id, row]));
  };

  /** Take `quantity` of each product, or nothing at all (the transaction rolls back). */
  const reserve = async (trx: Knex, lines: Array<{ product_id: number; quantity: number; name: string }>): Promise<void> => {
    const table = tableOf(strapi, productUid());
    const stock = columnOf('stock');
    const conditions = Object.fromEntries(Object.entries(forSale()).map(([attribute, value]) => [columnOf(attribute), value]));
    for (const line of inLockOrder(lines)) {
      const taken = await trx(table)
        .where({ id: line.product_id, ...conditions })
        .where(stock, '>=', line.quantity)
        .decrement(stock, line.quantity);
      if (taken === 1) continue;
      // Either another checkout took the stock first, or the product stopped being for sale.
      const still = (await trx(table)
        .where({ id: line.product_id, ...conditions })
        .first('id')) as { id: number } | undefined;
      if (!still) throw new UnknownProductsError([line.product_id]);
      throw new InsufficientStockError([line.name]);
    }
  };

  /**
   * One consumer's unpaid checkouts hold at most `maxOpenCheckouts` orders and `maxHeldUnits` of
   * any product together, so one account cannot take a shelf off sale for everyone else until
   * its sessions expire. Checked inside the order's transaction, after the consumer's lock
   * (db/locks.ts), so two checkouts racing cannot both pass.
   */
  const checkHolds = async (trx: Knex, userId: number, items: OrderItem[]): Promise<void> => {
    const { maxHeldUnits, maxOpenCheckouts } = getConfig(strapi).commerce;
    await lockKey(trx, dialectOf(strapi), HOLD_LOCK, userId);
    const open = (await strapi.db.query(UIDS.order).findMany({
      where: { user: { id: userId }, status: 'pending', stock_reserved: true },
      select: ['id', 'items'],
    })) as Array<{ id: number; items: unknown }>;
    if (open.length >= maxOpenCheckouts) {
      throw new TooManyHeldError(`You already have ${open.length} unpaid checkouts: pay for one or let it expire before starting another`);
    }
    const held = new Map<number, number>();
    for (const order of open) {
      for (const item of orderItems(order.items)) held.set(item.product_id, (held.get(item.product_id) ?? 0) + item.quantity);
    }
    const over = items.filter((item) => (held.get(item.product_id) ?? 0) + item.quantity > maxHeldUnits);
    if (over.length > 0) {
      throw new TooManyHeldError(
        over
          .map(
            (item) =>
              `Your unpaid checkouts may hold at most ${maxHeldUnits} of "${item.name}" (${held.get(item.product_id) ?? 0} held already)`
          )
          .join('; ')
      );
    }
  };

  return {
    async place(buyer: { userId: number }, input: CheckoutInput): Promise<CheckoutResult> {
      const lines = mergeLines(input.items);
      const products = await readProducts(lines.map((line) => line.product_id));

      const unknown = input.items.map((item, index) => ({ index, id: item.product_id })).filter((item) => !products.has(item.id));
      if (unknown.length > 0)
        throw new UnknownProductsError(
          unknown.map((item) => item.id),
          unknown.map((item) => item.index)
        );

      const items: OrderItem[] = lines.map((line) => {
        const product = products.get(line.product_id) as ProductRow;
        return { product_id: line.product_id, quantity: line.quantity, price: Number(product.price ?? 0), name: product.name };
      });
      // What the shelf shows now; the reservation below decides for good under concurrency.
      const short = items.filter((item) => Number(products.get(item.product_id)?.stock ?? 0) < item.quantity);
      if (short.length > 0) {
        throw new InsufficientStockError(
          short.map((item) => item.name),
          { itemised: true }
        );
      }
      const totalMinor = items.reduce((sum, item) => sum + toMinorUnits(item.price) * item.quantity, 0);
      if (totalMinor > MAX_TOTAL_MINOR) throw new TotalTooLargeError(MAX_TOTAL_MINOR);
      const total = totalMinor / 100;

      const stripe = getService(strapi, 'stripe');
      if (!stripe.configured()) {
        strapi.log.error('[api-suite] checkout: STRIPE_SECRET_KEY is not set, so no payment session can be made; nothing was reserved');
        throw new CheckoutFailedError();
      }

      const { currency } = getConfig(strapi).commerce;
      const uuid = randomUUID();
      const now = new Date();
      const announcement: Announcement = { orders: [] };
      const order = await strapi.db.transaction(async ({ trx, onCommit }) => {
        await checkHolds(trx, buyer.userId, items);
        await reserve(trx, items);
        const created = (await strapi.db.query(UIDS.order).create({
          data: {
            documentId: documentId(),
            uuid,
            user: buyer.userId,
            items,
            total,
            currency,
            shipping_address: input.shipping_address ?? null,
            payment_method: input.payment_method ?? 'card',
            status: 'pending',
            date_created: now,
            stock_reserved: true,
            publishedAt: now,
          },
          select: ['id'],
        })) as { id: number };
        const placed: Order = {
          id: created.id,
          uuid,
          userId: buyer.userId,
          status: 'pending',
          total,
          currency,
          items,
          dateCreated: now,
          paymentId: null,
          paidAt: null,
          stripeSessionId: null,
          stockReserved: true,
        };
        announcement.orders.push({ type: 'order.created', order: placed });
        await orders().stockChanged(inLockOrder(items).map((item) => item.product_id));
        onCommit(() => setImmediate(() => void orders().announce(announcement)));
        return placed;
      });

      let session: { id: string; url: string };
      try {
        session = await stripe.createSession(order);
      } catch (error) {
        strapi.log.error(
          `[api-suite] checkout: no Stripe session for order ${order.uuid}, cancelled and its stock returned: ${(error as Error).message}`
        );
        await this.abandon(order.uuid);
        throw new CheckoutFailedError();
      }
      try {
        await strapi.db.connection(tableOf(strapi, UIDS.order)).where({ id: order.id }).update({ stripe_session_id: session.id });
      } catch (error) {
        // The session is live and names the order in its metadata, which is all the webhook needs.
        strapi.log.warn(`[api-suite] checkout: session ${session.id} not recorded on order ${order.uuid}: ${(error as Error).message}`);
      }
      return { orderId: order.uuid, paymentUrl: session.url, total };
    },

    /** The payment session could not be made: the order is cancelled and its stock given back. */
    async abandon(uuid: string): Promise<void> {
      try {
        const announcement: Announcement = { orders: [] };
        await strapi.db.transaction(async ({ trx, onCommit }) => {
          const cancelled = await orders().cancelPending(trx, uuid);
          if (!cancelled) return;
          announcement.orders.push({ type: 'order.updated', order: cancelled.order });
          onCommit(() => setImmediate(() => void orders().announce(announcement)));
        });
      } catch (error) {
        strapi.log.error(
          `[api-suite] checkout: order ${uuid} could not be cancelled, its stock is still reserved: ${(error as Error).message}`
        );
      }
    },
  };
};

/** The class of the per-consumer checkout lock (db/locks.ts), so it meets no other lock of the database. */
const HOLD_LOCK = 0x43484b; // "CHK"

function orderItems(value: unknown): Array<{ product_id: number; quantity: number }> {
  const list = typeof value === 'string' ? (JSON.parse(value) as unknown) : value;
  return Array.isArray(list) ? (list as Array<{ product_id: number; quantity: number }>) : [];
}

export type CheckoutService = ReturnType<typeof checkoutService>;
export default checkoutService;
