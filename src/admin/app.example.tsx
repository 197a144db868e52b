import type { StrapiApp } from '@strapi/strapi/admin';

// Rename to app.tsx to customise the admin panel (locales, theme, logos).
export default {
  config: {
    locales: [],
  },
  bootstrap(app: StrapiApp) {
    console.log(app);
  },
};
