import { z } from 'zod';

/** The query of `GET /api/search`, validated at the edge. */
export const MIN_QUERY_LENGTH = 2;
export const MAX_QUERY_LENGTH = 200;

/** Counted in characters, not UTF-16 units. */
const length = (text: string) => [...text].length;

export const searchQuery = z.object({
  q: z
    .string({ message: 'q must be given once, as text' })
    .transform((value) => value.trim())
    .refine((value) => length(value) <= MAX_QUERY_LENGTH, `q must be at most ${MAX_QUERY_LENGTH} characters`)
    .optional(),
  /** "articles, pages" (or the parameter repeated) → ["articles", "pages"]; nothing named → undefined. */
  collections: z
    .unknown()
    .transform((value) => {
      const parts = (Array.isArray(value) ? value : [value]).filter((part): part is string => typeof part === 'string');
      const names = parts
        .flatMap((part) => part.split(','))
        .map((name) => name.trim())
        .filter(Boolean);
      return names.length > 0 ? names : undefined;
    })
    .optional(),
});

/** Whether a (trimmed) query is long enough to search; shorter ones answer `{ data: [] }`. */
export function isSearchable(q: string | undefined): q is string {
  return q !== undefined && length(q) >= MIN_QUERY_LENGTH;
}
