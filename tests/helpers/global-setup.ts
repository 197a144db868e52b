import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '@jest/types';
import { browserTestsSelected, ensureAdminBuild } from './admin-build';
import { makeTemplate } from './database-template';
import { APP_DIR, TEST_TMP_DIR } from './paths';
import {
  assertMysqlReachable,
  assertPostgresReachable,
  assertRedisReachable,
  databaseClient,
  redisUrl,
  requireEnv,
  usingMysql,
  usingPostgres,
} from './services';

// A plain JS module shared with the benchmarks (bench/lib/app.js).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { compileApp } = require('../../scripts/compile-app') as { compileApp(appDir: string): Promise<void> };

/**
 * Compile the app once for every test file, check the services this run was given, and build the
 * admin panel when the run includes browser tests (kept between runs while its inputs are unchanged).
 */
export default async function globalSetup(globalConfig: Config.GlobalConfig, projectConfig: Config.ProjectConfig): Promise<void> {
  const pluginDist = path.join(APP_DIR, 'src', 'plugins', 'api-suite', 'dist', 'server', 'index.js');
  if (!fs.existsSync(pluginDist)) {
    throw new Error('The api-suite plugin is not built: run the tests with `npm test` (it builds the plugin first)');
  }
  if (usingPostgres) await assertPostgresReachable(requireEnv('DATABASE_URL'));
  if (usingMysql) await assertMysqlReachable(requireEnv('DATABASE_URL'));
  if (redisUrl) await assertRedisReachable(redisUrl);

  fs.rmSync(TEST_TMP_DIR, { recursive: true, force: true });
  fs.mkdirSync(TEST_TMP_DIR, { recursive: true });
  process.env.NODE_ENV = 'test';
  await compileApp(APP_DIR);
  const browserTests = browserTestsSelected(globalConfig, projectConfig);
  // Before any test file starts: `strapi build` also recompiles the app that test files load.
  if (browserTests) await ensureAdminBuild();
  // One first boot for the whole run; every test file's app starts from a copy of its database.
  await makeTemplate();
  // eslint-disable-next-line no-console
  console.log(
    `\n[tests] database: ${databaseClient}; jobs: ${redisUrl ? `bullmq (${redisUrl})` : 'in-process'}; browser tests: ${browserTests ? 'yes' : 'no'}\n`
  );
}
