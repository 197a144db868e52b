import { z } from 'zod';
import { pageLimit, pageNumber, rowId } from '../../../http/validation';

/** Bodies of the billing routes, validated at the edge. */
export const planChoiceBody = z.object({ plan_id: rowId }).strict();
export type PlanChoiceBody = z.infer<typeof planChoiceBody>;

/** Admin panel: the Sales page's list of subscriptions. */
export const adminSubscriptionsQuery = z.object({
  page: pageNumber,
  limit: pageLimit,
  status: z.enum(['active', 'past_due', 'canceled', 'unpaid'], { error: 'must be one of active, past_due, canceled, unpaid' }).optional(),
});
export type AdminSubscriptionsQuery = z.infer<typeof adminSubscriptionsQuery>;
