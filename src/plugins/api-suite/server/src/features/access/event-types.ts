import { z } from 'zod';
import { defineEvent } from '../webhooks/events/registry';
import { QUOTA_THRESHOLDS } from '../../../../shared/quota-thresholds';

/** The access feature's event (docs/billing.md#quota-alerts): to the one consumer whose pool it is about. */
export const quotaThresholdEventData = z.strictObject({
  plan_id: z.int().min(1).meta({ description: "The plan the pool belongs to (a key with limits of its own: the key's plan)." }),
  plan: z.string().meta({ description: "The plan's name." }),
  used: z.int().min(0).meta({ description: 'Requests counted in the pool this month when the threshold was reached.' }),
  quota: z.int().min(1).meta({ description: "The pool's monthly quota." }),
  percent: z.literal(QUOTA_THRESHOLDS).meta({ description: 'The threshold reached: 80 or 100 (% of the quota).' }),
  period_start: z.iso.datetime().meta({ description: 'The first moment of the month (UTC) the quota is for.' }),
});
export type QuotaThresholdEventData = z.infer<typeof quotaThresholdEventData>;

export const ACCESS_EVENTS = [
  defineEvent({
    name: 'quota.threshold',
    description: 'Your requests this month reached 80 % or 100 % of your monthly quota (once each a month).',
    schema: quotaThresholdEventData,
    example: { plan_id: 2, plan: 'pro', used: 80_000, quota: 100_000, percent: 80, period_start: '2026-11-01T00:00:00.000Z' },
    audience: 'consumer',
    owner: 'access',
  }),
];

declare module '../webhooks/events/registry' {
  interface EventPayloads {
    'quota.threshold': QuotaThresholdEventData;
  }
}
