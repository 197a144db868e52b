'use strict';
/**
 * The PostgreSQL and Redis chores the benchmarks that run on them share: a statement, a fresh
 * database beside the one named (dropped at the end), and clearing a run's queue keys.
 */
const { Client } = require('pg');
const { Redis } = require('ioredis');

/** One statement on its own connection; its rows. */
async function sql(url, text, values) {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text, values)).rows;
  } finally {
    await client.end();
  }
}

/** A fresh database named `<prefix>_<now>` beside the one `url` names; `drop` removes it. */
async function freshPostgres(url, prefix) {
  const name = `${prefix}_${Date.now()}`;
  await sql(url, `CREATE DATABASE "${name}"`);
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return { url: parsed.toString(), drop: () => sql(url, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`) };
}

/** Delete the keys matching `pattern` (a run's queues: every app of the run shares its prefix). */
async function dropKeys(url, pattern) {
  const redis = new Redis(url);
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
      if (keys.length > 0) await redis.unlink(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

module.exports = { sql, freshPostgres, dropKeys };
