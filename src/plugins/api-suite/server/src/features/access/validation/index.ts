import { z } from 'zod';

/** Bodies and queries of the access routes, validated at the edge; their inferred types feed the controllers. */
const scope = z.enum(['read', 'write']);
/** Ids are 32-bit integers in the database; a larger one can name nothing (and PostgreSQL would refuse it). */
const MAX_ID = 2_147_483_647;
const id = () => z.number().int().positive().max(MAX_ID);
const idParam = () => z.coerce.number().int().positive().max(MAX_ID);

export const createKeyBody = z
  .object({
    name: z.string().trim().min(1).max(100).optional(),
    scopes: z
      .array(scope)
      .min(1, 'must name at least one scope')
      .refine((scopes) => new Set(scopes).size === scopes.length, 'must not repeat a scope')
      .optional(),
    expires_at: z.iso
      .datetime({ offset: true, message: 'must be an ISO 8601 date-time' })
      .refine((value) => new Date(value).getTime() > Date.now(), 'must be in the future')
      .optional(),
    plan_id: id().optional(),
    user_id: id().optional(),
  })
  .strict();
export type CreateKeyBody = z.infer<typeof createKeyBody>;

const pageNumber = z.coerce.number().int().min(1, 'must be 1 or more').default(1);
const pageLimit = z.coerce.number().int().min(1, 'must be between 1 and 100').max(100, 'must be between 1 and 100').default(20);

export const listKeysQuery = z.object({
  page: pageNumber,
  limit: pageLimit,
  user_id: idParam().optional(),
});

export const keyIdParam = idParam();

export const usageQuery = z
  .object({
    from: z.iso.datetime({ offset: true, message: 'must be an ISO 8601 date-time' }).optional(),
    to: z.iso.datetime({ offset: true, message: 'must be an ISO 8601 date-time' }).optional(),
    granularity: z.enum(['minute', 'hour', 'day']).default('hour'),
    key_id: idParam().optional(),
  });
export type UsageQuery = z.infer<typeof usageQuery>;

export const usageStreamQuery = usageQuery.extend({ interval: z.coerce.number().int().min(1).max(5).default(5) });
