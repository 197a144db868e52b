import { z } from 'zod';
import { rowId } from '../../../http/validation';

/** Bodies of the billing routes, validated at the edge. */
export const planChoiceBody = z.object({ plan_id: rowId }).strict();
export type PlanChoiceBody = z.infer<typeof planChoiceBody>;
