import { z } from 'zod';

/** What `GET /api/search` answers (docs/search-feed-cors.md#search). */

/**
 * One match: its id, the collection's searched fields (text attributes, null when empty), and
 * `_collection`, the collection's name as the request asked for it.
 */
export const searchHit = z
  .object({
    id: z.int().min(1).meta({ description: "The numeric id the content API shows; for a page, its published version's." }),
    _collection: z.string().meta({ description: 'The collection, by the name the request used (`articles`, `products`, `pages`).' }),
  })
  .catchall(z.string().nullable())
  .meta({ description: "A match: its id, the collection's searched fields, and `_collection`." });
export type SearchHit = z.infer<typeof searchHit>;

/** At most 5 matches per collection searched, by ascending id, collection after collection in the order asked. */
export const searchAnswer = z.object({ data: z.array(searchHit) });
export type SearchAnswer = z.infer<typeof searchAnswer>;

/** A refused query: `{ errors: [{ message }] }`, the first problem alone. */
export const searchRefusal = z.object({ errors: z.array(z.object({ message: z.string() })).min(1) });
