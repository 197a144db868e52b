import type { Core } from '@strapi/strapi';
import { UIDS } from '../../../constants';
import { fromJson, tableOf, toBool, toIso } from '../../../db';
import { NotFoundError } from '../../../errors';
import { getService } from '../../../utils';
import type { ApiKey } from '../../access/validation/responses';
import type { Scraper } from '../../scrapers/validation/responses';
import type { Subscription } from '../../webhooks/validation/responses';
import type { AccountBilling, AccountExport, AccountOrder, AccountProfile } from '../validation/responses';

/** Rows read a page at a time: a consumer may hold many keys, subscriptions or scrapers. */
const PAGE = 100;

/**
 * Everything the site holds about one consumer, as `GET /api/v1/account/export` answers it. Each
 * part comes from its own feature's service and is shown as that feature's routes show it, so
 * what those routes never show (a key, its hash, a signing secret) is never here either.
 */
const accountExportService = ({ strapi }: { strapi: Core.Strapi }) => {
  const profile = async (userId: number): Promise<AccountProfile> => {
    const user = (await strapi.db.query(UIDS.user).findOne({
      where: { id: userId },
      select: ['id', 'username', 'email', 'consumer_id', 'provider', 'confirmed', 'blocked', 'createdAt', 'updatedAt'],
      populate: { role: { select: ['type'] } },
    })) as UserRow | null;
    if (!user) throw new NotFoundError('Account');
    const plan = (await getService(strapi, 'consumer-plans').of(userId)).rule;
    return {
      id: user.id,
      username: user.username ?? '',
      email: user.email ?? '',
      consumer_id: user.consumer_id ?? '',
      provider: user.provider ?? null,
      confirmed: toBool(user.confirmed),
      blocked: toBool(user.blocked),
      role: user.role?.type ?? null,
      plan: { id: plan.id, name: plan.name },
      created_at: toIso(user.createdAt),
      updated_at: toIso(user.updatedAt),
    };
  };

  const keys = async (userId: number): Promise<ApiKey[]> => {
    const all: ApiKey[] = [];
    for (let page = 1; ; page += 1) {
      const { data, total } = await getService(strapi, 'keys').list({ userId, page, limit: PAGE });
      all.push(...data);
      if (data.length === 0 || all.length >= total) return all;
    }
  };

  const subscriptions = async (consumerId: string): Promise<Subscription[]> => {
    const service = getService(strapi, 'webhook-subscriptions');
    const all: Subscription[] = [];
    for (let page = 1; ; page += 1) {
      const { rows, total } = await service.list(consumerId, page, PAGE);
      all.push(...rows.map((row) => service.present(row)));
      if (rows.length === 0 || all.length >= total) return all;
    }
  };

  const scrapers = async (consumerId: string): Promise<Scraper[]> => {
    const service = getService(strapi, 'scrapers');
    const all: Scraper[] = [];
    for (let page = 1; ; page += 1) {
      const { rows, total } = await service.list(consumerId, page, PAGE);
      all.push(...rows.map((row) => service.present(row)));
      if (rows.length === 0 || all.length >= total) return all;
    }
  };

  const orders = async (userId: number): Promise<AccountOrder[]> => {
    const rows = (await strapi.db.query(UIDS.order).findMany({
      where: { user: { id: userId } },
      orderBy: [{ date_created: 'desc' }, { id: 'desc' }],
    })) as OrderRow[];
    return rows.map((row) => ({
      id: row.uuid,
      status: row.status,
      total: Number(row.total),
      currency: row.currency ?? null,
      items: fromJson<AccountOrder['items']>(row.items, []),
      // The query engine reads JSON columns already parsed: an address given as text is a string here.
      shipping_address: row.shipping_address ?? null,
      payment_method: row.payment_method ?? null,
      payment_id: row.payment_id ?? null,
      created_at: toIso(row.date_created),
      paid_at: toIso(row.paid_at),
    }));
  };

  const billing = async (consumerId: string): Promise<AccountBilling | null> => {
    const knex = strapi.db.connection;
    const [customer, subscription] = await Promise.all([
      knex(tableOf(strapi, UIDS.billingCustomer)).where({ consumer_id: consumerId }).first('stripe_customer_id') as Promise<
        { stripe_customer_id: string | null } | undefined
      >,
      knex(tableOf(strapi, UIDS.billingSubscription)).where({ consumer_id: consumerId }).first() as Promise<BillingRow | undefined>,
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

  return {
    async export(userId: number): Promise<AccountExport> {
      const person = await profile(userId);
      const [keyList, subscriptionList, scraperList, usage, orderList, billingState] = await Promise.all([
        keys(userId),
        subscriptions(person.consumer_id),
        scrapers(person.consumer_id),
        getService(strapi, 'usage').months(userId, person.consumer_id || null),
        orders(userId),
        billing(person.consumer_id),
      ]);
      return {
        exported_at: new Date().toISOString(),
        profile: person,
        keys: keyList,
        webhook_subscriptions: subscriptionList,
        scrapers: scraperList,
        usage,
        orders: orderList,
        billing: billingState,
      };
    },
  };
};

interface UserRow {
  id: number;
  username?: string | null;
  email?: string | null;
  consumer_id?: string | null;
  provider?: string | null;
  confirmed?: unknown;
  blocked?: unknown;
  createdAt?: unknown;
  updatedAt?: unknown;
  role?: { type?: string } | null;
}

interface OrderRow {
  uuid: string;
  status: AccountOrder['status'];
  total: number | string;
  currency?: string | null;
  items?: unknown;
  shipping_address?: unknown;
  payment_method?: string | null;
  payment_id?: string | null;
  date_created?: unknown;
  paid_at?: unknown;
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

export type AccountExportService = ReturnType<typeof accountExportService>;
export default accountExportService;
