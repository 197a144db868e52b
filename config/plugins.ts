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
    // No `config`: the plugin reads its own variables (PORTAL_ENABLED, PORTAL_PATH,
    // OUTBOUND_ALLOW_PRIVATE, …) with its own strict rules (server/src/config.ts). A key set
    // here overrides that reading, so do not read those variables here a second time.
  },
});

export default config;
