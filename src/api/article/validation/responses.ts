import { z } from 'zod';
import { STATUSES } from './v1';

/** What `/api/v1/articles` answers: the one description behind the service's types and the OpenAPI document. */

const dateTime = z.iso.datetime();

export const articleStatus = z.enum(STATUSES);

export const authorSummary = z.object({ id: z.int().min(1), name: z.string() });

export const comment = z.object({
  id: z.int().min(1),
  body: z.string(),
  author_name: z.string().nullable(),
  article_id: z.uuid().meta({ description: "The article's UUID." }),
  createdAt: dateTime,
});
export type V1Comment = z.infer<typeof comment>;

export const article = z.object({
  id: z.uuid(),
  title: z.string().max(200),
  slug: z.string().nullable().meta({ description: 'Null for an article saved without one in the admin panel.' }),
  status: articleStatus,
  excerpt: z.string().nullable(),
  body: z.string().nullable(),
  author_id: z.int().nullable(),
  createdAt: dateTime,
  updatedAt: dateTime,
  author: authorSummary.nullable().optional().meta({ description: 'Present with `include=author`; null when the article has no author.' }),
  comments: z.array(comment).optional().meta({ description: 'Present with `include=comments`, oldest first.' }),
});
export type V1Article = z.infer<typeof article>;

export const offsetMeta = z.object({ page: z.int().min(1), limit: z.int().min(1).max(100), total: z.int().min(0), pages: z.int().min(0) });
export const keysetMeta = z.object({
  limit: z.int().min(1).max(100),
  next_after_id: z
    .uuid()
    .nullable()
    .meta({ description: "The last item's id when `has_more`, else null: pass it as `after_id` for the next page." }),
  has_more: z.boolean(),
});
export const articleList = z.object({
  data: z.array(article),
  meta: z.union([offsetMeta, keysetMeta]).meta({ description: 'Offset paging by default; keyset paging when `after_id` is given.' }),
});
export const articleResponse = z.object({ data: article });
export const commentList = z.object({ data: z.array(comment), meta: offsetMeta });
