import { z } from 'zod';
import { accountUsageMonth, apiKey } from '../../access/validation/responses';
import { accountBilling } from '../../billing/validation/responses';
import { accountOrder } from '../../commerce/validation/responses';
import { scraper } from '../../scrapers/validation/responses';
import { subscription } from '../../webhooks/validation/responses';

/**
 * What `GET /api/v1/account/export` answers: everything the site holds about the consumer asking,
 * each part as the API shows it elsewhere (keys, webhook subscriptions and scrapers in the very
 * schemas of their own routes, so never a key, a hash or a signing secret), plus what no other
 * route shows a consumer (their orders and usage by month).
 */

export { accountBilling, accountOrder, accountUsageMonth };
export type { AccountBilling } from '../../billing/validation/responses';
export type { AccountOrder } from '../../commerce/validation/responses';
export type { AccountUsageMonth } from '../../access/validation/responses';

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
