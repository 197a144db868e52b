// create-strapi-app 5.54's template, but for serveAdminPanel: the admin panel is not built (its
// API routes, /admin/register-admin, /content-manager/* and the plugin's /api-suite/*, still answer).
module.exports = ({ env }) => ({
  auth: {
    secret: env('ADMIN_JWT_SECRET'),
  },
  apiToken: {
    salt: env('API_TOKEN_SALT'),
  },
  transfer: {
    token: {
      salt: env('TRANSFER_TOKEN_SALT'),
    },
  },
  secrets: {
    encryptionKey: env('ENCRYPTION_KEY'),
  },
  flags: {
    nps: env.bool('FLAG_NPS', true),
    promoteEE: env.bool('FLAG_PROMOTE_EE', true),
    docLinks: env.bool('FLAG_DOC_LINKS', true),
  },
  serveAdminPanel: env.bool('SERVE_ADMIN_PANEL', false),
});
