import { defineContracts } from '../../../contract/route';
import { searchQuery } from './index';
import { searchAnswer, searchRefusal } from './responses';

/** `GET /api/search` (docs/search-feed-cors.md#search): public, and not in the OpenAPI document of `/api/v1`. */
export const searchContracts = defineContracts({
  search: {
    method: 'get',
    path: '/api/search',
    query: searchQuery,
    responses: {
      '200': {
        description:
          'The published items of the collections asked for (or the default ones) matching `q` in any searched field: at most 5 per collection, by ascending id. `{ "data": [] }` when `q` is missing or shorter than 2 characters, or no collection named is known.',
        json: searchAnswer,
      },
      '400': {
        description: '`q` longer than 200 characters, or given more than once (`q must be given once, as text`).',
        json: searchRefusal,
      },
    },
  },
});
