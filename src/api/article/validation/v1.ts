import { z } from 'zod';

/** The query and bodies of /api/v1/articles (docs/articles.md), checked at the edge. */
export const SORT_FIELDS = ['createdAt', 'updatedAt', 'title'] as const;
export const INCLUDES = ['author', 'comments'] as const;
export const STATUSES = ['draft', 'published', 'archived'] as const;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Ids are 32-bit integers in the database; a larger one names nothing (and PostgreSQL would refuse it). */
const MAX_ID = 2_147_483_647;
export const articleRef = z.union([
  z.string().regex(UUID),
  z
    .string()
    .regex(/^\d{1,10}$/)
    .refine((value) => Number(value) <= MAX_ID),
]);

const intInRange = (min: number, max: number, label: string) =>
  z.coerce
    .number({ message: `must be an integer from ${min} to ${max}` })
    .int(`must be an integer from ${min} to ${max}`)
    .min(min, label)
    .max(max, label);

export const listQuery = z
  .object({
    page: intInRange(1, Number.MAX_SAFE_INTEGER, 'must be 1 or more').optional(),
    limit: intInRange(1, 100, 'must be from 1 to 100').optional(),
    per_page: intInRange(1, 100, 'must be from 1 to 100').optional(),
    status: z.enum(STATUSES, { message: `must be one of ${STATUSES.join(', ')}` }).optional(),
    author_id: z.coerce
      .number({ message: 'must be an integer' })
      .int('must be an integer')
      .positive('must be an integer')
      .max(MAX_ID, 'is not an author id')
      .optional(),
    created_after: z
      .string()
      .refine(
        (value) => /^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(value) && !Number.isNaN(new Date(value).getTime()),
        'must be a date such as 2026-01-31'
      )
      .optional(),
    sort: z.enum(SORT_FIELDS, { message: `must be one of ${SORT_FIELDS.join(', ')}` }).default('createdAt'),
    order: z.enum(['asc', 'desc'], { message: 'must be asc or desc' }).default('desc'),
    include: z
      .string()
      .optional()
      .superRefine((value, context) => {
        for (const name of splitList(value)) {
          if (!(INCLUDES as readonly string[]).includes(name)) {
            context.addIssue({ code: 'custom', message: `unknown relation "${name}"; allowed: ${INCLUDES.join(', ')}` });
          }
        }
      }),
    after_id: articleRef.optional(),
  })
  .superRefine((query, context) => {
    if (query.limit !== undefined && query.per_page !== undefined && query.limit !== query.per_page) {
      context.addIssue({ code: 'custom', path: ['per_page'], message: 'is another name for limit; give one, or both equal' });
    }
    if (query.after_id !== undefined && query.page !== undefined) {
      context.addIssue({ code: 'custom', path: ['page'], message: 'cannot be combined with after_id (keyset paging)' });
    }
  });
export type ListQuery = z.infer<typeof listQuery>;

export const includeQuery = z.object({ include: listQuery.shape.include });

export const commentsQuery = z.object({
  page: intInRange(1, Number.MAX_SAFE_INTEGER, 'must be 1 or more').default(1),
  limit: intInRange(1, 100, 'must be from 1 to 100').default(20),
});

const fields = {
  title: z.string({ message: 'must be a string' }).trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters'),
  slug: z
    .string({ message: 'must be a string' })
    .min(1, 'must not be empty')
    .max(200, 'must be at most 200 characters')
    .regex(/^[A-Za-z0-9._~-]+$/, 'may hold letters, digits, "-", "_", "." and "~" only'),
  status: z.enum(STATUSES, { message: `must be one of ${STATUSES.join(', ')}` }),
  excerpt: z.string({ message: 'must be a string' }).max(10_000, 'must be at most 10000 characters').nullable(),
  body: z.string({ message: 'must be a string' }).max(1_000_000, 'must be at most 1000000 characters').nullable(),
  author_id: z
    .number({ message: 'must be an integer' })
    .int('must be an integer')
    .positive('must be an integer')
    .max(MAX_ID, 'is not an author id')
    .nullable(),
};

export const createBody = z
  .object({
    ...fields,
    status: fields.status.optional(),
    slug: fields.slug.optional(),
    excerpt: fields.excerpt.optional(),
    body: fields.body.optional(),
    author_id: fields.author_id.optional(),
  })
  .strict();
export const putBody = z
  .object({
    ...fields,
    slug: fields.slug.optional(),
    excerpt: fields.excerpt.optional(),
    body: fields.body.optional(),
    author_id: fields.author_id.optional(),
  })
  .strict();
export const patchBody = z
  .object({
    title: fields.title.optional(),
    slug: fields.slug.optional(),
    status: fields.status.optional(),
    excerpt: fields.excerpt.optional(),
    body: fields.body.optional(),
    author_id: fields.author_id.optional(),
  })
  .strict()
  .refine((body) => Object.keys(body).length > 0, 'must change at least one field');
export type ArticleInput = z.infer<typeof patchBody>;

export function splitList(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
}
