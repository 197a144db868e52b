import { z } from 'zod';
import { activity } from '../../observability/validation/responses';

/** Admin panel: `GET /api-suite/overview`, how this server is set up and its last hour's activity. */
export const overview = z.object({
  jobs: z.object({ driver: z.enum(['bullmq', 'in-process']) }),
  outbound: z.object({ allowPrivate: z.boolean() }),
  database: z.object({ client: z.string() }),
  access: z.object({
    routePrefixes: z.array(z.string()),
    sharedKey: z.boolean(),
    endpointGroups: z
      .object({ public: z.array(z.string()), private: z.array(z.string()), content: z.array(z.string()) })
      .meta({ description: 'What a plan\'s "@public", "@private" and "@content" entries stand for.' }),
  }),
  commerce: z.object({ currency: z.string().meta({ description: 'The shop currency, which every page that shows money shows it in.' }) }),
  activity,
});
export type Overview = z.infer<typeof overview>;

/** `GET /api/v1/openapi.json`: the OpenAPI document, described only as far as its head. */
export const openApiDocument = z
  .looseObject({ openapi: z.literal('3.1.0'), info: z.looseObject({}), paths: z.looseObject({}) })
  .meta({ description: 'This document.' });
