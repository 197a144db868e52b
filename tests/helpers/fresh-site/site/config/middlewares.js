// create-strapi-app 5.54's list, with the api-suite plugin's middlewares placed as docs/installing.md says:
// its two global middlewares just before 'strapi::body', its input guard just after it, and its
// dependency-faults middleware just after 'strapi::errors'.
module.exports = [
  'strapi::logger',
  'strapi::errors',
  'plugin::api-suite.dependency-faults',
  'strapi::security',
  'strapi::cors',
  'strapi::poweredBy',
  'strapi::query',
  'plugin::api-suite.access',
  'plugin::api-suite.commerce-body',
  'strapi::body',
  'plugin::api-suite.input-guard',
  'strapi::session',
  'strapi::favicon',
  'strapi::public',
];
