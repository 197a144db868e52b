import { z } from 'zod';
import { type Env } from '../../config-env';

/** The search feature's settings (`search` in config/plugins.ts): which collections are searchable, by which fields. */

/** A content-type UID, or the name of one of `contentTypes` (article, product, page). */
const contentTypeRef = z
  .string()
  .regex(/^(article|product|page|(api|plugin)::[a-z0-9-]+\.[a-z0-9-]+)$/, 'must be article, product, page or a content-type UID');

const attributeName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,99}$/, 'must be an attribute name');

export const searchConfigSchema = z
  .object({
    /** Searchable collections by the name callers use in `collections`. */
    collections: z.record(
      z.string().regex(/^[A-Za-z0-9_-]{1,100}$/, 'collection names are letters, digits, _ and -'),
      z
        .object({
          contentType: contentTypeRef,
          fields: z.array(attributeName).min(1).max(10),
          /** What "published" means for a type without draft-and-publish, as a query-engine filter. */
          where: z.record(z.string(), z.unknown()).optional(),
        })
        .strict()
    ),
    /** Searched when the request names no collection. */
    defaultCollections: z.array(z.string()),
  })
  .strict();

export type SearchConfig = z.infer<typeof searchConfigSchema>;

export function searchConfigDefaults(_env: Env): SearchConfig {
  // A site names what is searchable (docs/search-feed-cors.md#search); nothing is until it does.
  return { collections: {}, defaultCollections: [] };
}
