import { z } from 'zod';
import { type Env } from '../../config-env';

/** The billing feature's settings (`billing` in config/plugins.ts): where consumers come back, grace and overage reports. */

export const billingConfigSchema = z
  .object({
    /**
     * Where Checkout and the Stripe Billing Portal send the consumer back (BILLING_RETURN_URL);
     * unset: the consumer portal of this server (its public URL and `portal.path`).
     */
    returnUrl: z.string().url().optional(),
    /** Days a past-due subscription keeps its plan before its keys fall back to the default plan. */
    graceDays: z.number().min(0).max(90),
    /** The Stripe Billing Meter's `event_name` that overage is reported under. */
    meterEventName: z.string().regex(/^[A-Za-z0-9_.:-]{1,100}$/, 'must be 1 to 100 letters, digits, _ . : -'),
    /** Seconds between two overage reports of one customer (Stripe asks for at most one a minute or so). */
    reportIntervalSeconds: z.number().int().min(1).max(3600),
  })
  .strict();

export type BillingConfig = z.infer<typeof billingConfigSchema>;

export function billingConfigDefaults(env: Env): BillingConfig {
  return {
    returnUrl: env('BILLING_RETURN_URL')?.trim() || undefined,
    graceDays: Number(env('BILLING_GRACE_DAYS') || 7),
    meterEventName: env('BILLING_METER_EVENT') || 'api_requests',
    reportIntervalSeconds: env.int('BILLING_REPORT_INTERVAL_SECONDS', 60) as number,
  };
}
