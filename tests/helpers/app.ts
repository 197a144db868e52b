import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { createStrapi, type Core } from '@strapi/strapi';
import supertest from 'supertest';
import { APP_DIR, DIST_DIR, TEST_TMP_DIR } from './paths';
import { createPostgresDatabase, requireEnv, usingPostgres } from './services';

export interface TestApp {
  strapi: Core.Strapi;
  /** Base URL of the listening server, such as http://127.0.0.1:41234 */
  url: string;
  request: () => ReturnType<typeof supertest>;
  /** The environment this app was booted with (a second instance boots with the same). */
  env: Record<string, string | undefined>;
  close: () => Promise<void>;
}

export interface StartOptions {
  /** Extra environment for this app (restored on close). */
  env?: Record<string, string | undefined>;
  /** Serve the built admin panel at /admin (browser tests); see `admin-build.ts`. */
  serveAdminPanel?: boolean;
}

/**
 * Boot the compiled app on its own fresh database (a SQLite file, or a new PostgreSQL database
 * when DATABASE_CLIENT=postgres) listening on an ephemeral port of 127.0.0.1, with fresh job
 * queue names. One per test file: call in beforeAll and close in afterAll.
 */
export async function startApp(options: StartOptions = {}): Promise<TestApp> {
  const id = `t${Date.now().toString(36)}${crypto.randomBytes(3).toString('hex')}`;
  const env: Record<string, string | undefined> = {
    NODE_ENV: 'test',
    HOST: '127.0.0.1',
    PORT: '0',
    SEED_DEMO_DATA: 'false',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'warn',
    JOBS_PREFIX: `test-${id}`,
    SECRETS_FILE: path.join(TEST_TMP_DIR, 'secrets.json'),
    ...options.env,
  };

  let dropDatabase = async () => {};
  if (usingPostgres) {
    const database = await createPostgresDatabase(requireEnv('DATABASE_URL'), id);
    env.DATABASE_URL = database.url;
    dropDatabase = database.drop;
  } else {
    const filename = path.join(TEST_TMP_DIR, `${id}.db`);
    env.DATABASE_FILENAME = filename;
    dropDatabase = async () => {
      for (const suffix of ['', '-wal', '-shm']) fs.rmSync(`${filename}${suffix}`, { force: true });
    };
  }

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
