import type { Core } from '@strapi/strapi';

const config = ({ env }: Core.Config.Shared.ConfigParams): Core.Config.Middlewares => [
  'strapi::logger',
  // No empty Access-Control-Allow-Origin on answers to requests that sent no Origin.
  'global::omit-empty-cors',
  'strapi::errors',
  // A database or Redis that is away answers 503 with Retry-After on every route, not a 500.
  'plugin::api-suite.dependency-faults',
  'strapi::security',
  {
    name: 'strapi::cors',
    config: {
      // Browsers on the frontend's origin only, and a preflight cached for a day (docs/search-feed-cors.md#cors).
      origin: env('FRONTEND_ORIGIN', 'http://localhost:3000')
        .split(',')
        .map((origin: string) => origin.trim().replace(/\/+$/, ''))
        .filter(Boolean),
      methods: ['GET', 'POST', 'PUT', 'DELETE', 'OPTIONS'],
      headers: ['Content-Type', 'Authorization', 'X-API-Key'],
      maxAge: 86400,
      keepHeadersOnError: true,
    },
  },
  'strapi::poweredBy',
  'strapi::query',
  // API keys, OAuth tokens, plans and quotas for the prefixes the api-suite config names
  // (/api/v1 and /api/webhooks): before the body parser, so refused requests cost no parsing.
  // API_SUITE_ACCESS_MIDDLEWARE=off leaves it out, as a site that forgot it would (a test does).
  ...(env('API_SUITE_ACCESS_MIDDLEWARE', 'on') === 'off' ? [] : ['plugin::api-suite.access']),
  // The exact bytes of Stripe's webhooks for their signature (that route only), and the body
  // parser's refusals on the commerce routes in their own error shapes: just before the parser.
  'plugin::api-suite.commerce-body',
  'strapi::body',
  // Bodies no route should see (not JSON where JSON is due, NUL characters) and filters Strapi's
  // query engine cannot take: refused with 400 or 415 in the route's own error shape.
  'plugin::api-suite.input-guard',
  'strapi::session',
  'strapi::favicon',
  'strapi::public',
];

export default config;
