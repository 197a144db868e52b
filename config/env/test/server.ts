// Tests boot the app once per file; the startup banner would only bury the test output.
export default {
  logger: { startup: { enabled: false } },
};
