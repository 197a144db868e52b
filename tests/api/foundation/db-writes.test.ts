import { dialectOf, insertRows, toDate, writeMany, type Column, type UpdateColumn } from '../../../src/plugins/api-suite/server/src/db';
import { startApp, type TestApp } from '../../helpers/app';

/**
 * The batched write paths of the delivery engine against the suite's real database (SQLite,
 * PostgreSQL with one JSON document per statement, or MySQL with a joined derived table): values
 * shared by every row (`constants`) land in every row, a column kept when null keeps its value,
 * and timestamps read back as written.
 */
let app: TestApp;
const TABLE = 'test_db_writes';

beforeAll(async () => {
  app = await startApp();
  const knex = app.strapi.db.connection;
  await knex.schema.dropTableIfExists(TABLE);
  await knex.schema.createTable(TABLE, (table) => {
    table.increments('id');
    table.string('key');
    table.string('status');
    table.integer('count');
    // Microseconds, as Strapi's own datetime columns: MySQL's DATETIME alone drops the milliseconds.
    table.datetime('at', { precision: 6 });
    table.datetime('kept_at', { precision: 6 });
    table.json('data');
  });
});

afterAll(async () => {
  await app?.strapi.db.connection.schema.dropTableIfExists(TABLE);
  await app?.close();
});

const COLUMNS: Column[] = [
  { name: 'key', kind: 'text' },
  { name: 'status', kind: 'text' },
  { name: 'count', kind: 'integer' },
  { name: 'at', kind: 'timestamp' },
  { name: 'data', kind: 'json' },
];
const UPDATES: UpdateColumn[] = [
  { name: 'status', kind: 'text' },
  { name: 'count', kind: 'integer' },
  { name: 'kept_at', kind: 'timestamp', keepWhenNull: true },
];

async function rows(): Promise<
  Array<{ key: string; status: string; count: number; at: Date | null; kept_at: Date | null; data: unknown }>
> {
  const found = (await app.strapi.db.connection(TABLE).select('key', 'status', 'count', 'at', 'kept_at', 'data').orderBy('key')) as Array<
    Record<string, unknown>
  >;
  return found.map((row) => ({
    key: row.key as string,
    status: row.status as string,
    count: Number(row.count),
    at: toDate(row.at),
    kept_at: toDate(row.kept_at),
    data: typeof row.data === 'string' ? JSON.parse(row.data) : row.data,
  }));
}

it('inserts rows with the values every row shares, and updates them in one unit keeping a null-kept column', async () => {
  const knex = app.strapi.db.connection;
  const client = dialectOf(app.strapi);
  const at = new Date('2026-11-25T18:00:00.123Z');
  await insertRows(
    knex,
    client,
    TABLE,
    COLUMNS,
    [
      { key: 'a', data: '{"say":"\\"hi\\""}' },
      { key: 'b', data: { nested: [1, null] } },
    ],
    { status: 'pending', count: 0, at }
  );
  expect(await rows()).toEqual([
    { key: 'a', status: 'pending', count: 0, at, kept_at: null, data: { say: '"hi"' } },
    { key: 'b', status: 'pending', count: 0, at, kept_at: null, data: { nested: [1, null] } },
  ]);

  const kept = new Date('2026-11-25T18:00:01.007Z');
  await writeMany(knex, client, [
    {
      update: TABLE,
      key: { name: 'key', kind: 'text' },
      columns: UPDATES,
      rows: [{ key: 'a', kept_at: kept }, { key: 'b' }],
      constants: { status: 'done', count: 1 },
    },
  ]);
  const [a, b] = await rows();
  expect([a.status, a.count, a.kept_at, b.status, b.count, b.kept_at]).toEqual(['done', 1, kept, 'done', 1, null]);

  // A null constant for a column kept when null keeps what each row has: its own value, else the stored one.
  const own = new Date('2026-11-25T18:00:02.050Z');
  await writeMany(knex, client, [
    {
      update: TABLE,
      key: { name: 'key', kind: 'text' },
      columns: UPDATES,
      rows: [{ key: 'a' }, { key: 'b', kept_at: own }],
      constants: { status: 'again', count: 2, kept_at: null },
    },
  ]);
  const [a2, b2] = await rows();
  expect([a2.status, a2.count, a2.kept_at, b2.status, b2.kept_at]).toEqual(['again', 2, kept, 'again', own]);
});
