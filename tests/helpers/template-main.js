'use strict';
/**
 * Boots the compiled app once on an empty database and stops: what every first boot makes (the
 * tables, Strapi's roles and permissions, the plugin's defaults) is then in that database, which
 * tests/helpers/app.ts copies for each test file instead of making it again (on PostgreSQL that
 * took about 8 s a boot, against about 1.5 s from the copy). Run by the global setup in a process
 * of its own, with the environment a test file's app gets (see database-template.ts).
 */
const { createStrapi } = require('@strapi/strapi');

const [appDir, distDir] = process.argv.slice(2);

(async () => {
  const strapi = await createStrapi({ appDir, distDir, serveAdminPanel: false }).load();
  await strapi.destroy();
  process.exit(0);
})().catch((error) => {
  process.stderr.write(`${error.stack || error}\n`);
  process.exit(1);
});
