import mysql from 'mysql2/promise';

/**
 * Databases of the run's MySQL or MariaDB server, one per test file. MySQL has no
 * `CREATE DATABASE … TEMPLATE`: a copy of the run's template (database-template.ts) is its tables
 * made again from `SHOW CREATE TABLE` (which, unlike `CREATE TABLE … LIKE`, keeps the foreign keys
 * that Strapi, seeing its schema unchanged, would not add back) and filled by `INSERT … SELECT`,
 * all in one round trip. On this machine's MariaDB 10.11, loaded by a test run, that copy of 73
 * tables took about 3.5 s and dropping a database 1.5 s, against about 21 s for a first boot of
 * the app on an empty database (which a copy spares each file, leaving a restart's boot).
 */

/** Create an empty database, or a copy of `template`; returns its URL and a function that drops it. */
export async function createMysqlDatabase(
  baseUrl: string,
  name: string,
  template?: string
): Promise<{ url: string; drop: () => Promise<void> }> {
  const admin = await serverConnection(baseUrl);
  try {
    await admin.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4`);
    if (template) await copyTables(admin, template, name);
  } catch (error) {
    await admin.query(`DROP DATABASE IF EXISTS \`${name}\``).catch(() => undefined);
    throw error;
  } finally {
    await admin.end();
  }
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => dropMysqlDatabase(baseUrl, name) };
}

export async function dropMysqlDatabase(baseUrl: string, name: string): Promise<void> {
  const admin = await serverConnection(baseUrl);
  try {
    await admin.query(`DROP DATABASE IF EXISTS \`${name}\``);
  } finally {
    await admin.end();
  }
}

export async function assertMysqlReachable(baseUrl: string): Promise<void> {
  try {
    const admin = await serverConnection(baseUrl);
    await admin.query('select 1');
    await admin.end();
  } catch (error) {
    throw new Error(`MySQL at ${baseUrl} is not reachable (${(error as Error).message}); start it or unset DATABASE_CLIENT`, {
      cause: error,
    });
  }
}

/** The template's tables as statements, read once per process (every file's copy is of the same template). */
const definitions = new Map<string, Promise<string[]>>();

async function copyTables(admin: mysql.Connection, template: string, name: string): Promise<void> {
  let made = definitions.get(template);
  if (!made) {
    made = readDefinitions(admin, template);
    definitions.set(template, made);
  }
  const statements = await made;
  // One batch: creating a table is a round trip of its own otherwise, and there are about a hundred.
  await admin.query(['SET FOREIGN_KEY_CHECKS = 0', `USE \`${name}\``, ...statements, 'SET FOREIGN_KEY_CHECKS = 1'].join(';\n'));
}

async function readDefinitions(admin: mysql.Connection, template: string): Promise<string[]> {
  const [tables] = (await admin.query(
    "SELECT TABLE_NAME AS name FROM information_schema.TABLES WHERE TABLE_SCHEMA = ? AND TABLE_TYPE = 'BASE TABLE'",
    [template]
  )) as unknown as [Array<{ name: string }>];
  const statements: string[] = [];
  for (const { name } of tables) {
    const [[created]] = (await admin.query(`SHOW CREATE TABLE \`${template}\`.\`${name}\``)) as unknown as [
      Array<{ 'Create Table': string }>,
    ];
    statements.push(created['Create Table']);
    const [[counted]] = (await admin.query(`SELECT COUNT(*) AS n FROM \`${template}\`.\`${name}\``)) as unknown as [Array<{ n: number }>];
    if (Number(counted.n) > 0) statements.push(`INSERT INTO \`${name}\` SELECT * FROM \`${template}\`.\`${name}\``);
  }
  return statements;
}

/** A connection to the server itself (no database: the URL's may not exist yet), taking several statements at once. */
function serverConnection(baseUrl: string): Promise<mysql.Connection> {
  const url = new URL(baseUrl);
  return mysql.createConnection({
    host: url.hostname,
    port: Number(url.port || 3306),
    user: decodeURIComponent(url.username),
    password: decodeURIComponent(url.password),
    multipleStatements: true,
    connectTimeout: 3000,
  });
}
