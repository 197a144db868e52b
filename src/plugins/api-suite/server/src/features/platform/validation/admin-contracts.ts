import { dataOf } from '../../../contract/common';
import { defineContracts } from '../../../contract/route';
import { overview } from './responses';

/** The admin panel's platform route: the overview page. */
export const adminPlatformContracts = defineContracts({
  overview: {
    method: 'get',
    path: '/api-suite/overview',
    responses: {
      '200': { description: "How this server is set up, and its last hour's activity.", json: dataOf(overview) },
    },
  },
});
