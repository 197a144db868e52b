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
  testTimeout: 60000,
  // More test files than cores: a file spends much of its time waiting (on its server, receivers,
  // timers), so four at once on two cores finish sooner (measured: the webhooks and access API
  // tests in 64 s against 98 s with two) and the suite passes the same.
  maxWorkers: 4,
};
