import { requireSession } from '../../../http/consumer';
import { routeInput } from '../../../http/input';
import { deleteAccountBody } from '../validation';

/** What each account route takes, named in its route config and read by its handler (http/input.ts). */
export const inputs = {
  exportAccount: routeInput({ before: requireSession }),
  deleteAccount: routeInput({ before: requireSession, body: deleteAccountBody }),
};
