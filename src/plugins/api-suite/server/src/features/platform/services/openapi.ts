import { spawn } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Core } from '@strapi/strapi';
import { commonDescription } from '../../../contract/common';
import { contractKit, type ContractKit } from '../../../contract/kit';
import { DEFAULT_PREFIX, restPrefix, sitePathOf } from '../../../http/site-paths';
import { buildOpenApiDocument, type ApiDescription, type OpenApiDocument } from '../../../contract/openapi';
import { platformContracts } from '../validation/contracts';
import { openApiDocument } from '../validation/responses';

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

const metaApi: ApiDescription = {
  tags: [{ name: 'Meta', description: 'This description.' }],
  components: { OpenApiDocument: openApiDocument },
  operations: Object.values(platformContracts),
};

/** How long a failed generation of the types is answered before it is tried again. */
const TYPES_RETRY_MS = 60_000;

const openApiService = ({ strapi }: { strapi: Core.Strapi }) => {
  const descriptions: ApiDescription[] = [commonDescription];
  let built: { document: OpenApiDocument; json: string } | undefined;
  let types: Promise<string> | undefined;

  return {
    /** Add a description (a feature's, or the host's built with the kit); the document is rebuilt on next read. */
    add(description: ApiDescription | ((kit: ContractKit) => ApiDescription)): void {
      descriptions.push(typeof description === 'function' ? description(contractKit) : description);
      built = undefined;
      types = undefined;
    },

    document(): OpenApiDocument {
      return this.built().document;
    },

    /** The document serialised once, as the route answers it. */
    json(): string {
      return this.built().json;
    },

    /**
     * The document's TypeScript types (openapi-typescript), generated from the served document on
     * first request and kept for the life of the process. A failed generation is kept for a minute.
     */
    typescript(): Promise<string> {
      if (!types) {
        const pending = generateTypes(this.built().document);
        types = pending;
        // A failure is answered again for a minute, then tried afresh: an open route must not let
        // every caller start a generator process while it keeps failing.
        pending.catch(() => {
          setTimeout(() => {
            if (types === pending) types = undefined;
          }, TYPES_RETRY_MS).unref();
        });
      }
      return types;
    },

    built() {
      if (!built) {
        // The document's own route last, so the tags keep the order of the features.
        const document = underSitePrefix(buildOpenApiDocument(INFO, [...descriptions, metaApi]), restPrefix(strapi));
        built = { document, json: JSON.stringify(document) };
      }
      return built;
    },
  };
};

export type OpenApiService = ReturnType<typeof openApiService>;
export default openApiService;

/**
 * The descriptions name API paths (`/api/v1/keys`): on a site whose REST prefix is its own, the
 * document names the paths the site serves (`/content/v1/keys`).
 */
function underSitePrefix(document: OpenApiDocument, prefix: string): OpenApiDocument {
  if (prefix === DEFAULT_PREFIX) return document;
  const paths = Object.fromEntries(Object.entries(document.paths).map(([key, item]) => [sitePathOf(prefix, key), item]));
  return { ...document, paths };
}

/**
 * openapi-typescript in a child Node process: the generator is an ES module that loads the whole
 * TypeScript compiler, which the server then never holds in memory; the document goes in on
 * stdin and the declaration file comes out on stdout.
 */
function generateTypes(document: OpenApiDocument): Promise<string> {
  const entry = path.join(path.dirname(require.resolve('openapi-typescript/package.json')), 'dist', 'index.mjs');
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '--eval', GENERATOR], {
      env: { ...process.env, OPENAPI_TYPESCRIPT: pathToFileURL(entry).href },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0) resolve(Buffer.concat(out).toString('utf8'));
      else reject(new Error(`openapi-typescript failed (exit ${String(code)}): ${Buffer.concat(err).toString('utf8').slice(0, 2000)}`));
    });
    child.stdin.end(JSON.stringify(document));
  });
}

const GENERATOR = `
const { default: openapiTS, astToString, COMMENT_HEADER } = await import(process.env.OPENAPI_TYPESCRIPT);
let input = '';
for await (const chunk of process.stdin) input += chunk;
const nodes = await openapiTS(JSON.parse(input), { silent: true });
process.stdout.write(COMMENT_HEADER + astToString(nodes));
`;
