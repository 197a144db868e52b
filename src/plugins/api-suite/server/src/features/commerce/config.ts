import { z } from 'zod';
import { type Env, frontendOriginOf } from '../../config-env';

/** The commerce feature's settings (`commerce` in config/plugins.ts): Stripe, the currency and what a checkout may hold. */

/**
 * Checkout sends Stripe amounts in hundredths (prices multiplied by 100: docs/commerce.md#checkout),
 * which is what Stripe expects for every currency except these zero- and three-decimal ones.
 */
export const UNSUPPORTED_CURRENCIES = [
  'bif',
  'clp',
  'djf',
  'gnf',
  'jpy',
  'kmf',
  'krw',
  'mga',
  'pyg',
  'rwf',
  'ugx',
  'vnd',
  'vuv',
  'xaf',
  'xof',
  'xpf',
  'bhd',
  'jod',
  'kwd',
  'omr',
  'tnd',
];

export const commerceConfigSchema = z
  .object({
    stripeSecretKey: z.string().min(1).optional(),
    stripeWebhookSecret: z.string().min(1).optional(),
    currency: z
      .string()
      .regex(/^[a-z]{3}$/, 'must be a lowercase ISO 4217 code such as eur')
      .refine(
        (code) => !UNSUPPORTED_CURRENCIES.includes(code),
        'amounts are sent in hundredths, so zero- and three-decimal currencies are not supported'
      ),
    /** Where Stripe sends the buyer back; {ORDER_ID} and Stripe's {CHECKOUT_SESSION_ID} are filled in. */
    successUrl: z.string().url(),
    cancelUrl: z.string().url(),
    /** How long a Checkout Session (and so the stock it holds) lives; Stripe allows 30 minutes to 24 hours. */
    sessionExpiresMinutes: z
      .number()
      .int()
      .min(30, 'CHECKOUT_HOLD_MINUTES: Stripe keeps a Checkout Session at least 30 minutes')
      .max(1440, 'CHECKOUT_HOLD_MINUTES: Stripe keeps a Checkout Session at most 24 hours'),
    /** Units of one product a consumer's unpaid checkouts may hold together, so nobody can reserve a whole shelf. */
    maxHeldUnits: z.number().int().min(1),
    /** Unpaid checkouts a consumer may have open at once. */
    maxOpenCheckouts: z.number().int().min(1),
    /** Where the Stripe SDK connects: Stripe's API unless set (tests point it at a local stub). */
    stripeApi: z
      .object({
        host: z.string().min(1).optional(),
        port: z.number().int().min(1).max(65535).optional(),
        protocol: z.enum(['http', 'https']).optional(),
        maxNetworkRetries: z.number().int().min(0).max(10),
        timeoutMs: z.number().int().min(1000).max(120_000),
      })
      .strict(),
  })
  .strict();

export type CommerceConfig = z.infer<typeof commerceConfigSchema>;

export function commerceConfigDefaults(env: Env): CommerceConfig {
  return {
    stripeSecretKey: env('STRIPE_SECRET_KEY') || undefined,
    stripeWebhookSecret: env('STRIPE_WEBHOOK_SECRET') || undefined,
    currency: (env('STRIPE_CURRENCY') || 'eur').toLowerCase(),
    successUrl: `${frontendOriginOf(env)}/checkout/success?order_id={ORDER_ID}&session_id={CHECKOUT_SESSION_ID}`,
    cancelUrl: `${frontendOriginOf(env)}/checkout/cancel?order_id={ORDER_ID}`,
    sessionExpiresMinutes: env.int('CHECKOUT_HOLD_MINUTES', 30) as number,
    maxHeldUnits: env.int('CHECKOUT_MAX_HELD', 10) as number,
    maxOpenCheckouts: env.int('CHECKOUT_MAX_OPEN', 3) as number,
    stripeApi: {
      host: env('STRIPE_API_HOST') || undefined,
      port: env('STRIPE_API_PORT') ? (env.int('STRIPE_API_PORT') as number) : undefined,
      protocol: (env('STRIPE_API_PROTOCOL') || undefined) as 'http' | 'https' | undefined,
      maxNetworkRetries: 2,
      timeoutMs: 30_000,
    },
  };
}
