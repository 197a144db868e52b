import type { Core } from '@strapi/strapi';

const config = ({ env }: Core.Config.Shared.ConfigParams): Core.Config.Api => ({
  rest: {
    // The REST prefix a site may choose (`/api` by default); API_REST_PREFIX lets a test boot a site with its own.
    prefix: env('API_REST_PREFIX', '/api'),
    defaultLimit: 25,
    maxLimit: 100,
    withCount: true,
  },
});

export default config;
