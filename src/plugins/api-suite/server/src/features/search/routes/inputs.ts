import { routeInput } from '../../../http/input';
import { searchQuery } from '../validation';
import { SearchQueryInvalidError } from '../errors';

/**
 * What `GET /api/search` takes (http/input.ts). A bad query answers its first problem alone:
 * each message names its parameter already ("q must be at most 200 characters").
 */
export const inputs = {
  search: routeInput({
    query: {
      of: searchQuery,
      parse(value: unknown) {
        const parsed = searchQuery.safeParse(value);
        if (!parsed.success) throw new SearchQueryInvalidError(parsed.error.issues[0].message);
        return parsed.data;
      },
    },
  }),
};
