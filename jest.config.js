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
  maxWorkers: 2,
};
