import { z } from 'zod';
import { apiKey } from '../../access/validation/responses';
import { billingStatus } from '../../billing/validation/responses';
import { ORDER_STATUSES } from '../../commerce/content-types';
import { scraper } from '../../scrapers/validation/responses';
import { subscription } from '../../webhooks/validation/responses';

/**
 * What `GET /api/v1/account/export` answers: everything the site holds about the consumer asking,
 * each part as the API shows it elsewhere (keys, webhook subscriptions and scrapers in the very
 * schemas of their own routes, so never a key, a hash or a signing secret), plus what no other
 * route shows a consumer (their orders and usage by month).
 */

const id = z.int().min(1);
const dateTime = z.iso.datetime();

export const accountProfile = z.object({
  id,
  username: z.string(),
  email: z.string(),
  consumer_id: z.string().meta({ description: 'The opaque id the API files everything of this consumer under.' }),
  provider: z.string().nullable().meta({ description: 'How the account signs in: `local` (a password) or a login provider.' }),
  confirmed: z.boolean(),
  blocked: z.boolean(),
  role: z.string().nullable().meta({ description: 'The users-permissions role type, such as `authenticated` or `administrator`.' }),
  plan: z.object({ id, name: z.string() }).meta({ description: "The plan the consumer's keys and requests are held to now." }),
  created_at: dateTime.nullable(),
  updated_at: dateTime.nullable(),
});
export type AccountProfile = z.infer<typeof accountProfile>;

export const accountUsageMonth = z.object({
  month: z
    .string()
    .regex(/^\d{4}-\d{2}$/)
    .meta({ description: 'The calendar month (UTC), `YYYY-MM`.' }),
  total: z.int().min(0).meta({ description: 'Requests counted for the consumer in that month, refusals included.' }),
  by_status: z.record(z.string(), z.int().min(0)).meta({ description: 'The same requests by HTTP status.' }),
});
export type AccountUsageMonth = z.infer<typeof accountUsageMonth>;

export const accountOrder = z.object({
  id: z.string().meta({ description: "The order's id (a UUID)." }),
  status: z.enum(ORDER_STATUSES),
  total: z.number().min(0),
  currency: z.string().nullable(),
  items: z.array(
    z.object({
      product_id: id,
      quantity: z.int().min(1),
      price: z.number().min(0).meta({ description: 'The unit price at checkout.' }),
      name: z.string().meta({ description: 'The product name at checkout.' }),
    })
  ),
  shipping_address: z.unknown().meta({ description: 'As given at checkout: text, an object of text fields, or null.' }),
  payment_method: z.string().nullable(),
  payment_id: z.string().nullable(),
  created_at: dateTime.nullable(),
  paid_at: dateTime.nullable(),
});
export type AccountOrder = z.infer<typeof accountOrder>;

export const accountBilling = z
  .object({
    customer_id: z.string().nullable().meta({ description: 'The Stripe customer (`cus_…`) made for the consumer.' }),
    subscription: z
      .object({
        subscription_id: z.string().meta({ description: 'The Stripe subscription (`sub_…`).' }),
        plan_id: id.nullable(),
        status: billingStatus.exclude(['none']),
        current_period_end: dateTime.nullable(),
        cancel_at_period_end: z.boolean(),
        grace_until: dateTime.nullable(),
      })
      .nullable(),
  })
  .meta({ description: 'What billing keeps about the consumer; null when they never bought a plan.' });
export type AccountBilling = z.infer<typeof accountBilling>;

export const accountExport = z.object({
  exported_at: dateTime,
  profile: accountProfile,
  keys: z.array(apiKey).meta({ description: 'Every key, revoked and expired ones included: prefixes only, never a key or its hash.' }),
  webhook_subscriptions: z.array(subscription).meta({ description: 'Webhook subscriptions, never their signing secrets.' }),
  scrapers: z.array(scraper),
  usage: z.array(accountUsageMonth).meta({ description: 'Requests by month, oldest first.' }),
  orders: z.array(accountOrder).meta({ description: 'Orders placed through checkout, newest first.' }),
  billing: accountBilling.nullable(),
});
export type AccountExport = z.infer<typeof accountExport>;
