import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { APP_DIR, DIST_DIR, TEST_TMP_DIR } from './paths';
import {
  createMysqlDatabase,
  createPostgresDatabase,
  dropMysqlDatabase,
  dropPostgresDatabase,
  requireEnv,
  usingMysql,
  usingPostgres,
} from './services';

/**
 * The database every test file's app starts from: made once per run by the global setup, by a
 * first boot of the app in a process of its own. A file's app then boots on a copy (a file copy on
 * SQLite, `CREATE DATABASE … TEMPLATE` on PostgreSQL, its tables made again and filled on MySQL:
 * mysql.ts), which is a restart for Strapi rather than a
 * first boot: the schema is in place and its defaults are written. Boots that need something else
 * (an earlier release's database, a cluster of the test's own) do not use it.
 */
interface Template {
  /** The SQLite file, or the PostgreSQL or MySQL database's name on the run's server. */
  sqlite?: string;
  postgres?: string;
  mysql?: string;
}

const RECORD = path.join(TEST_TMP_DIR, 'database-template.json');

/** The environment a test file's app boots with, before its own (see startApp). */
export function baseEnv(id: string): Record<string, string | undefined> {
  return {
    NODE_ENV: 'test',
    HOST: '127.0.0.1',
    PORT: '0',
    SEED_DEMO_DATA: 'false',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'warn',
    JOBS_PREFIX: `test-${id}`,
    SECRETS_FILE: path.join(TEST_TMP_DIR, 'secrets.json'),
  };
}

/** Make the template (global setup; TEST_TMP_DIR is empty). Dropped again by the global teardown. */
export async function makeTemplate(): Promise<void> {
  const id = `tpl${Date.now().toString(36)}`;
  const env: NodeJS.ProcessEnv = { ...process.env, ...baseEnv(id) };
  const template: Template = {};
  if (usingPostgres) {
    const created = await createPostgresDatabase(requireEnv('DATABASE_URL'), `${id}_template`);
    env.DATABASE_URL = created.url;
    template.postgres = `${id}_template`;
  } else if (usingMysql) {
    const created = await createMysqlDatabase(requireEnv('DATABASE_URL'), `${id}_template`);
    env.DATABASE_URL = created.url;
    template.mysql = `${id}_template`;
  } else {
    env.DATABASE_FILENAME = template.sqlite = path.join(TEST_TMP_DIR, 'template.db');
  }
  // Written first, so that the teardown drops a half-made template too.
  fs.writeFileSync(RECORD, JSON.stringify(template));
  await promisify(execFile)(process.execPath, [path.join(__dirname, 'template-main.js'), APP_DIR, DIST_DIR], {
    cwd: APP_DIR,
    env,
    maxBuffer: 16 * 1024 * 1024,
  }).catch((error: Error & { stderr?: string }) => {
    throw new Error(`The first boot that makes the tests' database template failed: ${error.stderr ?? error.message}`);
  });
  if (template.sqlite) {
    for (const suffix of ['-wal', '-shm']) {
      if (fs.existsSync(`${template.sqlite}${suffix}`)) throw new Error(`The template ${template.sqlite} was not closed cleanly`);
    }
  }
}

function readTemplate(): Template | null {
  return fs.existsSync(RECORD) ? (JSON.parse(fs.readFileSync(RECORD, 'utf8')) as Template) : null;
}

/** A new SQLite file copied from the template; false when there is none (a test run without the global setup). */
export function copySqliteTemplate(filename: string): boolean {
  const template = readTemplate()?.sqlite;
  if (!template || !fs.existsSync(template)) return false;
  fs.copyFileSync(template, filename);
  return true;
}

/** The template's name on the run's PostgreSQL or MySQL server, if there is one. */
export function serverTemplate(): string | undefined {
  const template = readTemplate();
  return template?.postgres ?? template?.mysql;
}

/** Drop the template (global teardown). */
export async function dropTemplate(): Promise<void> {
  const template = readTemplate();
  if (template?.postgres) await dropPostgresDatabase(requireEnv('DATABASE_URL'), template.postgres);
  if (template?.mysql) await dropMysqlDatabase(requireEnv('DATABASE_URL'), template.mysql);
  if (template?.sqlite) fs.rmSync(template.sqlite, { force: true });
  fs.rmSync(RECORD, { force: true });
}
