import { z } from 'zod';
import { pageLimit, pageNumber, rowId } from '../../../http/validation';

/** Bodies of the billing routes, validated at the edge. */
export const planChoiceBody = z.object({ plan_id: rowId }).strict();
export type PlanChoiceBody = z.infer<typeof planChoiceBody>;

/** `POST /api/v1/billing/checkout`: the plan, billed monthly (the default) or yearly. */
export const checkoutBody = planChoiceBody
  .extend({
    interval: z
      .enum(['month', 'year'], { error: 'must be month or year' })
      .default('month')
      .meta({ description: "`year` buys the plan's yearly price (400 `interval_not_offered` when it has none)." }),
  })
  .strict();
export type CheckoutBody = z.infer<typeof checkoutBody>;

/** Admin panel: the Sales page's list of subscriptions. */
export const adminSubscriptionsQuery = z.object({
  page: pageNumber,
  limit: pageLimit,
  status: z
    .enum(['trialing', 'active', 'past_due', 'canceled', 'unpaid'], {
      error: 'must be one of trialing, active, past_due, canceled, unpaid',
    })
    .optional(),
});
export type AdminSubscriptionsQuery = z.infer<typeof adminSubscriptionsQuery>;
