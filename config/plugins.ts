import type { Core } from '@strapi/strapi';
import { secret } from '../src/lib/secrets';

const config = ({ env }: Core.Config.Shared.ConfigParams): Core.Config.Plugin => ({
  'users-permissions': {
    config: {
      jwtSecret: secret('JWT_SECRET'),
      jwt: { expiresIn: '7d' },
    },
  },
  email: {
    config: env('SMTP_HOST')
      ? {
          provider: 'nodemailer',
          providerOptions: {
            host: env('SMTP_HOST'),
            port: env.int('SMTP_PORT', 587),
            secure: env.int('SMTP_PORT', 587) === 465,
            // Local relays and test servers speak plain SMTP; STARTTLS is still used when offered.
            ignoreTLS: env.bool('SMTP_IGNORE_TLS', false),
            auth: env('SMTP_USER') ? { user: env('SMTP_USER'), pass: env('SMTP_PASS') } : undefined,
          },
          settings: {
            defaultFrom: env('EMAIL_FROM', 'no-reply@localhost'),
            defaultReplyTo: env('EMAIL_FROM', 'no-reply@localhost'),
          },
        }
      : {
          // No SMTP configured: e-mails are written to the log instead of being sent anywhere.
          provider: 'strapi-provider-email-log',
          settings: { defaultFrom: env('EMAIL_FROM', 'no-reply@localhost') },
        },
  },
  'api-suite': {
    enabled: true,
    resolve: './src/plugins/api-suite',
    // Only what is this site's own: what its plan tiers reach and what is searchable. The rest the
    // plugin reads from its own variables (PORTAL_ENABLED, PORTAL_PATH, OUTBOUND_ALLOW_PRIVATE, …)
    // with its own strict rules (server/src/config.ts); a key set here overrides that reading, so
    // do not read those variables here a second time.
    config: {
      access: {
        // The versioned articles are what this site sells; a site that names nothing gets its own content API.
        endpointGroups: {
          public: ['GET /api/v1/articles*'],
          private: ['* /api/v1/articles*', '* /api/v1/scrapers*', 'POST /api/v1/webhooks', '* /api/webhooks/*'],
        },
      },
      search: {
        collections: {
          articles: { contentType: 'article', fields: ['title', 'excerpt'], where: { status: 'published' } },
          products: { contentType: 'product', fields: ['name', 'description'], where: { published: true, deleted: false } },
          // Draft-and-publish: only the published version is searched.
          pages: { contentType: 'page', fields: ['title'] },
        },
        defaultCollections: ['articles', 'products'],
      },
    },
  },
});

export default config;
