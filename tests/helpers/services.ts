import { Client } from 'pg';
import net from 'node:net';

/**
 * Which backing services this run uses. The same suite runs on SQLite with the in-process jobs
 * driver, on PostgreSQL with Redis and on MySQL or MariaDB (CI does all three); a test that needs
 * a service it was not given fails rather than skipping silently.
 */
export const databaseClient = (process.env.DATABASE_CLIENT ?? 'sqlite') as 'sqlite' | 'postgres' | 'mysql';
export const usingPostgres = databaseClient === 'postgres';
export const usingMysql = databaseClient === 'mysql';
/** A server of its own that a test can take away (PostgreSQL or MySQL), as against SQLite's file in the process. */
export const usingServer = usingPostgres || usingMysql;
export const redisUrl = process.env.REDIS_URL;

export function requireEnv(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} must be set for this run`);
  return value;
}

/** Create an empty database for one test file; returns its URL and a function that drops it. */
export async function createPostgresDatabase(
  baseUrl: string,
  name: string,
  template?: string
): Promise<{ url: string; drop: () => Promise<void> }> {
  const admin = new Client({ connectionString: baseUrl });
  await admin.connect();
  try {
    await admin.query(template ? `CREATE DATABASE "${name}" TEMPLATE "${template}"` : `CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => dropPostgresDatabase(baseUrl, name) };
}

export async function dropPostgresDatabase(baseUrl: string, name: string): Promise<void> {
  const client = new Client({ connectionString: baseUrl });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  } finally {
    await client.end();
  }
}

export async function assertPostgresReachable(baseUrl: string): Promise<void> {
  const client = new Client({ connectionString: baseUrl, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('select 1');
  } catch (error) {
    throw new Error(`PostgreSQL at ${baseUrl} is not reachable (${(error as Error).message}); start it or unset DATABASE_CLIENT`, {
      cause: error,
    });
  } finally {
    await client.end().catch(() => undefined);
  }
}

export { assertMysqlReachable, createMysqlDatabase, dropMysqlDatabase } from './mysql';

export async function assertRedisReachable(url: string): Promise<void> {
  const { hostname, port } = new URL(url);
  await new Promise<void>((resolve, reject) => {
    const socket = net.connect({ host: hostname, port: Number(port || 6379) });
    const fail = (error: Error) => {
      socket.destroy();
      reject(new Error(`Redis at ${url} is not reachable (${error.message}); start it or unset REDIS_URL`));
    };
    socket.setTimeout(3000, () => fail(new Error('timeout')));
    socket.once('error', fail);
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (data) => {
      socket.end();
      if (data.toString().startsWith('+PONG')) resolve();
      else fail(new Error(`unexpected answer ${data.toString().trim()}`));
    });
  });
}
