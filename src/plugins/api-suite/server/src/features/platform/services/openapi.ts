import type { Core } from '@strapi/strapi';
import { z } from 'zod';
import { commonDescription } from '../../../contract/common';
import { contractKit, type ContractKit } from '../../../contract/kit';
import { buildOpenApiDocument, type ApiDescription, type OpenApiDocument } from '../../../contract/openapi';

/**
 * The OpenAPI document of `/api/v1`, assembled from the API descriptions of the plugin's features
 * and of the host app (its articles), each made of the zod schemas its routes validate with and
 * answer in. Built once, on first request, after every description is in.
 */

const INFO = {
  title: 'API business',
  version: '1.0.0',
  description:
    'The versioned API of the site: articles, scrapers, the account routes behind API keys (keys, usage, OAuth client credentials, plans), and signed webhook subscriptions (`/api/webhooks`).\n\n' +
    'Credentials: an API key (`X-API-Key`, `Authorization: Bearer sk_…` or `?api_key=`), an OAuth access token, or a users-permissions JWT. API keys need the `read` scope for GET and HEAD and `write` for everything else; their plan limits the endpoints, the requests a minute and the requests a month. ' +
    'Every key-authenticated answer carries the `X-RateLimit-*` headers and the IETF `RateLimit-Policy` / `RateLimit` fields.\n\n' +
    'Errors are `{ "error": { "code", "message", "details"? } }`, except on the token endpoint, which answers RFC 6749 errors, and on the webhook routes\' own refusals, which are `{ "error": "<message>", "code", …extra }`. Request bodies are flat JSON objects.',
  license: { name: 'MIT', identifier: 'MIT' },
};

const documentSchema = z
  .looseObject({ openapi: z.literal('3.1.0'), info: z.looseObject({}), paths: z.looseObject({}) })
  .meta({ description: 'This document.' });

const metaApi: ApiDescription = {
  tags: [{ name: 'Meta', description: 'This description.' }],
  components: { OpenApiDocument: documentSchema },
  operations: [
    {
      method: 'get',
      path: '/api/v1/openapi.json',
      operationId: 'getOpenApiDocument',
      summary: 'This OpenAPI document',
      tags: ['Meta'],
      security: 'open',
      responses: { '200': { description: 'The OpenAPI 3.1 document.', json: documentSchema } },
    },
  ],
};

const openApiService = (_: { strapi: Core.Strapi }) => {
  const descriptions: ApiDescription[] = [commonDescription];
  let built: { document: OpenApiDocument; json: string } | undefined;

  return {
    /** Add a description (a feature's, or the host's built with the kit); the document is rebuilt on next read. */
    add(description: ApiDescription | ((kit: ContractKit) => ApiDescription)): void {
      descriptions.push(typeof description === 'function' ? description(contractKit) : description);
      built = undefined;
    },

    document(): OpenApiDocument {
      return this.built().document;
    },

    /** The document serialised once, as the route answers it. */
    json(): string {
      return this.built().json;
    },

    built() {
      if (!built) {
        // The document's own route last, so the tags keep the order of the features.
        const document = buildOpenApiDocument(INFO, [...descriptions, metaApi]);
        built = { document, json: JSON.stringify(document) };
      }
      return built;
    },
  };
};

export type OpenApiService = ReturnType<typeof openApiService>;
export default openApiService;
