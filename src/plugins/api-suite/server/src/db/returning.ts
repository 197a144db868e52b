import type { Knex } from './types';

// Writes whose answer (the new id, whether a row was new, the rows changed) MySQL cannot give
// through RETURNING: MySQL 8 has none, and MariaDB's (10.5+ for INSERT and DELETE) is not MySQL's.
// knex ignores `.returning()` there with a warning on every call, and answers the insert id or
// the affected rows instead.

/** Insert one row and answer its id. */
export async function insertReturningId(knex: Knex, client: string, table: string, row: Record<string, unknown>): Promise<number> {
  const query = knex(table).insert(row);
  const [inserted] = (await (client === 'mysql' ? query : query.returning('id'))) as Array<{ id: number } | number>;
  return Number(typeof inserted === 'object' ? inserted.id : inserted);
}

/**
 * Insert each row unless one with the same `conflict` columns (a unique index) is there already;
 * answers, row by row, whether it was inserted. The conflict columns are text or integers (they
 * are matched as text). PostgreSQL and SQLite do it in one statement
 * (`ON CONFLICT DO NOTHING RETURNING`); MySQL, one `INSERT IGNORE` a row, read by its affected
 * rows, since its multi-row insert says how many were new but not which.
 */
export async function insertNew(
  knex: Knex,
  client: string,
  table: string,
  rows: Array<Record<string, unknown>>,
  conflict: string[]
): Promise<boolean[]> {
  if (rows.length === 0) return [];
  if (client !== 'mysql') {
    const inserted = (await knex(table).insert(rows).onConflict(conflict).ignore().returning(conflict)) as Array<Record<string, unknown>>;
    const key = (row: Record<string, unknown>) => JSON.stringify(conflict.map((name) => String(row[name])));
    const added = new Set(inserted.map(key));
    return rows.map((row) => added.has(key(row)));
  }
  const answers: boolean[] = [];
  for (const row of rows) {
    const { sql, bindings } = knex(table).insert(row).onConflict(conflict).ignore().toSQL().toNative();
    const [header] = (await knex.raw(sql, bindings as never)) as unknown as [{ affectedRows: number }];
    answers.push(header.affectedRows === 1);
  }
  return answers;
}

/**
 * Update the rows `where` selects and answer them as they were read, `columns` only (the values
 * set are the caller's own). PostgreSQL and SQLite: one `UPDATE … RETURNING`. MySQL: in one
 * transaction, the rows read with `FOR UPDATE` (so no other writer changes them in between),
 * then updated by id, once more under `where`.
 */
export async function updateReturning<Row>(
  knex: Knex,
  client: string,
  table: string,
  where: (query: ReturnType<Knex>) => ReturnType<Knex>,
  values: Record<string, unknown>,
  columns: string[]
): Promise<Row[]> {
  if (client !== 'mysql') return (await where(knex(table)).update(values, columns)) as Row[];
  return knex.transaction(async (trx) => {
    const rows = (await where(trx(table))
      .select('id', ...columns)
      .forUpdate()) as Array<Row & { id: number }>;
    if (rows.length === 0) return [];
    for (let start = 0; start < rows.length; start += 1_000) {
      await where(trx(table))
        .whereIn(
          'id',
          rows.slice(start, start + 1_000).map((row) => row.id)
        )
        .update(values);
    }
    return rows.map(({ id, ...row }) => (columns.includes('id') ? { id, ...row } : row) as Row);
  });
}
