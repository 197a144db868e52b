import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '@jest/types';
import { APP_DIR, DIST_DIR, TEST_TMP_DIR } from './paths';

/**
 * The built admin panel for the browser tests: `strapi build` writes it to dist/build, which the
 * app serves at /admin when booted with `serveAdminPanel: true`. Building takes a minute or two,
 * so it is kept between runs and done again only when what goes into it changed: the plugin's
 * admin sources and build, the app's admin customisation and config, and the installed packages.
 */
const BUILD_DIR = path.join(DIST_DIR, 'build');
const KEY_FILE = path.join(BUILD_DIR, '.api-suite-build-key');
const LOG_FILE = path.join(APP_DIR, '.tmp', 'admin-build.log');
const E2E_DIR = path.join(APP_DIR, 'tests', 'e2e');

const INPUTS = [
  'src/plugins/api-suite/admin',
  // What the bundle actually imports (the plugin's build is deterministic, so this is stable).
  'src/plugins/api-suite/dist/admin',
  'src/plugins/api-suite/package.json',
  'src/admin',
  'config/admin.ts',
  'config/server.ts',
  'config/plugins.ts',
  'package-lock.json',
];

/** A digest of everything the admin bundle is built from. */
export function adminBuildKey(): string {
  const hash = crypto.createHash('sha256');
  for (const input of INPUTS) {
    for (const file of filesUnder(path.join(APP_DIR, input))) {
      hash.update(path.relative(APP_DIR, file));
      hash.update('\0');
      hash.update(fs.readFileSync(file));
      hash.update('\0');
    }
  }
  return hash.digest('hex');
}

export function adminBuildIsCurrent(): boolean {
  return (
    fs.existsSync(path.join(BUILD_DIR, 'index.html')) && fs.existsSync(KEY_FILE) && fs.readFileSync(KEY_FILE, 'utf8') === adminBuildKey()
  );
}

/**
 * Build the admin panel unless the one in dist/build is current. Runs `strapi build` in a child
 * process (it compiles the app too, which is why this runs in the global setup, before any test
 * file loads the compiled app). Returns whether a build ran.
 */
export async function ensureAdminBuild(): Promise<boolean> {
  if (adminBuildIsCurrent()) return false;
  const key = adminBuildKey();
  const started = Date.now();
  fs.mkdirSync(path.dirname(LOG_FILE), { recursive: true });
  const log = fs.openSync(LOG_FILE, 'w');
  const cli = path.join(path.dirname(require.resolve('@strapi/strapi/package.json', { paths: [APP_DIR] })), 'bin', 'strapi.js');
  const code = await new Promise<number | null>((resolve, reject) => {
    const child = spawn(process.execPath, [cli, 'build'], {
      cwd: APP_DIR,
      env: {
        ...process.env,
        // The build loads the app's config; outside production the secrets come from the tests' file.
        NODE_ENV: 'test',
        SECRETS_FILE: path.join(TEST_TMP_DIR, 'secrets.json'),
        STRAPI_TELEMETRY_DISABLED: 'true',
      },
      stdio: ['ignore', log, log],
    });
    child.once('error', reject);
    child.once('exit', resolve);
  });
  fs.closeSync(log);
  if (code !== 0) {
    const tail = fs.readFileSync(LOG_FILE, 'utf8').split('\n').slice(-40).join('\n');
    throw new Error(`strapi build failed with ${code} (full log: ${LOG_FILE}):\n${tail}`);
  }
  fs.writeFileSync(KEY_FILE, key);
  // eslint-disable-next-line no-console
  console.log(`[tests] admin panel built in ${Math.round((Date.now() - started) / 1000)} s (log: ${path.relative(APP_DIR, LOG_FILE)})`);
  return true;
}

/** For the browser tests: fail with a clear message when the global setup did not build the admin. */
export function assertAdminBuilt(): void {
  if (!adminBuildIsCurrent()) {
    throw new Error(
      'The admin panel in dist/build is missing or stale: run the browser tests through Jest (`npm test` or `npx jest tests/e2e`), whose global setup builds it'
    );
  }
}

/** Whether this Jest run includes any browser test, so runs without them never pay for the build. */
export function browserTestsSelected(globalConfig: Config.GlobalConfig, projectConfig: Config.ProjectConfig): boolean {
  if (!fs.existsSync(E2E_DIR)) return false;
  const files = fs
    .readdirSync(E2E_DIR)
    .filter((name) => name.endsWith('.test.ts'))
    .map((name) => path.join(E2E_DIR, name));
  const ignored = projectConfig.testPathIgnorePatterns.map((pattern) => new RegExp(pattern));
  const selected = globalConfig.testPathPatterns.toExecutor({ rootDir: globalConfig.rootDir });
  return files.some((file) => !ignored.some((pattern) => pattern.test(file)) && (!selected.isSet() || selected.isMatch(file)));
}

function filesUnder(target: string): string[] {
  if (!fs.existsSync(target)) return [];
  const stat = fs.statSync(target);
  if (stat.isFile()) return [target];
  return fs
    .readdirSync(target, { withFileTypes: true })
    .filter((entry) => entry.name !== 'node_modules' && entry.name !== 'dist')
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap((entry) => filesUnder(path.join(target, entry.name)));
}
