import { z } from 'zod';
import { guarded, ok, pageMeta, pageOf, rateLimitHeaders } from './common';
import { credentials, schemaRef, shared } from './openapi';

/**
 * What a contributor outside the plugin (the host app, for its articles) needs to describe its
 * routes: handed over at run time by the openapi service, since the host is compiled without the
 * plugin's source.
 */
export const contractKit = { z, guarded, ok, shared, pageMeta, pageOf, rateLimitHeaders, schemaRef, credentials };
export type ContractKit = typeof contractKit;
