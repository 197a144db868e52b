// Tests boot the app once per file; the startup banner would only bury the test output, and tests
// talk to 127.0.0.1 only, so Strapi does not ask the npm registry for a newer version either.
export default {
  logger: { startup: { enabled: false }, updates: { enabled: false } },
};
