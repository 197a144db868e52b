import { z } from 'zod';

/** `page` and `limit` of every paged list (API and admin routes): 1 or more, and 1 to 100 (default 20). */
export const pageNumber = z.coerce.number().int().min(1, 'must be 1 or more').default(1);
export const pageLimit = z.coerce.number().int().min(1, 'must be between 1 and 100').max(100, 'must be between 1 and 100').default(20);
