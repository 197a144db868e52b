import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { createStrapi, type Core } from '@strapi/strapi';
import zlib from 'node:zlib';
import { Client } from 'pg';
import supertest from 'supertest';
import { APP_DIR, DIST_DIR, TEST_TMP_DIR } from './paths';
import { baseEnv, copySqliteTemplate, serverTemplate } from './database-template';
import {
  createMysqlDatabase,
  createPostgresDatabase,
  dropMysqlDatabase,
  dropPostgresDatabase,
  requireEnv,
  usingMysql,
  usingPostgres,
  usingServer,
} from './services';

export interface TestApp {
  strapi: Core.Strapi;
  /** Base URL of the listening server, such as http://127.0.0.1:41234 */
  url: string;
  request: () => ReturnType<typeof supertest>;
  /** The environment this app was booted with (a second instance boots with the same). */
  env: Record<string, string | undefined>;
  /** The database: the SQLite file, or the PostgreSQL or MySQL URL. */
  database: string;
  close: () => Promise<void>;
}

export interface StartOptions {
  /** Extra environment for this app (restored on close). */
  env?: Record<string, string | undefined>;
  /** Serve the built admin panel at /admin (browser tests); see `admin-build.ts`. */
  serveAdminPanel?: boolean;
  /**
   * Start from a database an earlier release made (upgrade tests): a gzipped SQLite file, or a
   * gzipped plain `pg_dump --inserts` of PostgreSQL, whichever the run uses.
   */
  restore?: { sqlite: string; postgres: string };
  /** PostgreSQL runs only: reach the new database through another host and port (a test's TCP proxy). */
  databaseVia?: { host: string; port: number };
  /**
   * Boot on a new database of this PostgreSQL server (a test's own cluster, `postgres-cluster.ts`)
   * whatever database the run uses.
   */
  postgres?: string;
  /** Leave the database in place on close (to make such a fixture); `database` says where it is. */
  keepDatabase?: boolean;
  /**
   * Boot on the database an earlier app of this file left in place (`keepDatabase`), as a
   * restart of the same site does; it is dropped on close unless `keepDatabase` is set again.
   */
  database?: string;
}

/**
 * Boot the compiled app on its own new database (a SQLite file, or a new PostgreSQL database
 * when DATABASE_CLIENT=postgres), copied from the run's template of a first boot
 * (database-template.ts), listening on an ephemeral port of 127.0.0.1, with fresh job queue
 * names. One per test file: call in beforeAll and close in afterAll.
 */
export async function startApp(options: StartOptions = {}): Promise<TestApp> {
  // The app refused MySQL until after that release: there is no database of it to upgrade.
  if (options.restore && usingMysql && !options.postgres)
    throw new Error('No earlier release ran on MySQL: upgrade tests run on SQLite and PostgreSQL');
  const id = `t${Date.now().toString(36)}${crypto.randomBytes(3).toString('hex')}`;
  const env: Record<string, string | undefined> = { ...baseEnv(id), ...options.env };

  let dropDatabase = async () => {};
  let database: string;
  if (options.database) {
    const kept = options.database;
    if (usingServer) env.DATABASE_URL = kept;
    else env.DATABASE_FILENAME = kept;
    database = kept;
    dropDatabase = () => dropKeptDatabase(kept);
  } else if (usingServer || options.postgres) {
    if (options.postgres) env.DATABASE_CLIENT = 'postgres';
    // A new database on the run's server starts as a copy of the run's template (database-template.ts).
    const template = options.postgres || options.restore ? undefined : serverTemplate();
    const create = usingMysql && !options.postgres ? createMysqlDatabase : createPostgresDatabase;
    const created = await create(options.postgres ?? requireEnv('DATABASE_URL'), id, template);
    env.DATABASE_URL = database = created.url;
    if (options.databaseVia) {
      const via = new URL(created.url);
      via.hostname = options.databaseVia.host;
      via.port = String(options.databaseVia.port);
      env.DATABASE_URL = via.toString();
    }
    dropDatabase = created.drop;
    if (options.restore) await restorePostgres(created.url, options.restore.postgres);
  } else {
    const filename = path.join(TEST_TMP_DIR, `${id}.db`);
    env.DATABASE_FILENAME = database = filename;
    dropDatabase = async () => {
      for (const suffix of ['', '-wal', '-shm']) fs.rmSync(`${filename}${suffix}`, { force: true });
    };
    if (options.restore) fs.writeFileSync(filename, zlib.gunzipSync(fs.readFileSync(options.restore.sqlite)));
    else copySqliteTemplate(filename);
  }
  if (options.keepDatabase) dropDatabase = async () => {};

  const restoreEnv = applyEnv(env);
  let strapi: Core.Strapi;
  try {
    strapi = await createStrapi({ appDir: APP_DIR, distDir: DIST_DIR, serveAdminPanel: options.serveAdminPanel ?? false }).load();
    await strapi.listen();
  } catch (error) {
    restoreEnv();
    await dropDatabase();
    throw error;
  }
  const { port } = strapi.server.httpServer.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;

  return {
    strapi,
    url,
    request: () => supertest(url),
    env,
    database,
    async close() {
      try {
        await strapi.destroy();
      } finally {
        restoreEnv();
        await dropDatabase();
      }
    },
  };
}

/** Drop a database an app left in place (`keepDatabase`) when no later app took it over. */
export async function dropKeptDatabase(database: string): Promise<void> {
  if (usingPostgres) {
    await dropPostgresDatabase(requireEnv('DATABASE_URL'), new URL(database).pathname.slice(1));
    return;
  }
  if (usingMysql) {
    await dropMysqlDatabase(requireEnv('DATABASE_URL'), new URL(database).pathname.slice(1));
    return;
  }
  for (const suffix of ['', '-wal', '-shm']) fs.rmSync(`${database}${suffix}`, { force: true });
}

/** Load a gzipped plain-SQL dump (`pg_dump --inserts`) into an empty database, without psql. */
async function restorePostgres(url: string, dumpFile: string): Promise<void> {
  const sql = zlib
    .gunzipSync(fs.readFileSync(dumpFile))
    .toString('utf8')
    .split('\n')
    // psql meta-commands (\restrict and the like) are psql's, not SQL.
    .filter((line) => !line.startsWith('\\'))
    .join('\n');
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

function applyEnv(env: Record<string, string | undefined>): () => void {
  const previous = Object.fromEntries(Object.keys(env).map((key) => [key, process.env[key]]));
  for (const [key, value] of Object.entries(env)) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
  return () => {
    for (const [key, value] of Object.entries(previous)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  };
}
