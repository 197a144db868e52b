#!/usr/bin/env node
'use strict';
/**
 * Install the fresh-site test's dependencies into its cache (tests/helpers/fresh-site), if they
 * are not there yet. `.ci/run` starts this beside the type check and lint, so that a cold
 * install (about five minutes on a fresh machine, mostly the registry) overlaps work that uses
 * the CPU instead of adding to the run. The helper is TypeScript: compiled here with @swc/core,
 * the compiler the tests already use.
 */
const swc = require('@swc/core');

require.extensions['.ts'] = (module, filename) => {
  const { code } = swc.transformFileSync(filename, {
    jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
    module: { type: 'commonjs' },
  });
  module._compile(code, filename);
};

require('../tests/helpers/fresh-site')
  .warmFreshSiteDependencies()
  .then(({ dir, hit, seconds }) => {
    console.info(`[warm-fresh-site] ${hit ? 'already cached' : 'installed'} in ${dir} (${seconds} s)`);
  })
  .catch((error) => {
    console.error(`[warm-fresh-site] failed: ${error.stack || error.message}`);
    process.exit(1);
  });
