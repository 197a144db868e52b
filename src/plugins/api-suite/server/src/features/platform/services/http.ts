import { ApiError, respondNestedError } from '../../../http/errors';

/**
 * The `/api/v1` error family, shared with the host app so its routes (articles) answer errors
 * exactly as the plugin's do: one formatter for the family.
 */
const httpService = () => ({ ApiError, respondNestedError });

export type HttpService = ReturnType<typeof httpService>;
export default httpService;
