'use strict';
/**
 * A second instance of the app in its own process (Strapi is one per process), started by
 * tests/helpers/instance.ts with the first instance's environment: same database, same Redis,
 * same queue prefix. Prints {"port":N} once it listens; SIGTERM shuts it down cleanly.
 */
const { createStrapi } = require('@strapi/strapi');

const [appDir, distDir] = process.argv.slice(2);

(async () => {
  const strapi = await createStrapi({ appDir, distDir, serveAdminPanel: false }).load();
  await strapi.listen();
  process.stdout.write(`${JSON.stringify({ port: strapi.server.httpServer.address().port })}\n`);
  const stop = async () => {
    await strapi.destroy();
    process.exit(0);
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
})().catch((error) => {
  process.stderr.write(`${error.stack || error}\n`);
  process.exit(1);
});
