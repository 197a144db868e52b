/**
 * GET /api/v1/openapi.json: the OpenAPI 3.1 description of the /api/v1 API. Strapi mounts the
 * routes of src/api/<name>/routes on its content API, under the `/api` prefix. Open to anyone:
 * the api-suite access middleware lets this path through without credentials.
 */
export default {
  routes: [
    {
      method: 'GET',
      path: '/v1/openapi.json',
      handler: 'openapi.document',
      config: { auth: false as const },
    },
  ],
};
