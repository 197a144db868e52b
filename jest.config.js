/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  // Strapi keeps itself on global.strapi; each test file boots and destroys its own instance.
  testEnvironmentOptions: { globalsCleanup: 'off' },
  roots: ['<rootDir>/tests', '<rootDir>/src/plugins/api-suite/server'],
  testMatch: ['**/*.test.ts'],
  transform: {
    '^.+\\.(t|j)sx?$': ['@swc/jest', { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'commonjs' } }],
  },
  modulePathIgnorePatterns: ['<rootDir>/dist', '<rootDir>/src/plugins/api-suite/dist', '<rootDir>/.tmp'],
  globalSetup: '<rootDir>/tests/helpers/global-setup.ts',
  globalTeardown: '<rootDir>/tests/helpers/global-teardown.ts',
  // Two minutes, hooks included: a file's app boots in 10-20 s alone, but CI runs two passes side by
  // side on two cores, and there boots took over 60 s now and then (a hook timeout failed the file).
  testTimeout: 120000,
  // More test files than cores: a file spends much of its time waiting (on its server, receivers,
  // timers), so more at once than cores finish sooner (the webhooks and access API tests: 64 s with
  // four against 98 s with two). Three, not four: at four, a wall-clock bound of the scraper rate
  // limiter's unit test (tests/unit/crawler.test.ts) was missed once in three CI runs on two cores.
  maxWorkers: 3,
  // A worker runs file after file, each booting a Strapi of its own, and what a boot leaves behind
  // adds up: in a 36-minute CI pass one worker reached its 4 GB heap and crashed (the file it was
  // on failed). A worker past this much memory once a file ends is replaced by a fresh one.
  workerIdleMemoryLimit: '1GB',
};
