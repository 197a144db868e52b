import { ApiError } from '../../../http/errors';

/**
 * The `/api/v1` error family's refusal, shared with the host app: its routes (articles) throw it
 * and name `plugin::api-suite.nested-errors` in their config, so they answer errors exactly as
 * the plugin's do.
 */
const httpService = () => ({ ApiError });

export type HttpService = ReturnType<typeof httpService>;
export default httpService;
